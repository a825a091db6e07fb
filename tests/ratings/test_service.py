"""Ratings in the database (SQLite and PostgreSQL): pools, order, refresh after
new, corrected and deleted results, bit-identical recompute, reading."""
from __future__ import annotations

import datetime as dt
import json
import random

import pytest
from rating_helpers import (
    add_event,
    add_match,
    add_players,
    correct_match,
    make_engine,
    recomputed,
    snapshot,
)
from sqlalchemy import select

from tourney.app.ratings import predict_names, rating_history
from tourney.app.results import revert_result
from tourney.errors import TourneyError, UsageError
from tourney.ordering import natural_key
from tourney.ratings.engine import rate_matches
from tourney.ratings.models import ModelSpec
from tourney.ratings.service import (
    configure_pool,
    get_pool,
    pool_settings,
    rating_list,
    rating_order,
    recompute,
    refresh_after_results,
)
from tourney.storage.db import transaction
from tourney.storage.models import (
    AuditLog,
    Match,
    MatchPlace,
    Player,
    Rating,
    RatingHistory,
)

VARIANT = "spardame"


def season(session, ids, rng, slug, date, rounds=3, tables=3, variant=VARIANT):
    """An event of ``rounds`` rounds, ``tables`` tables of four, some ties."""
    event_id = add_event(session, slug, date=date, variant=variant)
    players = list(ids.values())
    for number in range(1, rounds + 1):
        rng.shuffle(players)
        for t in range(tables):
            seats = players[4 * t:4 * t + 4]
            places = rng.choice(([1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 2, 4], [1, 1, 3, 4]))
            add_match(session, event_id, number, str(t + 1), list(zip(seats, places)))
    return event_id


@pytest.fixture
def engine(db_url):
    return make_engine(db_url)


@pytest.fixture
def people(engine):
    with transaction(engine) as session:
        return add_players(session, [f"P{i:02d}" for i in range(12)])


def pure_ratings(session, variant=VARIANT, spec=None):
    """The pool's matches rated by the pure engine in rating order."""
    rankings = []
    for item in rating_order(session, variant):
        places = session.execute(
            select(MatchPlace.player_id, MatchPlace.place, MatchPlace.seat)
            .where(MatchPlace.version_id == item.version_id)).all()
        places.sort(key=lambda r: (r[1], r[2], r[0]))
        rankings.append([(p, place) for p, place, _ in places])
    rater, _ = rate_matches((spec or ModelSpec.create()).build(), rankings)
    return rater


def test_incremental_refresh_equals_recompute_bit_for_bit(engine, people):
    rng = random.Random(1)
    rated = []
    for number in range(4):
        with transaction(engine) as session:
            # dates out of creation order: later imports land before earlier ones
            season(session, people, rng, f"ev{number}", dt.date(2024, 3, 10 - 2 * number))
            rated.append(refresh_after_results(session, VARIANT))
    assert rated[0] == 9 and all(n > 9 for n in rated[1:])  # replays from the new event
    with transaction(engine) as session:
        assert refresh_after_results(session, VARIANT) == 0
        incremental = snapshot(session, VARIANT)
    with transaction(engine) as session:
        assert recompute(session, VARIANT) == {VARIANT: 36}
        full = snapshot(session, VARIANT)
    assert incremental == full  # == on floats: bit-identical
    with transaction(engine) as session:
        rater = pure_ratings(session)
    ratings, history = full
    assert {p: (mu, sigma) for p, mu, sigma, _ in ratings} == rater.ratings()
    assert {p: n for p, _, _, n in ratings} == rater.match_counts() == {p: 12 for p in people.values()}
    assert sorted({h[0] for h in history}) == list(range(1, 37))


def test_a_correction_replays_from_that_match(engine, people):
    rng = random.Random(2)
    with transaction(engine) as session:
        season(session, people, rng, "first", dt.date(2024, 1, 1))
        season(session, people, rng, "second", dt.date(2024, 2, 1))
        refresh_after_results(session, VARIANT)
        order = rating_order(session, VARIANT)
        before = snapshot(session, VARIANT)
    target = order[12]  # the second event's round 2, table 1
    with transaction(engine) as session:
        places = session.execute(select(MatchPlace.player_id, MatchPlace.place)
                                 .where(MatchPlace.version_id == target.version_id)).all()
        correct_match(session, target.match_id, [(p, 5 - place if place != 2 else 3)
                                                 for p, place in places])
        assert refresh_after_results(session, VARIANT) == len(order) - 12
        corrected = snapshot(session, VARIANT)
    assert corrected[1][:12 * 4] == before[1][:12 * 4]  # history before it kept as it was
    assert corrected != before
    with transaction(engine) as session:
        recompute(session, VARIANT)
        assert snapshot(session, VARIANT) == corrected
        new_version = session.get(Match, target.match_id).current_version_id
        versions = {h[2] for h in corrected[1] if h[1] == target.match_id}
        assert versions == {new_version}


def test_a_deleted_result_and_a_deleted_match(engine, people):
    rng = random.Random(3)
    with transaction(engine) as session:
        season(session, people, rng, "only", dt.date(2024, 1, 1), rounds=4)
        refresh_after_results(session, VARIANT)
        order = rating_order(session, VARIANT)
    with transaction(engine) as session:  # the result withdrawn: no current version
        match = session.get(Match, order[4].match_id)
        match.current_version_id = None
        session.add(match)
        session.flush()
        assert refresh_after_results(session, VARIANT) == len(order) - 5
        withdrawn = snapshot(session, VARIANT)
    assert order[4].match_id not in {h[1] for h in withdrawn[1]}
    assert recomputed(engine, VARIANT) == withdrawn


def test_a_player_whose_only_match_is_withdrawn_loses_the_rating(engine, people):
    with transaction(engine) as session:
        extra = add_players(session, ["Guest"])["Guest"]
        event = add_event(session, "one", date=dt.date(2024, 1, 1))
        p = list(people.values())
        add_match(session, event, 1, "1", [(p[0], 1), (p[1], 2), (p[2], 3), (p[3], 4)])
        guest_match = add_match(session, event, 1, "2", [(extra, 1), (p[4], 2)])
        refresh_after_results(session, VARIANT)
        assert extra in {r[0] for r in snapshot(session, VARIANT)[0]}
        match = session.get(Match, guest_match)
        match.current_version_id = None
        session.add(match)
        session.flush()
        assert refresh_after_results(session, VARIANT) == 0  # it was the last match
        ratings = snapshot(session, VARIANT)[0]
    assert {r[0] for r in ratings} == set(p[:4])


def test_rating_order_dates_undated_events_and_natural_tables(engine, people):
    p = list(people.values())
    with transaction(engine) as session:
        late = add_event(session, "late", date=dt.date(2024, 6, 1))
        undated = add_event(session, "undated", created_at=dt.datetime(
            2024, 3, 1, 12, tzinfo=dt.timezone.utc))
        early = add_event(session, "early", date=dt.date(2024, 1, 1))
        ids = {}
        for event, name in ((late, "late"), (undated, "undated"), (early, "early")):
            for number in (2, 1):
                for table in ("10", "2", "1b", "1a"):
                    ids[add_match(session, event, number, table, [(p[0], 1), (p[1], 2)])] = (
                        name, number, table)
        order = [ids[m.match_id] for m in rating_order(session, VARIANT)]
    expected = [(name, number, table) for name in ("early", "undated", "late")
                for number in (1, 2) for table in ("1a", "1b", "2", "10")]
    assert order == expected
    assert natural_key("2") < natural_key("10") < natural_key("A1") < natural_key("A2")


def test_moving_an_events_date_reorders_the_pool(engine, people):
    rng = random.Random(4)
    with transaction(engine) as session:
        season(session, people, rng, "a", dt.date(2024, 1, 1))
        b = season(session, people, rng, "b", dt.date(2024, 2, 1))
        refresh_after_results(session, VARIANT)
    with transaction(engine) as session:
        from tourney.storage.models import Event

        event = session.get(Event, b)
        event.date = dt.date(2023, 12, 1)
        session.add(event)
        session.flush()
        assert refresh_after_results(session, VARIANT) == 18
        moved = snapshot(session, VARIANT)
        first_match = rating_order(session, VARIANT)[0].match_id
        assert session.get(Match, first_match).event_id == b
    assert recomputed(engine, VARIANT) == moved


def test_pools_are_per_variant(engine, people):
    rng = random.Random(5)
    with transaction(engine) as session:
        season(session, people, rng, "s", dt.date(2024, 1, 1), variant="spardame")
        season(session, people, rng, "d", dt.date(2024, 1, 2), variant="dam-stick")
        assert refresh_after_results(session, "spardame") == 9
        assert rating_list(session, "dam-stick") == []
        assert recompute(session) == {"dam-stick": 9, "spardame": 9}
        entries = rating_list(session)
    assert {e.variant for e in entries} == {"spardame", "dam-stick"}
    assert len(entries) == 24


def test_pool_model_and_params_are_recorded_and_recompute(engine, people):
    rng = random.Random(6)
    with transaction(engine) as session:
        season(session, people, rng, "s", dt.date(2024, 1, 1))
        refresh_after_results(session, VARIANT)
        default = snapshot(session, VARIANT)
        settings = pool_settings(session, VARIANT)
        assert settings.model == "PlackettLuce" and settings.params["tau"] == 25 / 300
        assert settings.matches == 9 and settings.players == 12
    with transaction(engine) as session:
        changed = configure_pool(session, VARIANT, model="ThurstoneMostellerFull",
                                 params={"tau": "0"})
        assert changed.recomputed == 9
        pool = get_pool(session, VARIANT)
        assert pool.model == "ThurstoneMostellerFull"
        stored = json.loads(pool.params_json)
        assert stored["tau"] == 0.0 and stored["epsilon"] == 0.1
        other = snapshot(session, VARIANT)
        spec = ModelSpec.from_record(pool.model, pool.params_json)
        assert pure_ratings(session, spec=spec).ratings() == {
            p: (mu, s) for p, mu, s, _ in other[0]}
    assert other != default
    with transaction(engine) as session:
        # only the threshold: no recompute; the audit log has both changes
        again = configure_pool(session, VARIANT, provisional=3)
        assert again.recomputed is None and again.provisional_matches == 3
        assert snapshot(session, VARIANT) == other
        audit = session.execute(select(AuditLog).where(AuditLog.action == "rating.pool")).scalars().all()
        assert len(audit) == 2
        assert json.loads(audit[0].after_json)["model"] == "ThurstoneMostellerFull"
    with transaction(engine) as session:
        back = configure_pool(session, VARIANT, model="PlackettLuce")
        assert back.recomputed == 9 and back.params["tau"] == 25 / 300
        assert snapshot(session, VARIANT) == default


def test_unknown_variant_and_bad_params(engine):
    with transaction(engine) as session:
        with pytest.raises(UsageError, match="unknown variant"):
            refresh_after_results(session, "chess")
        with pytest.raises(UsageError, match="margin"):
            configure_pool(session, VARIANT, params={"margin": "2"})


def test_merged_players_count_as_the_kept_player(engine, people):
    from tourney.tournament.players import merge_players

    p = list(people.values())
    with transaction(engine) as session:
        dup = add_players(session, ["P00 again"])["P00 again"]
        event = add_event(session, "m", date=dt.date(2024, 1, 1))
        add_match(session, event, 1, "1", [(p[0], 1), (p[1], 2), (p[2], 3)])
        add_match(session, event, 2, "1", [(dup, 3), (p[1], 1), (p[2], 2)])
        add_match(session, event, 3, "1", [(p[0], 2), (p[1], 1), (p[3], 3)])
        refresh_after_results(session, VARIANT)
        assert len(snapshot(session, VARIANT)[0]) == 5
    with transaction(engine) as session:
        merge_players(session, "P00", "P00 again")
    with transaction(engine) as session:
        assert refresh_after_results(session, VARIANT) > 0
        merged = snapshot(session, VARIANT)
        assert dup not in {r[0] for r in merged[0]}
        kept = [r for r in merged[0] if r[0] == p[0]]
        assert kept[0][3] == 3
        assert refresh_after_results(session, VARIANT) == 0
    assert recomputed(engine, VARIANT) == merged


def test_rating_list_history_and_prediction(engine, people):
    rng = random.Random(7)
    with transaction(engine) as session:
        season(session, people, rng, "s", dt.date(2024, 1, 1), rounds=6)
        guest = add_players(session, ["Guest"])["Guest"]
        event = add_event(session, "g", date=dt.date(2024, 2, 1))
        add_match(session, event, 1, "1", [(guest, 1), (people["P00"], 2)])
        refresh_after_results(session, VARIANT)
        entries = rating_list(session, VARIANT)
        # ranked together by ordinal; the guest (one match, sigma high) is marked
        assert [e.player for e in entries if e.provisional] == ["Guest"]
        ordinals = [e.ordinal for e in entries]
        assert ordinals == sorted(ordinals, reverse=True)
        assert all(e.provisional for e in rating_list(session, VARIANT, provisional=50))
        data = entries[0].to_json()
        assert set(data) == {"player", "variant", "mu", "sigma", "ordinal", "matches",
                             "provisional"}
        assert data["ordinal"] == data["mu"] - 3 * data["sigma"]

        player, history = rating_history(session, "P00")
        assert player.name == "P00" and len(history) == 7
        assert [h.sequence for h in history] == sorted(h.sequence for h in history)
        for earlier, later in zip(history, history[1:]):
            assert later.mu_before == earlier.mu_after
        assert history[-1].event == "g" and history[-1].players == 2
        assert history[0].players == 4 and history[0].mu_before == 25.0
        with pytest.raises(TourneyError, match="unknown player"):
            rating_history(session, "Nobody")

        table = predict_names(session, VARIANT, ["P00", "P01", "Guest", "P02"])
        data = table.to_json()
        assert [p["player"] for p in data["players"]] == ["P00", "P01", "Guest", "P02"]
        assert abs(sum(p["win_probability"] for p in data["players"]) - 1) < 1e-9
        rating = session.execute(select(Rating.mu).where(Rating.player_id == people["P00"])).scalar()
        assert data["players"][0]["mu"] == rating
        newcomer = add_players(session, ["Newcomer"])
        table = predict_names(session, VARIANT, ["Newcomer", "P00"])
        assert table.rated == (False, True) and table.prediction.mu[0] == 25.0
        with pytest.raises(UsageError, match="named twice"):
            predict_names(session, VARIANT, ["P00", "P00"])
        assert newcomer


def test_refresh_inside_a_failed_transaction_leaves_nothing(engine, people):
    rng = random.Random(8)
    with pytest.raises(RuntimeError):
        with transaction(engine) as session:
            season(session, people, rng, "x", dt.date(2024, 1, 1))
            refresh_after_results(session, VARIANT)
            raise RuntimeError("the import failed after rating")
    with transaction(engine) as session:
        assert session.execute(select(Rating)).first() is None
        assert session.execute(select(Player)).first() is not None


def test_history_is_stored_exactly_and_both_write_paths_agree(engine, people, monkeypatch):
    """History rows go through the driver (executemany / COPY) or SQLAlchemy's bulk
    insert; either way each player's last row holds the rating's exact floats."""
    from tourney.storage import bulk

    rng = random.Random(9)
    with transaction(engine) as session:
        season(session, people, rng, "w", dt.date(2024, 1, 1), rounds=5)
        recompute(session, VARIANT)
        fast = snapshot(session, VARIANT)
    monkeypatch.setattr(bulk, "FAST_BULK_WRITES", False)
    with transaction(engine) as session:
        recompute(session, VARIANT)
        slow = snapshot(session, VARIANT)
    assert slow == fast
    ratings, history = fast
    last = {}
    for row in history:  # sorted by sequence
        last[row[3]] = (row[7], row[8])
    assert last == {p: (mu, sigma) for p, mu, sigma, _ in ratings}
    with transaction(engine) as session:
        assert pure_ratings(session).ratings() == last
        stamps = session.execute(select(RatingHistory.rated_at)).scalars().all()
    assert stamps and all(s.utcoffset() == dt.timedelta(0) for s in stamps)


def test_added_matches_after_the_last_rated_one_are_rated_on_their_own(engine, people,
                                                                        monkeypatch):
    """Tonight's results come after every rated match: rated alone (no replay, only
    their players' ratings read), bit-identical to a recompute; a match that sorts
    among the rated ones, or one rated already, goes through the replay."""
    from tourney.ratings import service

    rng = random.Random(5)
    players = list(people.values())
    with transaction(engine) as session:
        season(session, people, rng, "early", dt.date(2024, 3, 1))
        refresh_after_results(session, VARIANT)
        late = add_event(session, "late", date=dt.date(2024, 4, 1), variant=VARIANT)
    replays = []
    real_replay = service._replay
    monkeypatch.setattr(service, "_replay", lambda *a, **k: replays.append(a) or real_replay(*a, **k))
    for number in (1, 2):
        with transaction(engine) as session:
            rng.shuffle(players)
            added = [add_match(session, late, number, str(t + 1),
                               [(p, place) for p, place in zip(players[4 * t:4 * t + 4],
                                                               (1, 2, 3, 4))])
                     for t in range(3)]
            assert refresh_after_results(session, VARIANT, added=added) == 3
    assert replays == []  # rated on their own
    with transaction(engine) as session:
        appended = snapshot(session, VARIANT)
    with transaction(engine) as session:
        recompute(session, VARIANT)
        assert snapshot(session, VARIANT) == appended  # == on floats: bit-identical
    # an event dated before the last rated match: its matches sort among the rated
    replays.clear()
    with transaction(engine) as session:
        earlier = add_event(session, "earlier", date=dt.date(2024, 2, 1), variant=VARIANT)
        added = [add_match(session, earlier, 1, "1", [(p, i + 1) for i, p in
                                                      enumerate(players[:4])])]
        refresh_after_results(session, VARIANT, added=added)
        refreshed = snapshot(session, VARIANT)
    assert len(replays) == 1
    with transaction(engine) as session:
        recompute(session, VARIANT)
        assert snapshot(session, VARIANT) == refreshed


def test_corrected_matches_replay_from_the_first_of_them_alone(engine, people, monkeypatch):
    """A correction told which matches it replaced replays from the first of them,
    reading the history from there on (not the rating order of the whole pool),
    bit-identical to a recompute: also for a player whose first rated match comes
    after the corrected one, and for two matches corrected at once. A replaced
    match that was never rated goes through the full replay."""
    from tourney.ratings import service

    rng = random.Random(7)
    with transaction(engine) as session:
        season(session, people, rng, "first", dt.date(2024, 1, 1))
        newcomers = add_players(session, ["N1", "N2"])
        later = season(session, people, rng, "second", dt.date(2024, 2, 1))
        add_match(session, later, 4, "1", [(newcomers["N1"], 1), (newcomers["N2"], 2),
                                            (people["P00"], 3), (people["P01"], 4)])
        refresh_after_results(session, VARIANT)
        order = rating_order(session, VARIANT)
    orders_read = []
    real_order = service.rating_order
    monkeypatch.setattr(service, "rating_order",
                        lambda *a: orders_read.append(a) or real_order(*a))

    for targets in ([10], [4, 14], [len(order) - 1]):
        with transaction(engine) as session:
            before = snapshot(session, VARIANT)
            for index in targets:
                places = session.execute(
                    select(MatchPlace.player_id, MatchPlace.place)
                    .join(Match, Match.current_version_id == MatchPlace.version_id)
                    .where(Match.id == order[index].match_id)).all()
                correct_match(session, order[index].match_id,
                              [(p, 5 - place) for p, place in places])
            rated = refresh_after_results(session, VARIANT,
                                          replaced=[order[i].match_id for i in targets])
            assert orders_read == []  # neither replayed nor compared with the whole order
            assert rated == len(order) - min(targets)
            corrected = snapshot(session, VARIANT)
        assert corrected != before
        kept = [h for h in before[1] if h[0] <= min(targets)]
        assert [h for h in corrected[1] if h[0] <= min(targets)] == kept  # as it was
        assert recomputed(engine, VARIANT) == corrected  # == on floats: bit-identical
        orders_read.clear()
    # a revert to the first version is a correction too
    with transaction(engine) as session:
        match = session.get(Match, order[10].match_id)
        assert revert_result(session, "second", match.round_number, match.table, 1)
        assert orders_read == []
        reverted = snapshot(session, VARIANT)
    assert recomputed(engine, VARIANT) == reverted
    orders_read.clear()
    # a replaced match that was never rated (a match of one player rates nobody)
    with transaction(engine) as session:
        lonely = add_match(session, later, 5, "1", [(people["P02"], 1)])
        refresh_after_results(session, VARIANT)
        orders_read.clear()
        correct_match(session, lonely, [(people["P02"], 1), (people["P03"], 2)])
        assert refresh_after_results(session, VARIANT, replaced=[lonely]) == 1
        assert len(orders_read) == 1  # the full replay placed it
        refreshed = snapshot(session, VARIANT)
    assert recomputed(engine, VARIANT) == refreshed
