"""The library's refusals outside the tournament (an engine's refused option, the
ratings' models and parameters, the database, the site's settings, the files a
command writes) are words (tourney.errors.words.Message): a page says them in
Swedish, Norwegian and Finnish, and the command line keeps its English. An
event's stored rules an engine refuses are shown on the organizer's page in the
page's language."""
from __future__ import annotations

import html

import pytest
from serve_helpers import TOKEN, client, csrf_of, marked_english, match_csv, path_of, seated_event, send_csv
from sqlmodel import Session, select
from test_error_words_rest import renderer, untranslated

from tourney.engines import get_game
from tourney.engines.base import OptionSpec
from tourney.errors import InvalidValue, TourneyError
from tourney.files import check_outputs
from tourney.ratings.models import ModelSpec
from tourney.records.csv_format import check_key_columns
from tourney.records.sources import open_source
from tourney.records.spreadsheets import table_format
from tourney.storage.db import open_engine
from tourney.storage.models import Event
from tourney.storage.settings import check_key, check_value

LANGS = ("sv", "nb", "fi")
WHOLE = OptionSpec("deals", "int", None, "deals", minimum=1, maximum=50)
YES_NO = OptionSpec("pass", "bool", False, "pass")
CHOICE = OptionSpec("dealer", "choice", "rotate", "dealer", choices=("rotate", "loser"))


def refusal(call) -> TourneyError:
    with pytest.raises(TourneyError) as caught:
        call()
    return caught.value


# (how the refusal comes about, its English as the command line says it)
REFUSALS = [
    (lambda: YES_NO.parse("perhaps"), "option pass takes true or false, not 'perhaps'"),
    (lambda: WHOLE.parse("x"), "option deals takes a whole number, not 'x'"),
    (lambda: WHOLE.parse("0"), "option deals must be at least 1, not 0"),
    (lambda: WHOLE.parse("99"), "option deals must be at most 50, not 99"),
    (lambda: CHOICE.parse("left"), "option dealer takes one of rotate, loser, not 'left'"),
    (lambda: get_game("svarta-maja").resolve_options({"colour": "red"}),
     "svarta-maja has no option 'colour' (options: "),
    (lambda: get_game("svarta-maja").resolve_options({"deals": 3, "losses": 2}),
     "svarta-maja: options deals and losses exclude each other"),
    (lambda: get_game("dam-brade").check_options({"huff": "none"}),
     "option huff takes any or capturer, not 'none'"),
    (lambda: ModelSpec.create("Elo"), "unknown rating model 'Elo' (models: "),
    (lambda: ModelSpec.create(params={"margin": 1}),
     "rating parameter 'margin' cannot be set: it only acts on scores, and matches are "
     "rated by places"),
    (lambda: ModelSpec.create(params={"sigma": "wide"}),
     "rating parameter sigma takes a number, not 'wide'"),
    (lambda: ModelSpec.create(params={"tau": -1}),
     "rating parameter tau must be 0 or more, not -1"),
    (lambda: check_key("colour"), "unknown site setting 'colour'; the settings are "),
    (lambda: check_value("url", "ftp://x"),
     "site url 'ftp://x' is not a web address such as https://dam.example.org/"),
    (lambda: table_format("standings.txt", choosable=False),
     "standings.txt: tourney writes .csv and .xlsx files, not .txt; name the file .csv "
     "or .xlsx"),
    (lambda: open_source("results.csv", encoding="klingon"),
     "--encoding takes an encoding Python knows (try utf-8, utf-16, windows-1252, "
     "latin-1), not 'klingon'"),
    (lambda: open_engine("postgresql+nodriver://x/y"), "cannot open postgresql+nodriver://x/y: "),
    (lambda: check_key_columns({"event": "cup", "round": "1", "table": "1", "deal": "1",
                                "variant": "svarta-mja", "players": "A;B;C;D"}, 3),
     "variant: unknown variant 'svarta-mja' (did you mean svarta-maja?)"),
]


@pytest.mark.parametrize("make, english", REFUSALS, ids=[e[:40] for _, e in REFUSALS])
def test_a_library_refusal_is_words_each_language_says(make, english):
    err = refusal(make)
    assert err.words is not None, str(err)
    said = err.describe("--" + err.field) if isinstance(err, InvalidValue) else str(err)
    assert said.startswith(english)  # the command line's English, as before
    for lang in LANGS:
        assert untranslated(err.words, lang) == [], lang
        text = renderer(lang).message(err.words)
        assert text != err.words.english(), lang


def test_an_output_that_is_an_input_is_refused_in_words(tmp_path):
    source = tmp_path / "results.csv"
    source.write_text("x\n", encoding="utf-8")
    err = refusal(lambda: check_outputs({"out": source}, inputs=[source]))
    assert str(err) == (f"out {str(source)!r} is the input file {str(source)!r}; nothing was "
                        "written. Give another file name.")
    assert untranslated(err.words, "sv") == []
    assert "inget skrevs" in renderer("sv").message(err.words)


def store_rules_its_engine_refuses(db_url):
    """Event ``club``'s stored rules edited by hand into ones its engine refuses."""
    engine = open_engine(db_url)
    with Session(engine) as session:
        event = session.exec(select(Event).where(Event.slug == "club")).one()
        event.rules_json = '{"deals": "many"}'
        session.add(event)
        session.commit()
    engine.dispose()


def test_an_event_s_refused_rule_reads_in_swedish_on_the_organizer_page(tourney, db_url):
    """An event whose stored rules its engine refuses (a database edited by hand, a
    rule an older tourney took) while a table's result waits for the organizer:
    the organizer's page, working the result out by the event's rules, says why
    in Swedish, the option and the value it was given named, nothing of it in
    English (before, the engine's English, marked as English)."""
    links = seated_event(tourney, lang="sv")
    web = client(db_url)
    sent = send_csv(web, links["1"], match_csv(tourney, "club", 1, "1"))
    assert sent.json()["outcome"] == "received" and not sent.json()["stored"]
    store_rules_its_engine_refuses(db_url)
    login = web.get("/login")
    web.post("/login", data={"token": TOKEN, "csrf": csrf_of(login.text)})
    answer = web.get("/org/club?lang=sv")
    assert answer.status_code == 404
    assert '<html lang="sv">' in answer.text
    page = html.unescape(answer.text)
    assert "alternativet deals tar ett heltal, inte ”many”" in page
    assert "takes a whole number" not in page
    assert not marked_english(answer.text)  # nothing shown marked as English


def test_a_table_page_of_an_event_whose_rules_are_refused_says_why(tourney, db_url):
    """The same event seen from a table's phone: its page, which reads the event's
    rules to know how scores are typed, says the refusal in the table's language
    (before: a 500, the engine's OptionError uncaught)."""
    links = seated_event(tourney, lang="sv")
    web = client(db_url)
    store_rules_its_engine_refuses(db_url)
    answer = web.get(path_of(links["1"]["url"]))
    assert answer.status_code == 409
    assert '<html lang="sv">' in answer.text
    page = html.unescape(answer.text)
    assert "alternativet deals tar ett heltal, inte ”many”" in page
    assert not marked_english(answer.text)
