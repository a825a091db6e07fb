"""Every error a table or organizer page can show says its detail in the page's
language (issue 29, "What people see"): a did-you-mean hint is a typed part of its
sentence (the names suggested, joined by the language's "or"), the record readers'
file-level errors (encoding, CSV, limits, workbooks, ragged rows and the delimiter
hint) and the import's tournament errors (round not seated, unknown table,
withdrawn, a stored match's differences) are catalogue messages. Each is rendered
in Swedish, Norwegian and Finnish: nothing of it is left in English (no msgid
without its translation, no English fallback marked ``lang="en"``), and its
parameters (names, numbers, lines) appear. The command line keeps its English."""
from __future__ import annotations

import codecs
import datetime as dt
import html
import io
import re

import pytest
from serve_helpers import (
    client,
    csrf_of,
    marked_english,
    match_csv,
    path_of,
    quoted_as,
    seated_event,
)
from sqlmodel import Session

from tourney.app.results import import_results
from tourney.engines.presentation import Message
from tourney.errors import RecordError, UnreadableFile
from tourney.records.checked import ImportOptions
from tourney.records.csv_format import RecordReader
from tourney.records.sources import MAX_LINE_BYTES, MAX_RECORD_CHARS
from tourney.reports.i18n import translations
from tourney.reports.site import Renderer
from tourney.storage.db import open_engine
from tourney.tournament.results import ImportRejected
from tourney.web.messages import error_lines

LANGS = ("sv", "nb", "fi")
# What each language says for "did you mean" and "or" (the catalogue's words)
DID_YOU_MEAN = {"sv": ("menade du", "eller"), "nb": ("mente du", "eller"),
                "fi": ("tarkoititko", "tai")}


def renderer(lang: str) -> Renderer:
    return Renderer(lang, "", (lang,), dt.datetime.now(dt.UTC))


def untranslated(message: Message, lang: str) -> list[str]:
    """The msgids in ``message`` (nested ones included) a page in ``lang`` would
    show in English: those with words and no translation of their own."""
    gettext = translations(lang).gettext
    left = []
    if message.translate:
        words = re.sub(r"%\(\w+\)s", "", message.msgid)
        if re.search(r"[A-Za-z]{2}", words) and gettext(message.msgid) == message.msgid:
            left.append(message.msgid)
    else:
        left.append(message.msgid)
    for value in message.params.values():
        if isinstance(value, Message):
            left += untranslated(value, lang)
    return left


def said(err: RecordError, lang: str, *params: str) -> str:
    """``err``'s detail on a page in ``lang``: checked to have no English left and
    to name ``params``."""
    assert err.words is not None, f"no words: {err.message}"
    assert untranslated(err.words, lang) == [], (lang, err.message)
    (line,) = error_lines([err], renderer(lang))
    assert line.detail_lang is None, line
    assert line.detail != err.message, line.detail
    for param in params:
        param = quoted_as(lang, param)
        assert param in line.detail, (param, line.detail)
    return line.detail


# ------------------------------------------------------------ the readers' errors

HEADER = b"event,variant,round,table,deal,players,dealer,scores\n"
ROW = "club,svarta-maja,1,1,1,Anna;Bo;Cecilia;Dag,Anna,0;1;0;0\n"


def unreadable(data: bytes, name: str = "sent.csv") -> UnreadableFile:
    with pytest.raises(UnreadableFile) as raised:
        list(RecordReader(io.BytesIO(data), name))
    return raised.value


FILE_ERRORS = {
    # two encodings in one file: Windows-1252 on line 2, UTF-8 on line 3
    "mixed-encodings": (HEADER + ROW.replace("Anna", "\xc5sa").encode("cp1252")
                        + ROW.replace("Anna", "\xc5sa").encode("utf-8"), ("2", "24")),
    "nul-byte": (HEADER + b"club,\x00\n", ("6",)),
    # 1024 kB: grouped as the language writes numbers (1 024)
    "line-too-long": (HEADER + b"x" * (MAX_LINE_BYTES + 10) + b"\n", ("024",)),
    # a quoted field left open: past the csv module's field limit first (64 k)
    "field-too-large": (HEADER + b'club,"' + b"x\n" * (MAX_RECORD_CHARS // 2 + 10),
                        ("65", "64")),
    "unclosed-quote": (HEADER + ROW.encode() + b'club,"svarta-maja\n', ()),
    "damaged-workbook": (b"PK\x03\x04 not a zip file", ()),
    # a lone surrogate in UTF-16 text (main raised a TypeError here: a traceback)
    "bad-utf16": (codecs.BOM_UTF16_LE + HEADER.decode().encode("utf-16-le")
                  + b"\x00\xd8a\x00\n\x00", ("UTF-16",)),
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("case", sorted(FILE_ERRORS))
def test_a_file_level_error_is_said_in_the_pages_language(case, lang):
    data, params = FILE_ERRORS[case]
    err = unreadable(data, "sent.xlsx" if case == "damaged-workbook" else "sent.csv")
    said(err, lang, *params)


def test_the_file_level_errors_english_is_unchanged():
    err = unreadable(FILE_ERRORS["nul-byte"][0])
    assert err.message == ("a NUL byte at character 6; not a text file (UTF-16 without a "
                           "byte-order mark?); save it as CSV UTF-8, or give its encoding "
                           "(utf-8, utf-16, windows-1252 or latin-1) if you know what it is")
    err = unreadable(FILE_ERRORS["line-too-long"][0])
    assert err.message.startswith("line longer than 1024 kB; not a table of records")
    err = unreadable(FILE_ERRORS["unclosed-quote"][0])
    assert err.message == "not valid CSV: unexpected end of data"


@pytest.mark.parametrize("lang", LANGS)
def test_a_ragged_row_and_its_delimiter_hint_are_said_in_the_pages_language(lang):
    rows = list(RecordReader(io.BytesIO(
        HEADER + ROW.replace(",", ";").encode() + ROW.replace(",", ";").encode()),
        "sent.csv", errors="collect"))
    first, second = [row for row in rows if isinstance(row, RecordError)]
    assert first.message.startswith("1 field where the header has 8 (a ragged row")
    assert "the header is separated by commas but this row by semicolons" in first.message
    assert second.message.endswith("this row too is separated by another delimiter than "
                                   "the header (see line 2)")
    said(first, lang, "8")
    said(second, lang, "2")


# ------------------------------------------------------------ did you mean

@pytest.mark.parametrize("lang", LANGS)
def test_a_did_you_mean_hint_is_said_in_the_pages_language(lang):
    from tourney.records.csv_format import dealer_error, parse_row
    from tourney.tournament.settings import not_entered

    record = parse_row({"players": "Anna;Bo;Cecilia;Dag", "dealer": "cecilia", "table": "1",
                        "round": "1", "deal": "1"}, 2)
    err = dealer_error(record)
    assert err.message == "dealer 'cecilia' is not one of the players (did you mean Cecilia?)"
    mean, _ = DID_YOU_MEAN[lang]
    assert mean in said(err, lang, "'cecilia'", "Cecilia")

    # two names suggested: the language's "or" between them
    err = not_entered(["anna", "bo"], "club", ["Anna", "Bo", "Cecilia"])
    assert err.message == "anna, bo not entered in club (did you mean Anna or Bo?)"
    mean, either = DID_YOU_MEAN[lang]
    assert f"{mean} Anna {either} Bo?" in said(err, lang, "anna, bo", "club")


# ------------------------------------------------------------ the import's errors

def rejected(db_url: str, content: str) -> list[RecordError]:
    engine = open_engine(db_url)
    with Session(engine) as session, pytest.raises(ImportRejected) as raised:
        import_results(session, content.encode(), ImportOptions(event="club"), name="sent.csv")
    return raised.value.report.errors


def test_the_imports_tournament_errors_are_said_in_every_language(tourney, db_url, tmp_path):
    seated_event(tourney, tables=1, rounds=3)
    sheet = match_csv(tourney, "club", 1, "1")
    lines = sheet.splitlines(keepends=True)

    def edited(column: int, value: str) -> str:
        rows = [lines[0]] + [",".join(value if i == column else field
                                      for i, field in enumerate(row.split(",")))
                             for row in lines[1:]]
        return "".join(rows)

    errors = {}
    (errors["unknown-table"],) = [e for e in rejected(db_url, edited(3, "9"))
                                  if e.rule == "unknown-table"]
    (errors["round-not-seated"],) = [e for e in rejected(db_url, edited(2, "2"))
                                     if e.rule == "round-not-seated"]
    assert errors["unknown-table"].message == ("round 1 of club has no table '9' (its "
                                               "tables: 1)")
    path = tmp_path / "round1.csv"
    path.write_text(sheet)
    tourney("result", "import", path, "--event", "club")
    changed = match_csv(tourney, "club", 1, "1", loser_seat=2)
    (errors["match-changed"],) = [e for e in rejected(db_url, changed)
                                  if e.rule == "match-changed"]
    assert "is already stored (version 1) with other content: deal 1 scores: stored" in (
        errors["match-changed"].message)
    tourney("round", "seat", "club")
    seats = tourney("round", "show", "club", "2", "--json").json["tables"][0]["seats"]
    round_two = match_csv(tourney, "club", 2, "1")
    # withdrawn from round 2 while it is seated (to be reseated): its table still
    # names them
    tourney("event", "withdraw", "club", seats[1], "--from-round", "2")
    (errors["withdrawn"],) = [e for e in rejected(db_url, round_two) if e.rule == "withdrawn"]
    params = {"unknown-table": ("'9'", "club"), "round-not-seated": ("2", "club"),
              "withdrawn": (seats[1], "1", "2"),
              "match-changed": ("club", "'0;1;0;0'", "'0;0;1;0'")}
    for lang in LANGS:
        for rule, err in errors.items():
            said(err, lang, *params.get(rule, ()))


# ------------------------------------------------------------ on the phone

def details(page: str) -> tuple[str, list[str]]:
    """The errors block of a table page and each error's detail (unescaped)."""
    block = re.search(r'<ul class="errors" id="errors">(.*?)</ul>', page, re.S)
    assert block, page
    return block.group(1), [html.unescape(d) for d in re.findall(
        r'<span class="detail"[^>]*>(.*?)</span>', block.group(1), re.S)]


@pytest.mark.parametrize("lang", LANGS)
def test_a_phone_says_a_hint_and_a_file_error_in_its_language(tourney, db_url, lang):
    links = seated_event(tourney, lang=lang, tables=1)
    url = path_of(links["1"]["url"])
    web = client(db_url)
    sheet = match_csv(tourney, "club", 1, "1")
    header, *rows = sheet.splitlines()
    players = rows[0].split(",")[5].split(";")
    mean, _ = DID_YOU_MEAN[lang]

    blocks = []

    def paste(record: str) -> list[str]:
        form = {"csrf": csrf_of(web.get(f"{url}?lang={lang}").text), "record": record}
        page = web.post(url, data=form)
        assert page.status_code == 422, page.text
        block, found = details(page.text)
        assert 'lang="en"' not in block, block
        blocks.append(html.unescape(block))
        return found

    # a dealer written in lower case: "did you mean" the player, in the language
    typo = players[1].lower()
    fields = rows[1].split(",")
    fields[6] = typo
    (detail,) = paste("\n".join([header, rows[0], ",".join(fields), *rows[2:]]) + "\n")
    assert f"{mean} {players[1]}?" in detail and quoted_as(lang, f"'{typo}'") in detail, detail
    assert "did you mean" not in detail and "not one of" not in detail, detail

    # a row separated by semicolons under a header of commas
    found = paste("\n".join([header, rows[0].replace(",", ";"), *rows[1:]]) + "\n")
    assert all("ragged" not in d and "separated" not in d for d in found), found
    semicolons = {"sv": "semikolon", "nb": "semikolon", "fi": "puolipisteillä"}[lang]
    assert "12" in found[0] and semicolons in found[0], found  # the header's 12 fields

    # a quote left open: the file cannot be read; said as such, not as a game's rule
    fields = rows[1].split(",")
    fields[5] = '"' + fields[5]
    (detail,) = paste("\n".join([header, rows[0], ",".join(fields)]) + "\n")
    gettext = translations(lang).gettext
    assert gettext("unexpected end of data") in detail, detail
    assert gettext("The pasted text is not a valid CSV file.") in blocks[-1], blocks[-1]
    assert gettext("This does not pass the game's checks.") not in blocks[-1], blocks[-1]


# ------------------------------------------------------------ the organizer's pages

def test_an_organizers_refusal_is_said_in_the_pages_language(tourney, db_url):
    from serve_helpers import TOKEN

    seated_event(tourney, lang="sv", tables=1)
    web = client(db_url)
    login = web.get("/login")
    web.post("/login", data={"token": TOKEN, "csrf": csrf_of(login.text)})

    def refused(action: str, lang: str, **form) -> str:
        csrf = csrf_of(web.get(f"/org/club?lang={lang}").text)
        page = web.post(f"/org/club/{action}", data={"csrf": csrf, **form})
        assert page.status_code == 409, page.text
        assert 'role="alert"' in page.text, page.text
        assert lang == "en" or not marked_english(page.text), page.text
        return html.unescape(page.text)

    said = {"sv": ("rond 1 i club har inget resultat än för bord 1", "inte ett heltal: ”x”"),
            "nb": ("runde 1 i club har ikke noe resultat ennå for bord 1",
                   "ikke et heltall: «x»"),
            "fi": ("tapahtuman club kierroksella 1 ei ole vielä tulosta pöydälle 1",
                   "ei kokonaisluku: ”x”")}
    for lang, (missing, whole) in said.items():
        page = refused("seat", lang)
        assert missing in page and "no result yet" not in page, page
        page = refused("absent", lang, round="x", player="Anna")
        assert whole in page and "whole number" not in page, page
    # English stays the library's own words
    page = refused("seat", "en")
    assert "round 1 of club has no result yet for table 1; import it first" in page
    # a page of an event there is not: its name and the closest, in the language
    page = html.unescape(web.get("/org/clab?lang=fi").text)
    assert "tuntematon turnaus ”clab” (tarkoititko club?)" in page, page
