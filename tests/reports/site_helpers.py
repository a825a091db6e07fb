"""Building a small league by the real path, for the site tests.

Players, events and rounds go through the CLI (``player add``, ``event create``,
``event enter``, ``round seat``, ``round show --json``); each seated table's match
is played by the bots (:func:`tourney.simulation.simulate_match`) with the players
in their seats, written as a record CSV and imported with ``result import``.
"""
from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tourney.engines import get_game
from tourney.records.csv_format import write_records
from tourney.simulation import simulate_match

HOSTILE_PLAYER = "<img src=x onerror=alert(1)>"
HOSTILE_EVENT = '"><script>'
HOSTILE_CLUB = "<b>Klubb</b> & 'co'"

PLAYERS = [
    "Anna Lindqvist", "Björn Ek", "Cecilia Holm", "David Öberg", "Eva Nyström",
    "Frida Sand", "Göran Lind", HOSTILE_PLAYER,
]


@dataclass
class EventSpec:
    slug: str
    variant: str
    name: str
    rounds: int
    rules: dict[str, str] = field(default_factory=dict)
    table_sizes: str | None = None
    date: str | None = None
    lang: str | None = None
    players: Sequence[str] = ()
    score_sheet: bool = False  # turn the last deal of round 1, table 1 into a score sheet


EVENTS = [
    EventSpec("spring-cup", "spardame", HOSTILE_EVENT, 2, {"pass": "cycle", "deals": "2"},
              "4", "2024-05-11", "en", score_sheet=True),
    EventSpec("dam-night", "dam-stick", "Dam night", 2, {"target": "30"}, "4", "2024-04-02"),
    EventSpec("maja-open", "svarta-maja", "Svarta Maja open", 1, {"deals": "2"}, "4",
              "2024-03-01"),
    EventSpec("row-club", "kortrad", "Kortrad club", 1, {"deals": "2"}, "4", "2024-02-01"),
    EventSpec("sju-kvall", "sju-dolda", "Sju dolda kväll", 1, {"deals": "1"}, "4", "2024-01-20"),
    EventSpec("brade-cup", "dam-brade", "Brädcupen", 2, {"games": "2"}, "2", "2024-06-01"),
    EventSpec("autumn-open", "spardame", "Autumn open", 3, {"deals": "1"}, "4", "2030-10-01"),
]


def build_league(run_cli, db_url: str, workdir: Path, events: Sequence[EventSpec] = EVENTS,
                 seed: int = 7, upcoming: bool = True) -> dict[str, list[dict]]:
    """Create the players and events, seat and play every round; the seatings."""
    run_cli(db_url, "player", "add", *PLAYERS[:-1])
    run_cli(db_url, "player", "add", PLAYERS[-1], "--club", HOSTILE_CLUB)
    rng = random.Random(seed)
    seatings: dict[str, list[dict]] = {}
    for spec in events:
        args = ["event", "create", spec.slug, "--variant", spec.variant, "--name", spec.name,
                "--rounds", str(spec.rounds)]
        for key, value in spec.rules.items():
            args += ["--rule", f"{key}={value}"]
        if spec.table_sizes:
            args += ["--table-sizes", spec.table_sizes]
        if spec.date:
            args += ["--date", spec.date]
        if spec.lang:
            args += ["--lang", spec.lang]
        run_cli(db_url, *args)
        run_cli(db_url, "event", "enter", spec.slug, *(spec.players or PLAYERS))
        if spec.date and spec.date >= "2030" and upcoming:
            seatings[spec.slug] = []
            continue  # an upcoming event: entered, not seated
        seatings[spec.slug] = play_rounds(run_cli, db_url, workdir, spec, rng)
    return seatings


def publish_site(run_cli, db_url: str, out: Path, langs: Sequence[str] = ()) -> Path:
    """``tourney publish --out OUT`` in ``langs`` (the first at the root); OUT."""
    args = ["publish", "--out", str(out)]
    for lang in langs:
        args += ["--lang", lang]
    run_cli(db_url, *args)
    return out


def league_site(run_cli, work: Path, langs: Sequence[str] = ()) -> Path:
    """The league built on a SQLite file in ``work`` and published to work/site."""
    url = f"sqlite:///{work / 'league.db'}"
    build_league(run_cli, url, work)
    return publish_site(run_cli, url, work / "site", langs)


def play_rounds(run_cli, db_url: str, workdir: Path, spec: EventSpec,
                rng: random.Random) -> list[dict]:
    game = get_game(spec.variant)
    options = game.resolve_options(spec.rules)
    seatings = []
    for number in range(1, spec.rounds + 1):
        run_cli(db_url, "round", "seat", spec.slug)
        seating = run_cli(db_url, "round", "show", spec.slug, str(number), "--json").json
        seatings.append(seating)
        records = []
        for table in seating["tables"]:
            records.extend(simulate_match(game, options, table["seats"], rng, event=spec.slug,
                                          round_number=number, table=table["table"]))
        if spec.score_sheet and number == 1:
            first_table = seating["tables"][0]["table"]
            mine = [r for r in records if r.table == first_table]
            last = mine[-1]
            last.play, last.hands, last.stock, last.passes = [], None, None, None
        path = workdir / f"{spec.slug}-r{number}.csv"
        with open(path, "w", encoding="utf-8", newline="") as stream:
            write_records(stream, records, game_for=lambda record: game)
        run_cli(db_url, "result", "import", str(path), "--event", spec.slug)
    return seatings


# ------------------------------------------------------------------ reading pages

def parse_page(path: Path):
    """A page parsed by html5lib's strict parser (a parse error raises). The tree is
    shared with every other caller parsing the same bytes: read it, never change it."""
    return _parsed(path.read_bytes())


# html5lib is slow (seconds for a league's site) and several tests walk every page of
# the same site: a page is parsed once per distinct content. The bound keeps about one
# site's trees (the tests of a backend's league run together).
@functools.lru_cache(maxsize=160)
def _parsed(content: bytes):
    import html5lib

    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=False)
    return parser.parse(content)


def text_of(element) -> str:
    return " ".join("".join(element.itertext()).split())


def table_rows(table) -> list[list[str]]:
    """The body rows of a table as cell texts."""
    body = table.find("tbody")
    rows = body.findall("tr") if body is not None else table.findall("tr")
    return [[text_of(cell) for cell in row if cell.tag in ("td", "th")] for row in rows]


def find_table(tree, css_class: str):
    for table in tree.iter("table"):
        if css_class in (table.get("class") or "").split():
            return table
    raise AssertionError(f"no table.{css_class}")


def reset_postgres(url: str) -> None:
    """Drop every table of the test session's PostgreSQL database (the next
    command recreates the schema)."""
    from sqlalchemy import create_engine, text

    from tourney.storage.db import dispose_engines

    dispose_engines()
    engine = create_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text("DROP SCHEMA public CASCADE; CREATE SCHEMA public"))
    finally:
        engine.dispose()


def seat_round_two(tourney, tmp_path: Path, names: Sequence[str]) -> None:
    """The event ``cup`` of ``names`` at tables of four (spardame, two deals a match,
    two rounds) through the CLI (``tourney``: the test's runner): round 1 played by
    ``simulate`` and imported (its records in ``tmp_path``/r1.csv), round 2 seated."""
    tourney("player", "add", *names)
    tourney("event", "create", "cup", "--variant", "spardame", "--table-sizes", "4",
            "--rounds", "2", "--rule", "deals=2")
    tourney("event", "enter", "cup", "--all")
    tourney("round", "seat", "cup")
    first = tmp_path / "r1.csv"
    first.write_text(tourney("simulate", "--event", "cup", "--round", "1").stdout,
                     encoding="utf-8")
    tourney("result", "import", str(first))
    tourney("round", "seat", "cup")
