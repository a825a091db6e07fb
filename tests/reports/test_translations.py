"""The site's translations: every message in Swedish, Norwegian (bokmål) and Finnish.

- The catalogue tests extract ``messages.pot`` afresh (the command in
  :data:`tourney.reports.i18n.EXTRACT_COMMAND`, into a temporary file) and check
  that each language's ``.po`` has a non-empty, non-fuzzy translation of every
  message, plural forms included, with the same placeholders: a Swedish page never
  falls back to English text.
- The vocabulary tests pin the game words the translators chose from the games'
  own traditions (docs/translations.md): "spader dam", "spar dame", "patarouva"...
- The page tests publish a small league in sv, nb, fi and en, open pages in
  headless Chromium (Debian's /usr/bin/chromium through Playwright) and check the
  text, the dates and numbers per language, the seat lists (also as printed), that
  player and event names are shown as entered, and take screenshots of a
  standings page and a deal replay per language. Set ``TOURNEY_SCREENSHOTS`` to a
  folder to keep them.
"""
from __future__ import annotations

import json
import os
import random
import re
import shlex
import tempfile
from pathlib import Path

import pytest
from babel.messages.frontend import CommandLineInterface
from babel.messages.pofile import read_po
from click.testing import CliRunner
from conftest import CHROMIUM, CHROMIUM_ARGS
from jinja2 import Environment, FileSystemLoader, nodes
from site_helpers import (
    EVENTS,
    HOSTILE_PLAYER,
    PLAYERS,
    EventSpec,
    build_league,
    play_rounds,
    publish_site,
)

from tourney.reports.i18n import EXTRACT_COMMAND, catalogue_path, translations
from tourney.reports.translated_words import CARD_NAME_IDS

REPO = Path(__file__).resolve().parents[2]
TEMPLATES = REPO / "reports" / "templates"
LANGS = ("sv", "nb", "fi")
SITE_LANGS = ("sv", "nb", "fi", "en")  # sv is the site's root tree, the others in <lang>/
PLACEHOLDER = re.compile(r"%\((\w+)\)[sdif]|\{(\w+)\}")
ANY_PERCENT = re.compile(r"%(?:\((\w+)\)[sdif]|%)|%")

# A player and an event named like catalogue messages: a name that went through
# gettext would come out as "Givare", "Ställning"...
NAMED_LIKE_A_MESSAGE_PLAYER = "Dealer"
NAMED_LIKE_A_MESSAGE_EVENT = "Standings"
BYE_EVENT = EventSpec("bye-night", "dam-stick", NAMED_LIKE_A_MESSAGE_EVENT, 1,
                      {"target": "30"}, "4", "2024-07-01", "sv",
                      players=[NAMED_LIKE_A_MESSAGE_PLAYER, "Anna Lindqvist", "Björn Ek",
                               "Cecilia Holm", "David Öberg"])


# ----------------------------------------------------------------- catalogues

def extract_pot(out: Path) -> None:
    """Run the project's extraction command with its output sent to ``out``."""
    argv = shlex.split(EXTRACT_COMMAND)
    argv[argv.index("-o") + 1] = str(out)
    argv.insert(1, "--quiet")
    cwd = os.getcwd()
    os.chdir(REPO)
    try:
        CommandLineInterface().run(argv)
    finally:
        os.chdir(cwd)


@pytest.fixture(scope="module")
def fresh_pot(tmp_path_factory):
    path = tmp_path_factory.mktemp("pot") / "messages.pot"
    extract_pot(path)
    with open(path, "rb") as stream:
        catalog = read_po(stream)
    messages = [m for m in catalog if m.id]
    assert len(messages) > 100, "the extraction found too few messages"
    return messages


def load_po(lang: str):
    with open(catalogue_path(lang), "rb") as stream:
        return read_po(stream, locale=lang)


def key_of(message):
    return (message.context, message.id if isinstance(message.id, str) else tuple(message.id))


def forms(message) -> list[str]:
    return [message.string] if isinstance(message.string, str) else list(message.string)


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def test_committed_template_is_current(fresh_pot):
    """reports/locale/messages.pot lists the messages the code uses now."""
    with open(REPO / "reports" / "locale" / "messages.pot", "rb") as stream:
        committed = {key_of(m) for m in read_po(stream) if m.id}
    fresh = {key_of(m) for m in fresh_pot}
    assert fresh - committed == set(), "re-extract messages.pot (see i18n.EXTRACT_COMMAND)"
    assert committed - fresh == set(), "messages.pot lists messages no longer used"


@pytest.mark.parametrize("lang", LANGS)
def test_every_message_is_translated(fresh_pot, lang):
    catalog = load_po(lang)
    nplurals = catalog.num_plurals
    assert nplurals == 2, catalog.plural_forms
    by_key = {key_of(m): m for m in catalog if m.id}
    problems = []
    for message in fresh_pot:
        found = by_key.get(key_of(message))
        if found is None:
            problems.append(f"missing: {message.id!r}")
        elif found.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
        elif message.pluralizable and (not found.pluralizable
                                       or len(forms(found)) != nplurals):
            problems.append(f"plural forms: {message.id!r}")
        elif not all(s.strip() for s in forms(found)):
            problems.append(f"untranslated: {message.id!r}")
    assert problems == [], f"{lang}: {len(problems)} messages:\n" + "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_placeholders_are_kept(fresh_pot, lang):
    """Each translation has exactly the placeholders of its message, no stray
    percent sign (jinja2's newstyle gettext applies % to every string) and no
    markup characters its message lacks (a translation is inserted as markup)."""
    by_key = {key_of(m): m for m in load_po(lang) if m.id}
    problems = []
    for message in fresh_pot:
        found = by_key.get(key_of(message))
        if found is None:
            continue  # reported by test_every_message_is_translated
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        wanted = set().union(*(placeholders(i) for i in ids))
        for text in forms(found):
            if placeholders(text) != wanted:
                problems.append(f"{message.id!r}: {text!r}")
            if any(m.group(0) == "%" for m in ANY_PERCENT.finditer(text)):
                problems.append(f"stray %: {text!r}")
            # Templates insert a translation as markup: no markup of its own.
            if set(text) & set("<>&") - set("".join(ids)):
                problems.append(f"markup: {text!r}")
    assert problems == [], f"{lang}:\n" + "\n".join(problems)


# Messages whose translation may equal the English text: names of games, symbols
# and words the languages share.
SAME_AS_ENGLISH = {
    "Buchholz", "Dam med kortrad (Korpen)", "Dam med sju dolda kort",
    "Svarta Maja (Spader dam)", "Status", "Match", "Rating", "R%(n)s", "rating (μ − 3σ)",
    "Sonneborn-Berger",
    # an error's parts joined by a semicolon (tourney/engines: each part translated)
    "%(first)s; %(then)s", "%(why)s; %(detail)s", "%(first)s, %(then)s",
    # what a problem is of (a file's line, an event) and the problem; an unknown
    # column and its did-you-mean hint (tourney/tournament, tourney/errors)
    "%(subject)s: %(problem)s", "%(column)s (%(hint)s)",
    # a player's place before and after a change of a series (tourney/tournament/series)
    "%(player)s %(before)s → %(after)s",
}


@pytest.mark.parametrize("lang", LANGS)
def test_compiled_catalogue_formats_every_message(fresh_pot, lang):
    """The catalogue as the site loads it: each message is translated (not a copy
    of the English, unless listed above) and formats with its placeholders filled,
    in both plural forms."""
    tr = translations(lang)
    copies = []
    for message in fresh_pot:
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        params = {name: 7 for i in ids for name in placeholders(i)}
        for n in (1, 2):
            if message.pluralizable:
                english = ids[0] if n == 1 else ids[1]
                text = tr.ngettext(ids[0], ids[1], n)
            elif message.context:
                english, text = None, tr.pgettext(message.context, ids[0])
            else:
                english, text = ids[0], tr.gettext(ids[0])
            if text == english and english not in SAME_AS_ENGLISH:
                copies.append(english)
            if params:
                formatted = text % params
                assert "%(" not in formatted and "7" in formatted, (lang, text)
    assert copies == [], f"{lang}: English text left as the translation: {copies}"


VOCABULARY = {
    # English message: (sv, nb, fi)
    "queen of spades": ("spader dam", "spar dame", "patarouva"),
    "king of hearts": ("hjärter kung", "hjerter konge", "herttakuningas"),
    "jack of diamonds": ("ruter knekt", "ruter knekt", "ruutujätkä"),
    "ace of clubs": ("klöver ess", "kløver ess", "ristiässä"),
    "ace of hearts": ("hjärter ess", "hjerter ess", "herttaässä"),
    "Trick": ("Stick", "Stikk", "Tikki"),
    "Deal": ("Giv", "Giv", "Jako"),
    "Dealer": ("Givare", "Giver", "Jakaja"),
    "Round": ("Rond", "Runde", "Kierros"),
    "Table": ("Bord", "Bord", "Pöytä"),
    "Seat": ("Plats", "Plass", "Paikka"),
    "bye": ("frirond", "frirunde", "vapaakierros"),
    "Standings": ("Ställning", "Stilling", "Tilanne"),
    "Buchholz": ("Buchholz", "Buchholz", "Buchholz"),
    "Wins": ("Antal segrar", "Antall seire", "Voitot"),
    "Stock": ("Talong", "Bunke", "Pakka"),
    "Svarta Maja (Spader dam)": ("Svarta Maja (Spader dam)", "Svarta Maja (svensk spader dam)",
                                 "Musta Maija (Svarta Maja)"),
    "Spardame (Norwegian)": ("Spardame (norsk)", "Spardame", "Spardame (norjalainen)"),
    "Dam, the board game (checkers, Alga rules)": ("Dam (brädspel, Algas regler)",
                                                   "Dam (brettspill, Algas regler)",
                                                   "Tammi (lautapeli, Algan säännöt)"),
    "Dam med kortrad (Korpen)": ("Dam med kortrad (Korpen)",) * 3,
    "Dam med sju dolda kort": ("Dam med sju dolda kort",) * 3,
}


@pytest.mark.parametrize("index,lang", list(enumerate(LANGS)))
def test_game_vocabulary(index, lang):
    tr = translations(lang)
    for english, words in VOCABULARY.items():
        assert tr.gettext(english) == words[index], (lang, english)
    seat = tr.gettext("Table %(label)s") % {"label": 3} + ", " + \
        tr.gettext("Seat").lower() + " 2"
    assert seat == {"sv": "Bord 3, plats 2", "nb": "Bord 3, plass 2",
                    "fi": "Pöytä 3, paikka 2"}[lang]
    # Every card has its own name, made of the language's suit word.
    names = [tr.gettext(c) for c in CARD_NAME_IDS]
    assert len(set(names)) == 52
    suits = [tr.gettext(s) for s in ("spades", "hearts", "diamonds", "clubs")]
    for card, name in enumerate(names):
        assert name.startswith(suits[card // 13]), (lang, name)
    # Plural forms: one and several.
    one = tr.ngettext("%(count)s rated match", "%(count)s rated matches", 1) % {"count": 1}
    many = tr.ngettext("%(count)s rated match", "%(count)s rated matches", 3) % {"count": 3}
    assert one != many and one.startswith("1 ") and many.startswith("3 ")


# A term a player meets on several pages and in the e-mails has one word per
# language, the glossary's (docs/translations.md): a Norwegian page that said
# "walkover" (a forfeit) for a bye, e-mails saying "matchpoeng" beside the page's
# "kamppoeng", a Finnish "Olet ilmoittautunut" for a check-in as for a sign-up, told
# a player two things.
TERMS = {
    # a message mentioning this: (its glossary row, and per language the stem every
    # translation holds, inflected as it may be: "ottelupisteen", "ottelupistettä")
    r"\bbyes?\b": ("bye", ("frirond", "frirunde", "vapaakierro")),
    r"\bmatch points?\b": ("match points", ("matchpoäng", "kamppoeng", "ottelupist")),
    # Finnish signs up and checks in with one verb: a check-in goes "paikalle"
    r"\bcheck(?:ed|s)?[- ]in\b": ("check-in (at the venue) / sign-up (beforehand)",
                                  ("check", "sjekk", "paikall")),
}
# What a translation of a message of ratings must not say: in Finnish "ranking" is
# a place in a list; the glossary's word for a rating is "vahvuusluku".
RATING = re.compile(r"\brat(?:ing|ings|ed)\b", re.IGNORECASE)
NOT_RATING = {"sv": None, "nb": None, "fi": re.compile(r"rank", re.IGNORECASE)}


def glossary_row(english: str) -> list[str]:
    for line in (REPO / "docs" / "translations.md").read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip("|").split("|")]
        if cells[0] == english:
            return cells[1:]
    raise AssertionError(f"the glossary has no row {english!r}")


@pytest.mark.parametrize("index,lang", list(enumerate(LANGS)))
def test_one_word_for_a_term_on_every_page(index, lang):
    for row, stems in TERMS.values():
        assert stems[index] in glossary_row(row)[index].lower(), (lang, row)
    wrong = []
    for message in load_po(lang):
        if not message.id:
            continue
        ids = [message.id] if isinstance(message.id, str) else list(message.id)
        for pattern, (_, stems) in TERMS.items():
            if any(re.search(pattern, text, re.IGNORECASE) for text in ids):
                wrong += [(ids[0], text) for text in forms(message)
                          if stems[index] not in text.lower()]
        if NOT_RATING[lang] and any(RATING.search(text) for text in ids):
            wrong += [(ids[0], text) for text in forms(message) if NOT_RATING[lang].search(text)]
    assert wrong == [], f"{lang}: {wrong}"


@pytest.mark.parametrize("index,lang", list(enumerate(LANGS)))
def test_the_e_mails_use_the_pages_words(index, lang):
    from tourney.app.notify import POINT_WORDS, RESULTS_TEXTS

    stem = TERMS[r"\bmatch points?\b"][1][index]
    assert POINT_WORDS[lang][0][0].startswith(stem) and POINT_WORDS[lang][0][1].startswith(stem)
    assert stem in RESULTS_TEXTS[lang][8]  # a forfeited table: "0 match points"
    rating_line = RESULTS_TEXTS[lang][5]
    assert "{rating_after}" in rating_line
    assert not (NOT_RATING[lang] and NOT_RATING[lang].search(rating_line)), rating_line


# How many leading arguments of each gettext function are the message (and context).
MESSAGE_ARGS = {"_": 1, "gettext": 1, "ngettext": 2, "pgettext": 2, "npgettext": 3}


def test_templates_never_translate_user_text():
    """Every _()/gettext call in a template has a literal message: player names,
    event names and other user text are never looked up in a catalogue."""
    env = Environment(loader=FileSystemLoader(str(TEMPLATES)), extensions=["jinja2.ext.i18n"])
    calls = 0
    for path in sorted(TEMPLATES.glob("*.html")):
        tree = env.parse(path.read_text(encoding="utf-8"))
        for call in tree.find_all(nodes.Call):
            literal = MESSAGE_ARGS.get(call.node.name) if isinstance(call.node, nodes.Name) \
                else None
            if literal:
                calls += 1
                args = call.args[:literal]
                assert len(args) == literal and all(isinstance(a, nodes.Const) for a in args), (
                    f"{path.name}:{call.lineno}: {call.node.name}() of a non-literal")
    assert calls > 50


# ----------------------------------------------------------------- pages

class CliResult:
    def __init__(self, stdout: str):
        self.stdout = stdout

    @property
    def json(self):
        return json.loads(self.stdout)


def run_cli(db_url: str, *args: str) -> CliResult:
    """``tourney ARGS --db DB_URL`` in-process (the site helpers' calling convention;
    a module-scoped league cannot use the function-scoped ``run_cli`` fixture)."""
    from tourney.cli.main import cli

    argv = [str(a) for a in args] + ["--db", db_url]
    result = CliRunner().invoke(cli, argv, catch_exceptions=True)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code == 0, f"tourney {' '.join(argv)}: {result.output}"
    return CliResult(result.stdout)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A published league: the helpers' events plus one with a bye, a player named
    like a message and an event named like one; in sv (root), nb, fi and en."""
    work = tmp_path_factory.mktemp("league")
    db_url = f"sqlite:///{work / 'tourney.db'}"
    build_league(run_cli, db_url, work)
    run_cli(db_url, "player", "add", NAMED_LIKE_A_MESSAGE_PLAYER)
    spec = BYE_EVENT
    run_cli(db_url, "event", "create", spec.slug, "--variant", spec.variant, "--name",
            spec.name, "--rounds", str(spec.rounds), "--rule", "target=30",
            "--table-sizes", spec.table_sizes, "--date", spec.date, "--lang", spec.lang)
    run_cli(db_url, "event", "enter", spec.slug, *spec.players)
    play_rounds(run_cli, db_url, work, spec, random.Random(11))
    return publish_site(run_cli, db_url, work / "site", SITE_LANGS)


def page_path(site: Path, lang: str, rel: str) -> Path:
    path = site / rel if lang == SITE_LANGS[0] else site / lang / rel
    assert path.is_file(), path
    return path


class Browser:
    """A Chromium page and the script errors and console errors it reported."""

    def __init__(self, page):
        self.page = page
        self.errors: list[str] = []
        page.on("pageerror", lambda err: self.errors.append(str(err)))
        page.on("console", lambda msg: self.errors.append(msg.text)
                if msg.type == "error" else None)

    def open(self, path: Path):
        self.errors.clear()
        self.page.goto(path.as_uri())
        assert self.errors == [], self.errors
        return self.page


@pytest.fixture(scope="module")
def browser_page():
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory(prefix="chromium-") as user_data, \
            sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            user_data, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS,
            viewport={"width": 1100, "height": 900})
        browser = Browser(context.new_page())
        try:
            yield browser
        finally:
            context.close()


@pytest.fixture(scope="module")
def screenshot_dir(tmp_path_factory):
    wanted = os.environ.get("TOURNEY_SCREENSHOTS")
    if wanted:
        Path(wanted).mkdir(parents=True, exist_ok=True)
        return Path(wanted)
    return tmp_path_factory.mktemp("screenshots")


def shown_text(page) -> str:
    """The page's visible text plus its title, title= and aria-label= texts."""
    extra = page.eval_on_selector_all(
        "[title], [aria-label]",
        "els => els.map(e => (e.getAttribute('title') || '') + ' ' + "
        "(e.getAttribute('aria-label') || ''))")
    return page.title() + "\n" + page.inner_text("body") + "\n" + "\n".join(extra)


def english_leaks(text: str, lang: str, messages) -> list[str]:
    """English messages (whose translation differs) found in a page's text."""
    tr = translations(lang)
    for name in sorted(USER_NAMES, key=len, reverse=True):
        text = text.replace(name, " ")
    found = []
    for message in messages:
        if message.context or message.pluralizable:
            continue
        english = message.id
        literal = re.sub(r"%\(\w+\)s", "", english)
        if tr.gettext(english) == english or len(re.findall(r"\w", literal)) < 4:
            continue  # the same words, or too little text to recognise
        pattern = r"(?<!\w)" + r".+?".join(
            re.escape(part) for part in re.split(r"%\(\w+\)s", english)) + r"(?!\w)"
        if re.search(pattern, text):
            found.append(english)
    return found


USER_NAMES = {*PLAYERS, *(e.name for e in EVENTS), NAMED_LIKE_A_MESSAGE_PLAYER,
              NAMED_LIKE_A_MESSAGE_EVENT}


def png_ok(path: Path) -> bool:
    data = path.read_bytes()
    return data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 5000


STANDINGS = "events/dam-night/index.html"
EXPECTED = {
    # a date and a decimal in each language's own format
    "sv": {"date": "2 apr. 2024", "decimal": ","},
    "nb": {"date": "2. apr. 2024", "decimal": ","},
    "fi": {"date": "2.4.2024", "decimal": ","},
    "en": {"date": "Apr 2, 2024", "decimal": "."},
}


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_standings_page_in_language(site, browser_page, screenshot_dir, fresh_pot, lang):
    page = browser_page.open(page_path(site, lang, STANDINGS))
    tr = translations(lang)
    assert page.get_attribute("html", "lang") == lang
    assert page.inner_text("#standings-h") == tr.gettext("Standings")
    headers = page.eval_on_selector_all("table.standings thead th",
                                        "ths => ths.map(t => t.textContent.trim())")
    assert [h.rstrip(" ↕") for h in headers[:3]] == [tr.gettext(m) for m in
                                                     ("Place", "Player", "Points")]
    assert any(tr.gettext("Opponents' strength") in h for h in headers)
    text = shown_text(page)
    assert english_leaks(text, lang, fresh_pot) == []
    # Dates and numbers in the language's format.
    facts = page.inner_text("dl.facts")
    assert EXPECTED[lang]["date"] in facts
    scores = page.eval_on_selector_all(
        "table.standings tbody td.num", "tds => tds.map(t => t.textContent.trim())")
    decimals = [s for s in scores if re.fullmatch(r"-?\d+[.,]\d+", s)]
    assert decimals, scores
    assert all(EXPECTED[lang]["decimal"] in s for s in decimals), decimals
    shot = screenshot_dir / f"standings-{lang}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert png_ok(shot)


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_deal_replay_in_language(site, browser_page, screenshot_dir, fresh_pot, lang):
    """A Spardame deal: card symbols and names, the trick table, the events."""
    replays = sorted((site / "events" / "spring-cup").glob("match-*-deal-*.html"))
    assert replays
    rel = replays[0].relative_to(site).as_posix()
    page = browser_page.open(page_path(site, lang, rel))
    tr = translations(lang)
    assert page.get_attribute("html", "lang") == lang
    heading = page.inner_text("#tricks-h")
    assert heading == tr.gettext("Trick by trick")
    titles = set(page.eval_on_selector_all("abbr.card", "els => els.map(e => e.title)"))
    card_names = {tr.gettext(c) for c in CARD_NAME_IDS}
    assert titles and titles <= card_names, titles - card_names
    # The rank letter of a queen is the language's ("D" for dam in Swedish).
    queen = tr.pgettext("card rank", "Q")
    qs = page.query_selector(f'abbr.card[title="{tr.gettext("queen of spades")}"]')
    if qs is not None:
        assert qs.inner_text().startswith(queen)
    text = shown_text(page)
    assert english_leaks(text, lang, fresh_pot) == []
    shot = screenshot_dir / f"replay-{lang}.png"
    page.screenshot(path=str(shot), full_page=True)
    assert png_ok(shot)


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_other_replays_in_language(site, browser_page, fresh_pot, lang):
    """One replay of each other kind (exchanges, turns, board) has no English."""
    for event in ("maja-open", "row-club", "sju-kvall", "brade-cup", "dam-night"):
        replays = sorted((site / "events" / event).glob("match-*-deal-*.html"))
        assert replays, event
        page = browser_page.open(page_path(site, lang, replays[0].relative_to(site).as_posix()))
        assert english_leaks(shown_text(page), lang, fresh_pot) == [], event


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_other_pages_in_language(site, browser_page, fresh_pot, lang):
    """The index, the players, a player with a rating chart, a leaderboard, a
    match with a score-sheet deal and a round have no English left."""
    pages = ["index.html", "players/index.html", "players/1.html", "ratings/spardame.html",
             "events/spring-cup/match-1.html", "events/dam-night/round-1.html",
             "events/autumn-open/index.html"]
    for rel in pages:
        page = browser_page.open(page_path(site, lang, rel))
        assert page.get_attribute("html", "lang") == lang
        assert english_leaks(shown_text(page), lang, fresh_pot) == [], rel
        chart = page.query_selector("svg.chart title")
        if chart is not None:
            assert chart.text_content().startswith(
                tr_prefix(lang, "Rating history: %(game)s")), rel


def tr_prefix(lang: str, msgid: str) -> str:
    """A translated message's text up to its first placeholder."""
    return translations(lang).gettext(msgid).split("%(")[0]


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_seat_list_in_language(site, browser_page, screenshot_dir, fresh_pot, lang):
    """The round page is the printable seat list: by table, by name, the bye."""
    page = browser_page.open(page_path(site, lang, "events/bye-night/round-1.html"))
    tr = translations(lang)
    tables = page.eval_on_selector_all(".table-card h3", "hs => hs.map(h => h.textContent)")
    assert tables == [tr.gettext("Table %(label)s") % {"label": "1"}]
    headers = page.eval_on_selector_all("table.by-name thead th",
                                        "ths => ths.map(t => t.textContent.trim())")
    assert [h.rstrip(" ↕") for h in headers] == [tr.gettext(m) for m in
                                                 ("Player", "Table", "Seat")]
    rows = page.eval_on_selector_all(
        "table.by-name tbody tr",
        "trs => trs.map(r => Array.from(r.cells).map(c => c.textContent.trim()))")
    byes = [r for r in rows if r[1] == tr.gettext("bye")]
    assert len(byes) == 1 and byes[0][2] == ""
    assert page.inner_text(".seats-by-table > h3") == tr.gettext("Byes")
    assert english_leaks(shown_text(page), lang, fresh_pot) == []
    # Printed: the navigation goes, the lists stay.
    page.emulate_media(media="print")
    try:
        assert not page.is_visible("nav.top")
        assert page.is_visible("table.by-name")
        shot = screenshot_dir / f"seats-print-{lang}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert png_ok(shot)
    finally:
        page.emulate_media(media="screen")


@pytest.mark.browser
@pytest.mark.parametrize("lang", SITE_LANGS)
def test_names_are_shown_as_entered(site, browser_page, lang):
    """A player called "Dealer" and an event called "Standings" keep their names in
    every language, as do names with markup in them."""
    page = browser_page.open(page_path(site, lang, "events/bye-night/index.html"))
    assert page.inner_text("h1") == NAMED_LIKE_A_MESSAGE_EVENT
    players = page.eval_on_selector_all("table.standings tbody td a",
                                        "as => as.map(a => a.textContent)")
    assert NAMED_LIKE_A_MESSAGE_PLAYER in players
    page = browser_page.open(page_path(site, lang, STANDINGS))
    players = page.eval_on_selector_all("table.standings tbody td a",
                                        "as => as.map(a => a.textContent)")
    assert HOSTILE_PLAYER in players
    page = browser_page.open(page_path(site, lang, "index.html"))
    events = page.eval_on_selector_all("table.events tbody td:first-child a",
                                       "as => as.map(a => a.textContent)")
    assert {NAMED_LIKE_A_MESSAGE_EVENT, *(e.name for e in EVENTS)} <= set(events)


@pytest.mark.browser
@pytest.mark.parametrize("lang", SITE_LANGS)
def test_ratings_numbers_in_language(site, browser_page, lang):
    """μ and σ on a leaderboard use the language's decimal sign; the index's
    event dates are in the language's format."""
    page = browser_page.open(page_path(site, lang, "ratings/dam-stick.html"))
    cells = page.eval_on_selector_all("table.leaderboard tbody td.num",
                                      "tds => tds.map(t => t.textContent.trim())")
    decimals = [c for c in cells if re.fullmatch(r"-?\d+[.,]\d", c)]
    assert decimals
    mark = EXPECTED[lang]["decimal"]
    assert all(mark in c for c in decimals), decimals
    page = browser_page.open(page_path(site, lang, "index.html"))
    dates = page.eval_on_selector_all("table.events tbody td[data-sort]",
                                      "tds => tds.map(t => t.textContent.trim())")
    assert EXPECTED[lang]["date"] in dates
