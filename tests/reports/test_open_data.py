"""Open data beside the pages: every JSON file valid against the schema it names
(shipped in the package), saying what the database says, and an Atom feed per
event that parses as Atom."""
from __future__ import annotations

import json
import re
from pathlib import Path
from xml.etree import ElementTree

import pytest
from conftest import run_cli
from jsonschema import Draft202012Validator, FormatChecker
from referencing import Registry, Resource
from site_helpers import EVENTS, HOSTILE_EVENT, HOSTILE_PLAYER, build_league

from tourney.reports import opendata

SCHEMA_DIR = Path(opendata.__file__).resolve().parent / "schemas"
ATOM = "{http://www.w3.org/2005/Atom}"
RFC3339 = re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$")


@pytest.fixture(scope="module")
def published(tmp_path_factory):
    work = tmp_path_factory.mktemp("open-data")
    url = f"sqlite:///{work / 'league.db'}"
    build_league(run_cli, url, work, events=[EVENTS[0], EVENTS[5], EVENTS[-1]])
    run_cli(url, "site", "set", "organisation", "Göteborgs Damklubb")
    site = work / "site"
    run_cli(url, "publish", "--out", str(site), "--lang", "sv", "--lang", "en")
    return url, site


def schemas() -> dict[str, dict]:
    found = {}
    for path in sorted(SCHEMA_DIR.glob("*.schema.json")):
        schema = json.loads(path.read_text(encoding="utf-8"))
        Draft202012Validator.check_schema(schema)
        found[schema["$id"]] = schema
    return found


def validate(document: dict) -> None:
    known = schemas()
    registry = Registry().with_resources(
        (sid, Resource.from_contents(s)) for sid, s in known.items())
    schema = known[document["$schema"]]
    Draft202012Validator(schema, registry=registry, format_checker=FormatChecker()).validate(
        document)


def test_schemas_ship_in_the_package_and_are_valid():
    assert {Path(sid).name for sid in schemas()} == {
        f"{k}.schema.json" for k in ("index", "event", "standings", "rounds", "matches",
                                     "players", "ratings", "series")}


def test_every_json_file_is_valid_and_listed_by_the_index(published):
    url, site = published
    files = sorted(site.rglob("*.json"))
    assert len(files) >= 3 * 4 + 3
    for path in files:
        validate(json.loads(path.read_text(encoding="utf-8")))
    index = json.loads((site / "data" / "index.json").read_text(encoding="utf-8"))
    assert index["site"]["organisation"] == "Göteborgs Damklubb"
    assert [e["slug"] for e in index["events"]] == [
        e["slug"] for e in run_cli(url, "event", "list", "--json").json] or \
        sorted(e["slug"] for e in index["events"]) == sorted(
            e["slug"] for e in run_cli(url, "event", "list", "--json").json)
    for event in index["events"]:
        files = event["files"]
        paths = [files["event"], files["standings"], files["rounds"], *files["matches"]]
        for path in [*paths, event["feed"], event["page"]]:
            assert (site / path).is_file(), path
        # a matches file per seated round, in round order, each of its own round
        rounds = json.loads((site / files["rounds"]).read_text("utf-8"))["rounds"]
        assert len(files["matches"]) == len(rounds)
        for number, path in enumerate(files["matches"], 1):
            matches = json.loads((site / path).read_text("utf-8"))
            assert matches["round"] == number
            assert {m["round"] for m in matches["matches"]} <= {number}
    assert (site / index["players"]).is_file()
    for path in index["ratings"].values():
        assert (site / path).is_file()
    # Not in the other language's tree: data is not translated.
    assert not (site / "en" / "data").exists()


def test_standings_and_results_say_what_the_cli_says(published):
    url, site = published
    slug = EVENTS[0].slug
    standings = json.loads((site / "events" / slug / "standings.json").read_text("utf-8"))
    cli = run_cli(url, "standings", slug, "--json").json
    rows = cli["standings"] if isinstance(cli, dict) else cli
    assert [(r["place"], r["name"], round(r["points"], 2)) for r in standings["standings"]] \
        == [(r["place"], r["player"], round(r["points"], 2)) for r in rows]
    assert standings["event"]["name"] == HOSTILE_EVENT  # data as stored, not HTML
    assert HOSTILE_PLAYER in {r["name"] for r in standings["standings"]}
    rounds = json.loads((site / "events" / slug / "rounds.json").read_text("utf-8"))
    shown = run_cli(url, "round", "show", slug, "1", "--json").json
    players = {p["id"]: p["name"] for p in json.loads(
        (site / "data" / "players.json").read_text("utf-8"))["players"]}
    assert [[players[p] for p in t["players"]] for t in rounds["rounds"][0]["tables"]] == [
        [s if isinstance(s, str) else s["name"] for s in t["seats"]] for t in shown["tables"]]
    matches = [m for path in sorted((site / "events" / slug).glob("matches-*.json"))
               for m in json.loads(path.read_text("utf-8"))["matches"]]
    assert matches and all(
        sorted(r["seat"] for r in m["results"]) == list(range(1, len(m["results"]) + 1))
        for m in matches)
    # every table of a round with its result in that round's file, by table
    for rnd in rounds["rounds"]:
        tables = {t["table"]: sorted(t["players"]) for t in rnd["tables"]}
        for m in matches:
            if m["round"] == rnd["round"]:
                assert sorted(r["player"] for r in m["results"]) == tables[m["table"]]
    assert standings["after_round"] is None  # every round complete: the final standings


def test_each_event_has_an_atom_feed_of_its_rounds(published):
    _, site = published
    for spec in (EVENTS[0], EVENTS[5], EVENTS[-1]):
        path = site / "events" / spec.slug / "feed.atom"
        feed = ElementTree.parse(path).getroot()
        assert feed.tag == f"{ATOM}feed"
        for tag in ("id", "title", "updated"):
            assert feed.find(f"{ATOM}{tag}").text, tag
        assert RFC3339.match(feed.find(f"{ATOM}updated").text)
        assert feed.find(f"{ATOM}author/{ATOM}name").text == "Göteborgs Damklubb"
        entries = feed.findall(f"{ATOM}entry")
        assert len(entries) == (0 if spec.date >= "2030" else spec.rounds)
        ids = [e.find(f"{ATOM}id").text for e in entries]
        assert len(set(ids)) == len(ids)
        for entry in entries:
            assert RFC3339.match(entry.find(f"{ATOM}updated").text)
            link = entry.find(f"{ATOM}link[@rel='alternate']").get("href")
            assert (path.parent / link).is_file()
            assert entry.find(f"{ATOM}title").text.startswith(spec.name)


def test_only_the_index_carries_the_publication_time(published):
    url, site = published
    before = {p: p.read_bytes() for p in site.rglob("*") if p.is_file()}
    # every page rendered again (--full: a publish with nothing changed leaves the
    # site as it is, its time too)
    run_cli(url, "publish", "--out", str(site), "--lang", "sv", "--lang", "en", "--full")
    changed = sorted(p.relative_to(site).as_posix() for p in before
                     if p.read_bytes() != before[p])
    # (within the same second or minute as the first publish, the time reads the same
    # and the index keeps its bytes too: only a file beyond these would be wrong)
    assert set(changed) <= {".tourney-site", "data/index.json", "en/index.html", "index.html"}
