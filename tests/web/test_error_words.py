"""An error's detail in the page's language (issue 29, "What people see"): the
engines' and the record reader's errors are words (a catalogue msgid and typed
parameters), so a Swedish, Norwegian or Finnish table page says a dealer out of
turn, a card that does not follow suit and a cell that is no number in its own
language, with no English left; the command line's English is unchanged; an
error stored before its words were kept still shows (in English, marked)."""
from __future__ import annotations

import datetime as dt
import html
import io
import json
import random
import re

import pytest
from serve_helpers import TOKEN, client, csrf_of, path_of, send_csv

from tourney.app.tables import _stored_error, error_from_json
from tourney.cards import CARD_NAMES, cards_of
from tourney.engines import get_game
from tourney.engines.base import MatchRules
from tourney.engines.match import PlayedDeal, _check_dealer
from tourney.errors import RecordError
from tourney.records.csv_format import write_records
from tourney.reports.site import Renderer
from tourney.simulation import simulate_match
from tourney.web.messages import error_lines

GAME = get_game("dam-stick")
OPTIONS = GAME.resolve_options({"deals": 3})
# English words of the three errors' templates; none may be left on another page
ENGLISH = ("deals, but", "should", "clockwise", "neighbour", "must follow", "led",
           "holds", "whole number", "digits", " not ")
# What each language says: the dealer's turn, following suit, a deal number
SAID = {
    "sv": ("medurs", "måste bekänna färg", "heltal"),
    "nb": ("med klokka", "må følge farge", "heltall"),
    "fi": ("myötäpäivään", "maata on tunnustettava", "kokonaisluku"),
}


def dam_stick_event(run, lang: str) -> list[str]:
    """A seated dam-stick event of three-deal matches; table 1's players in seat order."""
    run("player", "add", "Anna", "Bo", "Cecilia", "Dag")
    run("event", "create", "club", "--variant", "dam-stick", "--rounds", 1, "--table-sizes", 4,
        "--rule", "deals=3", "--lang", lang)
    run("event", "enter", "club", "--all")
    run("round", "seat", "club")
    return run("round", "show", "club", "1", "--json").json["tables"][0]["seats"]


def played_match(seats: list[str]):
    return simulate_match(GAME, OPTIONS, seats, random.Random(7), event="club",
                          table="1", deals=3)


def csv_of(records) -> str:
    out = io.StringIO()
    write_records(out, records, lambda record: GAME)
    return out.getvalue()


def not_following(records) -> int:
    """Deal 1's moves changed so a seat that could follow suit does not; the move's
    index (from 0)."""
    record = records[0]
    state = GAME.new_deal(record.setup(), OPTIONS)
    for index, token in enumerate(record.play):
        hand = state.hands[state.turn]
        if state.trick_len and hand & state.led_mask and hand & ~state.led_mask:
            record.play[index] = CARD_NAMES[cards_of(hand & ~state.led_mask)[0]]
            return index
        GAME.play(state, GAME.parse_move(token))
    raise AssertionError("no trick to break")  # pragma: no cover - the seed has one


def details(page: str) -> list[str]:
    """The detail of each error the page lists, as shown (unescaped)."""
    block = re.search(r'<ul class="errors" id="errors">(.*?)</ul>', page, re.S)
    assert block, page
    return [html.unescape(d) for d in
            re.findall(r'<span class="detail"[^>]*>(.*?)</span>', block.group(1), re.S)]


def paste(web, url: str, record: str, lang: str):
    form = {"csrf": csrf_of(web.get(f"{url}?lang={lang}").text), "record": record}
    page = web.post(url, data=form)
    assert page.status_code == 422, page.text
    assert 'lang="en"' not in page.text.split('<ul class="errors"', 1)[1].split("</ul>")[0]
    return page.text


@pytest.mark.parametrize("lang", sorted(SAID))
def test_a_pasted_records_errors_are_said_in_the_pages_language(tourney, db_url, lang):
    seats = dam_stick_event(tourney, lang)
    links = tourney("round", "links", "club", "1", "--base-url", "http://testserver",
                    "--json").json["tables"]
    url = path_of(links[0]["url"])
    web = client(db_url)
    clockwise, follow, whole = SAID[lang]

    # deal 2 dealt by the wrong player (a score sheet: the moves left out)
    records = played_match(seats)
    for record in records:
        record.hands = record.stock = record.play = None
    records[1].dealer = seats[3]
    (detail,) = details(paste(web, url, csv_of(records), lang))
    assert clockwise in detail and seats[3] in detail and seats[1] in detail, detail
    assert not any(word in detail for word in ENGLISH), detail

    # deal 1: a seat that could follow suit does not
    records = played_match(seats)
    not_following(records)
    (detail,) = details(paste(web, url, csv_of(records), lang))
    assert follow in detail, detail
    assert not any(word in detail for word in ENGLISH), detail

    # a cell that is no number: the reader's own error
    lines = csv_of(played_match(seats)).splitlines()
    fields = lines[1].split(",")
    fields[4] = "x"  # deal 1's number
    lines[1] = ",".join(fields)
    found = details(paste(web, url, "\n".join(lines) + "\n", lang))
    assert any(whole in detail for detail in found), found
    assert not any(word in detail for detail in found for word in ENGLISH), found


@pytest.mark.parametrize("lang", sorted(SAID))
def test_the_organizers_page_says_a_sent_results_errors_in_its_language(tourney, db_url,
                                                                        lang):
    seats = dam_stick_event(tourney, lang)
    links = tourney("round", "links", "club", "1", "--base-url", "http://testserver",
                    "--json").json["tables"]
    web = client(db_url)  # review mode: what a table sends waits for the organizer
    login = web.get("/login")
    web.post("/login", data={"token": TOKEN, "csrf": csrf_of(login.text)})
    records = played_match(seats)
    for record in records:
        record.hands = record.stock = record.play = None
    records[1].dealer = seats[3]
    assert send_csv(web, links[0], csv_of(records)).status_code == 422
    page = html.unescape(web.get(f"/org/club?lang={lang}").text)
    clockwise = SAID[lang][0]
    said = next(line for line in page.splitlines() if clockwise in line)
    assert seats[3] in said and seats[1] in said, said
    assert "clockwise" not in page and "deals, but" not in page and 'lang="en"' not in said


def test_the_english_of_the_errors_is_unchanged(tourney, db_url, tmp_path):
    seats = dam_stick_event(tourney, "sv")
    records = played_match(seats)
    index = not_following(records)
    path = tmp_path / "deals.csv"
    path.write_text(csv_of(records))
    run = tourney("validate", path, exit_code=None)
    said = run.stdout + run.stderr
    follow = re.search(r"must follow suit \((\w+) led\): holds ([0-9TJQKA][SHDC](, )?)+", said)
    assert follow and f"move {index + 1}" in said, said
    records = played_match(seats)
    for record in records:
        record.hands = record.stock = record.play = None
    records[1].dealer = seats[3]
    path.write_text(csv_of(records))
    run = tourney("validate", path, exit_code=None)
    said = run.stdout + run.stderr
    assert (f"{seats[3]} deals, but {seats[1]} should: the dealer moves clockwise: the "
            "previous dealer's left neighbour deals") in said, said


def test_a_stored_error_keeps_its_words_and_an_old_one_still_shows():
    first = PlayedDeal(2, 1, ["Anna", "Bo", "Cai"], "Anna", [0, 1, 0])
    second = PlayedDeal(3, 2, ["Anna", "Bo", "Cai"], "Cai", [0, 1, 0])
    with pytest.raises(RecordError) as raised:
        _check_dealer(MatchRules(dealer="rotate"), first, second)
    err = raised.value
    stored = json.loads(json.dumps(_stored_error(err)))
    again = error_from_json(stored)
    assert str(again) == str(err) and again.words == err.words
    old = {key: value for key, value in stored.items() if key != "words"}
    before = error_from_json(old)  # stored before the words were kept
    assert before.words is None and str(before) == str(err)

    swedish = Renderer("sv", "", ("sv",), dt.datetime.now(dt.UTC))
    (line,) = error_lines([again], swedish)
    assert "medurs" in line.detail and line.detail_lang is None
    (line,) = error_lines([before], swedish)
    assert line.detail == err.message and line.detail_lang == "en"
