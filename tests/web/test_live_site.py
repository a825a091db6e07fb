"""`tourney serve --site DIR`: the server publishes the site by itself after each
change (tourney/web/live_site.py), one publish at a time, coalescing; a failing
publish is reported and the server goes on. On SQLite and PostgreSQL."""
from __future__ import annotations

import json
import threading

import pytest
from serve_helpers import (
    TOKEN,
    LiveServer,
    big_event,
    client,
    match_csv,
    path_of,
    post_all,
    seated_event,
    send_csv,
)

from tourney.web import app as web_app
from tourney.web import live_site
from tourney.web.live_site import LivePublisher

BEARER = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}


def matches_published(site, slug: str, number: int) -> list:
    """The matches of round ``number`` as the published site's data lists them."""
    data = json.loads((site / "events" / slug / f"matches-{number}.json").read_text("utf-8"))
    return data["matches"]


class NothingPublished:
    """The report of a publish that a test only counts."""
    changed_files = pages = 0


def counting(monkeypatch, publish):
    """Each publish of the server (the live site's, the button's) counted and done by
    ``publish(config, jobs)``, held at its start while ``gate`` is not set (tests set
    it to let publishes through)."""
    calls: list[int] = []
    gate = threading.Event()
    gate.set()

    def counted(config, jobs=1):
        calls.append(jobs)
        assert gate.wait(30), "the test never let the publish through"
        return publish(config, jobs)

    monkeypatch.setattr(web_app, "_publish_site", counted)
    return calls, gate


@pytest.fixture
def publishes(monkeypatch):
    """The server's publishes counted (:func:`counting`), each one done."""
    return counting(monkeypatch, web_app._publish_site)


@pytest.fixture
def counted_only(monkeypatch):
    """The server's publishes counted (:func:`counting`), none done: a test of when
    they run."""
    return counting(monkeypatch, lambda config, jobs: NothingPublished())


def test_a_result_at_the_table_shows_on_the_published_site(tourney, db_url, tmp_path,
                                                          publishes):
    calls, _ = publishes
    links = seated_event(tourney, lang="en")
    site = tmp_path / "site"
    web = client(db_url, auto_accept=True, site_dir=str(site), live_site=True)
    publisher = web.app.state.server.live_site
    # reading changes nothing: no publish
    assert web.get("/org/club", headers=BEARER).status_code == 200
    assert publisher.publishes == 0 and not site.exists()
    assert send_csv(web, links["1"], match_csv(tourney, "club", 1, "1")).status_code == 200
    assert publisher.wait(60)
    assert calls == [1]  # one publish, one job: no fork from the threaded server
    assert [m["table"] for m in matches_published(site, "club", 1)] == ["1"]
    assert publisher.last.error is None and publisher.last.changed_files > 0
    page = web.get("/org/club", headers={"Authorization": f"Bearer {TOKEN}"}).text
    assert "The site follows the evening: published at" in page
    # an arbiter's decision is a change the site shows too: the same one way
    seats = {t["table"]: t["seats"] for t in
             tourney("round", "show", "club", "1", "--json").json["tables"]}
    assert web.post("/org/club/forfeit", headers=BEARER,
                    data={"table": "2", "player": seats["2"][0]}).status_code == 200
    assert publisher.wait(60) and len(calls) == 2
    published = json.loads((site / "events" / "club" / "matches-1.json").read_text("utf-8"))
    assert [f["table"] for f in published["forfeits"]] == ["2"]
    # the organizer's own publish records site.publish, which sets off no live one
    assert web.post("/org/club/publish", headers=BEARER).json()["done"] == "published"
    assert publisher.wait(60) and len(calls) == 3 and publisher.publishes == 2
    assert calls[-1] == 1  # the button's publish in one job too: no fork from the server


def test_a_burst_of_results_gives_two_publishes(tourney, db_url, tmp_path, counted_only):
    """30 tables send at once, through the group commit: the first change starts a
    publish (held here until every answer is in), the other 29 ask for one more."""
    calls, gate = counted_only
    links = big_event(tourney, "big", 30)
    site = tmp_path / "site"
    gate.clear()
    with LiveServer(db_url, auto_accept=True, site_dir=str(site), live_site=True) as live:
        publisher = live.app.state.server.live_site
        sheet = tourney("round", "sheet", "big", 1).stdout
        requests = [(path_of(link["url"]), match_csv(tourney, "big", 1, table, sheet=sheet))
                    for table, link in links.items()]
        answers = post_all(live.url, requests, workers=10)
        assert [status for status, _, _ in answers] == [200] * 30  # none waited for the site
        assert len(calls) == 1  # the first publish, still held
        gate.set()
        assert publisher.wait(120)
        assert len(calls) == 2 and publisher.publishes == 2


def test_a_failing_publish_leaves_the_server_answering_and_the_result_stored(
        tourney, db_url, tmp_path):
    links = seated_event(tourney, lang="sv")
    site = tmp_path / "site"
    site.write_text("not a folder")  # the publish cannot write there
    heard = []
    web = client(db_url, auto_accept=True, site_dir=str(site), live_site=True,
                 live_site_report=heard.append)
    publisher = web.app.state.server.live_site
    assert send_csv(web, links["1"], match_csv(tourney, "club", 1, "1")).status_code == 200
    assert publisher.wait(60)
    error = publisher.last.error
    assert error is not None and str(site) in str(error) and heard == [publisher.last]
    assert tourney("result", "show", "club", "1", "1", "--json").json["places"]  # stored
    # the organizer's page says it, in the page's language, and the server goes on
    page = web.get("/org/club", headers={"Authorization": f"Bearer {TOKEN}"}).text
    assert "misslyckades" in page and "kunde inte publiceras" in page
    site.unlink()
    assert send_csv(web, links["2"], match_csv(tourney, "club", 1, "2")).status_code == 200
    assert publisher.wait(60) and publisher.last.error is None
    assert len(heard) == 2 and heard[1].error is None  # published again: said once
    assert len(matches_published(site, "club", 1)) == 2


def test_only_the_process_that_stored_a_result_publishes(tourney, db_url, tmp_path):
    """`--workers N`: each process hears only of its own commits, so a result is
    published once, not once per process."""
    links = seated_event(tourney, lang="en")
    site = str(tmp_path / "site")
    first, second = (client(db_url, auto_accept=True, site_dir=site, live_site=True,
                            processes=2) for _ in range(2))
    assert send_csv(first, links["1"], match_csv(tourney, "club", 1, "1")).status_code == 200
    assert first.app.state.server.live_site.wait(60)
    assert first.app.state.server.live_site.publishes == 1
    assert second.app.state.server.live_site.publishes == 0


def test_no_live_site_without_asking_or_without_a_folder(db_url, tmp_path):
    assert client(db_url, site_dir=str(tmp_path)).app.state.server.live_site is None
    assert client(db_url, live_site=True).app.state.server.live_site is None


def test_the_publisher_coalesces_and_stops():
    """Without a server: 30 changes during a publish give one more publish; after
    stop, none; a publish that never ends does not hold stop up for ever."""
    gate, started = threading.Event(), threading.Semaphore(0)

    class Report:
        changed_files = 1
        pages = 1

    def publish():
        started.release()
        assert gate.wait(30)
        return Report()

    publisher = LivePublisher(publish, "site")
    publisher.changed()
    assert started.acquire(timeout=30)
    for _ in range(30):
        publisher.changed()
    gate.set()
    assert publisher.wait(30) and publisher.publishes == 2
    gate.clear()
    publisher.changed()
    assert started.acquire(timeout=30)
    publisher.stop(timeout=0)  # abandoned: the thread is a daemon
    publisher.changed()
    gate.set()
    assert publisher.wait(30) and publisher.publishes == 3


def test_the_server_exit_stops_the_live_site(db_url, tmp_path, monkeypatch, counted_only):
    """The app's lifespan: a publish at start (the site brought up to date), and at
    the exit no more publishes; one under way is abandoned after STOP_SECONDS."""
    calls, gate = counted_only
    monkeypatch.setattr(live_site, "STOP_SECONDS", 0)
    gate.clear()
    with LiveServer(db_url, site_dir=str(tmp_path / "site"), live_site=True) as live:
        publisher = live.app.state.server.live_site
    assert calls == [1] and publisher.running  # held, abandoned: the exit did not wait
    publisher.changed()
    gate.set()
    assert publisher.wait(60) and len(calls) == 1


def test_the_command_line_says_a_failed_publish_and_the_next_that_worked(capsys):
    import datetime as dt

    from tourney.cli.serve import report_live_publish

    failed = live_site.publish_failure("site/", OSError(28, "No space left on device"))
    report_live_publish(live_site.LivePublish(dt.datetime.now(dt.timezone.utc), error=failed))
    report_live_publish(live_site.LivePublish(dt.datetime.now(dt.timezone.utc), 3))
    assert capsys.readouterr().err.splitlines() == [
        "live site: the site in site/ could not be published: "
        "[Errno 28] No space left on device",
        "live site: published again"]


@pytest.mark.parametrize("flags, live", [((), True), (("--no-live-site",), False)])
def test_serve_with_a_site_keeps_it_live_unless_told_not_to(tourney, tmp_path, monkeypatch,
                                                           flags, live):
    """`tourney serve --site DIR` (the command, its server not run): live by default."""
    from tourney.web import listen

    served = []

    class NotRun:
        def __init__(self, app, **options):
            served.append(app.state.server)

        def run(self, sockets):
            pass

    monkeypatch.setattr(listen, "web_server", NotRun)
    tourney("serve", "--port", "0", "--site", str(tmp_path / "site"), *flags)
    (server,) = served
    assert (server.live_site is not None) is live


def test_first_publishes_of_two_processes_take_turns(tourney, db_url, tmp_path):
    """`--workers N` publish at start, into a folder not made yet: one builds the
    site, the others wait for it and find nothing changed (not N full builds)."""
    seated_event(tourney, lang="en")
    site = str(tmp_path / "site")
    servers = [client(db_url, site_dir=site, live_site=True).app.state.server
               for _ in range(2)]
    together = threading.Barrier(2)
    reports = []

    def publish(server):
        together.wait(10)
        reports.append(web_app._publish_site(server.config))

    threads = [threading.Thread(target=publish, args=(s,)) for s in servers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert sorted(report.unchanged for report in reports) == [False, True]
