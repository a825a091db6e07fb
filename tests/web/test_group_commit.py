"""The server's group commit, on SQLite and PostgreSQL: results sent while a write is
under way are stored together, in one transaction, each answered on its own (stored,
unchanged, conflict, invalid, unknown link); one that fails is undone alone; one
that lost a race is run again alone; the ratings after a batch are those of a full
recompute."""
from __future__ import annotations

import asyncio
import threading
import time

import httpx
from serve_helpers import TOKEN, big_event, client, match_csv, path_of, send_csv
from sqlalchemy import func
from sqlmodel import select

from tourney.app import tables
from tourney.ratings.service import recompute_changes
from tourney.storage.db import ConflictingChange, open_engine, reading, transaction
from tourney.storage.models import AuditLog, Match, MatchVersion, Submission
from tourney.storage.schema import ensure_schema
from tourney.tournament import table_links
from tourney.web.app import ServerConfig, create_app

TABLES = 8


def serve_app(db_url: str):
    engine = open_engine(db_url)
    ensure_schema(engine)
    return create_app(ServerConfig(engine=engine, secret=TOKEN, auto_accept=True,
                                   failure_delay=0))


def stored_counts(db_url: str) -> tuple[int, int, int]:
    """(matches with a result, versions, accepted submissions)."""
    with reading(open_engine(db_url)) as session:
        return (session.exec(select(func.count()).select_from(Match)
                             .where(Match.current_version_id.is_not(None))).one(),
                session.exec(select(func.count()).select_from(MatchVersion)).one(),
                session.exec(select(func.count()).select_from(Submission)
                             .where(Submission.state == "accepted")).one())


async def _until(check, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "the requests never queued"
        await asyncio.sleep(0.01)


def send_in_one_batch(app, requests: list[tuple[str, str]]) -> list[httpx.Response]:
    """POST each (path, CSV) to the app while a write holds its writer: every one
    queues behind it, and they are then written as one batch."""
    results = app.state.server.results

    async def run():
        gate = threading.Event()
        holding = asyncio.ensure_future(results.run(lambda session: gate.wait(60)))
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as web:
            sends = [asyncio.ensure_future(web.post(path, content=body,
                                                    headers={"Content-Type": "text/csv"}))
                     for path, body in requests]
            await _until(lambda: len(results.queue) == len(requests))
            gate.set()
            answers = await asyncio.gather(*sends)
        assert await holding is True
        return answers

    return asyncio.run(run())


def run_in_one_batch(app, works: list) -> list:
    """Each ``work(session)`` through the server's group commit, all queued before
    the first is written (one batch); each one's answer or exception."""
    results = app.state.server.results

    async def run():
        return await asyncio.gather(*(results.run(work) for work in works),
                                    return_exceptions=True)

    return asyncio.run(run())


def submitting(token: str, body: str):
    """The work of a result sent through the link ``token`` (as the server's POST)."""
    def work(session):
        link = table_links.link_by_token(session, token, lock=True)
        return tables.submit(session, link, body, auto_accept=True, locked=True).outcome
    return work


def token_of(link: dict) -> str:
    return path_of(link["url"]).rsplit("/", 1)[1]


def bodies(tourney, slug: str, links: dict) -> dict[str, str]:
    return {table: match_csv(tourney, slug, 1, table) for table in links}


def invalid(body: str) -> str:
    """``body`` (seat 1 loses every deal) with two losers in its first deal."""
    return body.replace(",0;1;0;0", ",1;1;0;0", 1)


def test_results_sent_during_a_write_are_stored_together_each_with_its_own_answer(
        tourney, db_url):
    links = big_event(tourney, "batch", TABLES)
    sent = bodies(tourney, "batch", links)
    first, second, third = sorted(links)[:3]
    requests = [(path_of(links[t]["url"]), sent[t]) for t in sorted(links)]
    expected = [(200, "stored")] * TABLES
    # a second phone of a table: the same sheet is unchanged, another a conflict
    requests.append((path_of(links[first]["url"]), sent[first]))
    expected.append((200, "unchanged"))
    requests.append((path_of(links[second]["url"]), match_csv(tourney, "batch", 1, second,
                                                               loser_seat=2)))
    expected.append((409, "conflict"))
    # a bad one in the batch: its errors kept beside the stored result
    requests.append((path_of(links[third]["url"]), invalid(sent[third])))
    expected.append((422, "invalid"))
    requests.append(("/t/no-such-link", sent[first]))
    expected.append((404, "unknown-link"))
    app = serve_app(db_url)
    answers = send_in_one_batch(app, requests)
    assert [(a.status_code, a.json()["outcome"]) for a in answers] == expected
    results = app.state.server.results
    assert (results.written, results.largest) == (2, len(requests))  # the holder, then all
    assert stored_counts(db_url) == (TABLES, TABLES, TABLES)
    with reading(open_engine(db_url)) as session:
        kept = session.exec(select(Submission.state).where(
            Submission.state != "accepted")).all()
    assert sorted(kept) == ["conflict", "conflict"]  # the other sheet; the invalid one
    # one refresh for the batch: the ratings are those of a full recompute
    with transaction(open_engine(db_url)) as session:
        rated, changed = recompute_changes(session, "svarta-maja")["svarta-maja"]
    assert (rated, changed) == (TABLES, False)


def test_a_table_sent_twice_in_one_batch_is_stored_once(tourney, db_url):
    links = big_event(tourney, "twice", 2)
    sent = bodies(tourney, "twice", links)
    requests = [(path_of(links[t]["url"]), sent[t]) for t in sorted(links) for _ in range(3)]
    answers = send_in_one_batch(serve_app(db_url), requests)
    assert [a.json()["outcome"] for a in answers] == ["stored", "unchanged", "unchanged"] * 2
    assert stored_counts(db_url) == (2, 2, 2)


def test_a_batch_reads_its_links_in_one_statement_and_each_event_once(tourney, db_url):
    """On PostgreSQL each statement is a round trip: a batch of tables' results
    reads (and locks) their links at once, not one each, and their event once."""
    from sqlalchemy import event as sa_event

    links = big_event(tourney, "reads", TABLES)
    sent = bodies(tourney, "reads", links)
    requests = [(path_of(links[t]["url"]), sent[t]) for t in sorted(links)]
    requests.append(("/t/no-such-link", sent["1"]))
    app = serve_app(db_url)
    statements = []
    engine = app.state.server.config.engine
    listen = lambda *args: statements.append(" ".join(args[2].split()))  # noqa: E731
    sa_event.listen(engine, "before_cursor_execute", listen)
    try:
        answers = send_in_one_batch(app, requests)
    finally:
        sa_event.remove(engine, "before_cursor_execute", listen)
    assert [a.json()["outcome"] for a in answers] == ["stored"] * TABLES + ["unknown-link"]
    assert stored_counts(db_url) == (TABLES, TABLES, TABLES)
    reading_links = [s for s in statements if s.startswith("SELECT tablelink.")]
    assert len(reading_links) == 1 and "WHERE tablelink.token IN" in reading_links[0]
    if not db_url.startswith("sqlite"):  # SQLite's write transaction locks everything
        assert reading_links[0].endswith("FOR UPDATE")
    assert len([s for s in statements if s.startswith("SELECT event.")]) == 1


def test_with_review_a_batch_sees_the_result_it_just_kept_waiting(tourney, db_url):
    """--review: the batch knows at its start which links have a result waiting for
    the organizer (none here); the first phone's result is kept waiting, and the
    second phone of the table, in the same batch, is answered from it (the same
    sheet: pending; another: a conflict), as one after the other would be."""
    links = big_event(tourney, "review", 2)
    sent = bodies(tourney, "review", links)
    path = path_of(links["1"]["url"])
    other = match_csv(tourney, "review", 1, "1", loser_seat=2)
    engine = open_engine(db_url)
    ensure_schema(engine)
    app = create_app(ServerConfig(engine=engine, secret=TOKEN, auto_accept=False,
                                  failure_delay=0))
    answers = send_in_one_batch(app, [(path, sent["1"]), (path, sent["1"]), (path, other),
                                      (path_of(links["2"]["url"]), sent["2"])])
    assert [a.json()["outcome"] for a in answers] == ["received", "pending", "conflict",
                                                      "received"]
    assert app.state.server.results.largest == 4
    with reading(engine) as session:
        kept = sorted(session.exec(select(Submission.state)).all())
    assert kept == ["conflict", "submitted", "submitted"]


def test_a_write_that_fails_in_a_batch_is_undone_alone(tourney, db_url):
    links = big_event(tourney, "undone", 3)
    sent = bodies(tourney, "undone", links)
    a, b, c = sorted(links)

    def fails(session):  # stores its table's result, then breaks
        submitting(token_of(links[b]), sent[b])(session)
        raise RuntimeError("broken after storing")

    answers = run_in_one_batch(serve_app(db_url), [
        submitting(token_of(links[a]), sent[a]), fails,
        submitting(token_of(links[c]), sent[c]),
        # table b's sheet again, after the broken one: b has no result (undone)
        submitting(token_of(links[b]), sent[b])])
    assert answers[0] == answers[2] == answers[3] == "stored"
    assert isinstance(answers[1], RuntimeError)
    assert stored_counts(db_url) == (3, 3, 3)
    with reading(open_engine(db_url)) as session:
        imports = session.exec(select(func.count()).select_from(AuditLog).where(
            AuditLog.action == "result.import")).one()
    assert imports == 3  # the broken one's audit entry went with it
    with transaction(open_engine(db_url)) as session:
        assert recompute_changes(session, "svarta-maja")["svarta-maja"] == (3, False)


def test_a_write_that_lost_a_race_in_a_batch_is_run_again_alone(tourney, db_url):
    links = big_event(tourney, "race", 2)
    sent = bodies(tourney, "race", links)
    a, b = sorted(links)
    tries = []

    def races(session):  # another process stored something first, while in the batch
        tries.append(session)
        if len(tries) <= 2:  # the batch's first go, and its go with savepoints
            raise ConflictingChange("another command changed the same data")
        return submitting(token_of(links[b]), sent[b])(session)

    app = serve_app(db_url)
    answers = run_in_one_batch(app, [submitting(token_of(links[a]), sent[a]), races])
    assert answers == ["stored", "stored"]
    assert len(tries) == 3 and len({id(s) for s in tries}) == 3  # then in a transaction of its own
    assert app.state.server.results.written == 1
    assert stored_counts(db_url) == (2, 2, 2)


def test_a_batch_that_cannot_commit_answers_each_request_with_its_error(
        tourney, db_url, monkeypatch):
    error = RuntimeError("the refresh broke")
    links = big_event(tourney, "failed", 2)
    sent = bodies(tourney, "failed", links)
    import tourney.app.results as results_module

    def broken(*_args, **_kwargs):
        raise error

    monkeypatch.setattr(results_module, "_refresh", broken)
    answers = run_in_one_batch(serve_app(db_url), [
        submitting(token_of(links[t]), sent[t]) for t in sorted(links)])
    assert answers == [error, error]
    assert stored_counts(db_url) == (0, 0, 0)  # nothing acknowledged, nothing stored


def test_a_second_phone_sending_the_stored_sheet_is_answered_without_a_check(
        tourney, db_url, monkeypatch):
    links = big_event(tourney, "again", 2)
    sent = bodies(tourney, "again", links)
    a, b = sorted(links)
    web = client(db_url, auto_accept=True)
    assert send_csv(web, links[a], sent[a]).json()["outcome"] == "stored"
    checked = []
    real = tables.check_sent
    monkeypatch.setattr(tables, "check_sent", lambda *args: checked.append(1) or real(*args))
    assert send_csv(web, links[a], sent[a]).json()["outcome"] == "unchanged"
    assert checked == []  # known from its digest: the text this link stored
    # the same text through another table's link is that table's to check
    assert send_csv(web, links[b], sent[a]).json()["outcome"] == "invalid"
    assert checked == [1]


def test_one_refresh_for_matches_added_and_replaced_together_equals_a_recompute(
        tourney, db_url, monkeypatch):
    from tourney.app import results
    from tourney.ratings import service

    links = big_event(tourney, "mixed", 3)
    a, b, c = sorted(links)
    engine = open_engine(db_url)
    with transaction(engine) as session:
        results.import_results(session, match_csv(tourney, "mixed", 1, a).encode(),
                               results.ImportOptions(event="mixed"))
    refreshes = []
    real = service.refresh_after_results
    monkeypatch.setattr(service, "refresh_after_results",
                        lambda *args, **kwargs: refreshes.append(kwargs) or real(*args, **kwargs))
    with transaction(engine) as session, results.refreshing_once(session):
        for table, loser, replace in ((b, 1, False), (a, 2, True), (c, 3, False)):
            results.import_results(
                session, match_csv(tourney, "mixed", 1, table, loser_seat=loser).encode(),
                results.ImportOptions(event="mixed", replace=replace))
        assert refreshes == []  # not yet: once, when the block ends
    # added and replaced at once: neither "only added" nor "only replaced", a replay
    assert refreshes == [{"added": (), "replaced": ()}]
    with transaction(engine) as session:
        assert recompute_changes(session, "svarta-maja")["svarta-maja"] == (3, False)
