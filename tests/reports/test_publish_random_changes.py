"""Re-publishing after any sequence of changes gives the site a full publish gives
(issue 34): a key that misses a change leaves a page as it was, the worst bug of an
incremental publish. Random sequences of the organizer's changes (a result of the
round being played, a correction of an old match, a forfeit and its undo, a
withdrawal, points adjusted, ratings recomputed, a new player entered, a rename, a
player merged into another (their results and ratings moved, the pool rated again), an
event's name and tie-breaks changed, the next round seated), each followed by a
publish into the site and a full publish beside it: the same files, byte for byte,
but the publication time (the index and the open data index are compared without it:
the index's leaderboards are kept in the manifest while the boards are unchanged)."""
from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from conftest import run_cli

from tourney.engines import get_game
from tourney.records.csv_format import write_records
from tourney.reports.folders import MANIFEST, SITE_MARKER
from tourney.simulation import simulate_match

STAMPED = {SITE_MARKER, MANIFEST}
# when the site was published: on the index and in the open data index
PUBLISHED = re.compile(rb'<p>Published [^<]*</p>|"published_at":"[^"]*"')
NAMES = [f"Spelare {c}" for c in "ABCDEFGHIJKL"]
RULES = {"deals": "1"}


BOARD = re.compile(rb'<section class="board-list".*?</section>', re.S)  # the index's


def files_of(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): PUBLISHED.sub(b"", p.read_bytes())
            for p in sorted(folder.rglob("*")) if p.is_file()}


class League:
    """A cup of 12 players at tables of four (round 1 played, round 2 seated) beside
    an event of four players with no result yet; the changes an organizer makes."""

    def __init__(self, url: str, work: Path, rng: random.Random):
        self.work, self.rng, self.url = work, rng, url
        self.game = get_game("spardame")
        self.options = self.game.resolve_options(RULES)
        self.files = 0
        self.players = list(NAMES)
        self.cli("player", "add", *NAMES)
        self.cli("event", "create", "cup", "--variant", "spardame", "--table-sizes", "4",
                 "--rounds", "4", "--rule", "deals=1", "--date", "2024-05-01")
        self.cli("event", "enter", "cup", "--all")
        self.cli("event", "create", "later", "--variant", "spardame", "--table-sizes", "4",
                 "--rounds", "1", "--rule", "deals=1", "--date", "2030-01-01")
        self.cli("event", "enter", "later", *NAMES[:4])
        self.cli("round", "seat", "cup")
        for table in self.tables(1):
            self.play(1, table)
        self.cli("round", "seat", "cup")
        self.round = 2
        self.done: set[str] = set()  # tables of the round being played with a result
        self.forfeited: set[str] = set()

    def cli(self, *args, exit_code: int | None = 0):
        return run_cli(self.url, *args, exit_code=exit_code)

    def tables(self, number: int) -> list[dict]:
        return self.cli("round", "show", "cup", str(number), "--json").json["tables"]

    def play(self, number: int, table: dict, replace: bool = False) -> None:
        records = simulate_match(self.game, self.options, table["seats"], self.rng,
                                 event="cup", round_number=number, table=table["table"])
        self.files += 1
        path = self.work / f"r{number}-t{table['table']}-{self.files}.csv"
        with open(path, "w", encoding="utf-8", newline="") as stream:
            write_records(stream, records, game_for=lambda record: self.game)
        self.cli("result", "import", str(path), "--event", "cup",
                 *(["--replace", "--yes"] if replace else []))

    # ---- the changes: each says what it did, or None when it cannot be made now

    def result(self) -> str | None:
        left = [t for t in self.tables(self.round)
                if t["table"] not in self.done | self.forfeited]
        if not left:
            return None
        table = self.rng.choice(left)
        self.play(self.round, table)
        self.done.add(table["table"])
        return f"result of round {self.round} table {table['table']}"

    def correction(self) -> str:
        table = self.rng.choice(self.tables(1))
        self.play(1, table, replace=True)
        return f"round 1 table {table['table']} corrected"

    def forfeit(self) -> str | None:
        if self.forfeited:
            table = self.forfeited.pop()
            self.cli("result", "forfeit", "cup", str(self.round), table, "--undo")
            return f"forfeit of table {table} undone"
        left = [t for t in self.tables(self.round) if t["table"] not in self.done]
        if not left:
            return None
        table = self.rng.choice(left)
        self.cli("result", "forfeit", "cup", str(self.round), table["table"],
                 "--absent", table["seats"][0])
        self.forfeited.add(table["table"])
        return f"table {table['table']} forfeited"

    def withdrawal(self) -> str | None:
        if len(self.players) <= 9:
            return None
        name = self.players.pop(self.rng.randrange(len(self.players)))
        run = self.cli("event", "withdraw", "cup", name, exit_code=None)
        return f"{name} withdrawn (exit {run.exit_code})"

    def adjustment(self) -> str:
        name = self.rng.choice(self.players)
        self.cli("result", "adjust", "cup", name, "--points", "-1", "--reason", "late")
        return f"{name} adjusted"

    def recompute(self) -> str:
        beta = self.rng.choice(["2", "3", "4.1"])
        self.cli("rating", "pool", "spardame", "--param", f"beta={beta}", "--yes")
        return f"ratings recomputed (beta={beta})"

    def newcomer(self) -> str:
        name = f"Ny spelare {self.files}"
        self.files += 1
        self.cli("player", "add", name)
        self.cli("event", "enter", "later", name)
        return f"{name} added to later"

    def rename(self) -> str:
        i = self.rng.randrange(len(NAMES))
        old = self.players[i] if i < len(self.players) else NAMES[i]
        run = self.cli("player", "rename", old, old + " Jr", exit_code=None)
        if run.exit_code == 0:
            self.players = [n + " Jr" if n == old else n for n in self.players]
        return f"{old} renamed (exit {run.exit_code})"

    def merge(self) -> str:
        """A cup player found registered twice: merged into a new player's row, who
        takes over their seats, results and rating history."""
        old = self.rng.choice(self.players)
        keep = f"Ny spelare {self.files}"
        self.files += 1
        self.cli("player", "add", keep)
        run = self.cli("player", "merge", keep, old, "--yes", exit_code=None)
        if run.exit_code == 0:
            self.players = [keep if n == old else n for n in self.players]
        return f"{old} merged into {keep} (exit {run.exit_code})"

    def event_name(self) -> str:
        name = self.rng.choice(["Cupen", "Vårcupen", "Cup"])
        self.cli("event", "set", "cup", "--name", name, exit_code=None)
        return f"cup named {name}"

    def tiebreaks(self) -> str:
        order = self.rng.choice(["wins,buchholz", "buchholz,wins", "score"])
        self.cli("event", "set", "later", "--tiebreaks", order)
        return f"later's tie-breaks {order}"

    def next_round(self) -> str | None:
        if len(self.done | self.forfeited) < len(self.tables(self.round)) or self.round >= 4:
            return None
        run = self.cli("round", "seat", "cup", exit_code=None)
        if run.exit_code != 0:
            return None
        self.round += 1
        self.done, self.forfeited = set(), set()
        return f"round {self.round} seated"

    CHANGES = ("result", "result", "result", "correction", "forfeit", "withdrawal",
               "adjustment", "recompute", "newcomer", "rename", "merge", "event_name",
               "tiebreaks", "next_round")

    def change(self) -> str:
        while True:
            done = getattr(self, self.rng.choice(self.CHANGES))()
            if done is not None:
                return done


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_changes_republish_as_a_full_publish_does(db_url, tmp_path, seed):
    league = League(db_url, tmp_path, random.Random(seed))
    site, full = tmp_path / "site", tmp_path / "full"
    run_cli(league.url, "publish", "--out", str(site), "--no-replays")
    done = []
    for _ in range(12):
        done.append(league.change())
        report = run_cli(league.url, "publish", "--out", str(site), "--no-replays",
                         "--json").json["details"]
        run_cli(league.url, "publish", "--out", str(full), "--no-replays", "--full")
        incremental, rebuilt = files_of(site), files_of(full)
        assert sorted(incremental) == sorted(rebuilt), done
        for name in incremental:
            if name not in STAMPED:
                assert incremental[name] == rebuilt[name], (
                    f"{name} differs from a full publish after: {'; '.join(done)}")
        assert report["rendered"] < report["pages"], done  # incremental, not all


def test_a_result_of_a_round_being_played_does_not_rank_the_leaderboard(db_url, tmp_path,
                                                                         monkeypatch):
    """The leaderboards count complete rounds: while a result of the round being played
    leaves a board's mark as it was, the board is not read and ranked (its pages and
    the index's top ten are those of the last publish); the round's last result
    changes the mark, and the board is read again."""
    from tourney.reports import data

    league = League(db_url, tmp_path, random.Random(3))
    site, full = tmp_path / "site", tmp_path / "full"
    run_cli(league.url, "publish", "--out", str(site), "--no-replays")
    whole_boards = []
    real = data.rating_list

    def counted(session, *args, **kwargs):
        if kwargs.get("player_ids") is None:
            whole_boards.append(1)
        return real(session, *args, **kwargs)

    monkeypatch.setattr(data, "rating_list", counted)
    before = files_of(site)
    league.result()
    run_cli(league.url, "publish", "--out", str(site), "--no-replays")
    assert whole_boards == []
    after = files_of(site)
    assert after["ratings/spardame.html"] == before["ratings/spardame.html"]
    assert BOARD.findall(after["index.html"]) == BOARD.findall(before["index.html"]) != []
    while league.result() is not None:  # the round's other results: it is complete
        pass
    run_cli(league.url, "publish", "--out", str(site), "--no-replays")
    assert whole_boards
    run_cli(league.url, "publish", "--out", str(full), "--no-replays", "--full")
    done, rebuilt = files_of(site), files_of(full)
    assert done["ratings/spardame.html"] != before["ratings/spardame.html"]
    for name in ("ratings/spardame.html", "index.html", "players/index.html",
                 "data/ratings/spardame.json"):
        assert done[name] == rebuilt[name], name
