"""A table's pages on a phone (issue 29): errors in the page's language with their
detail, the boxes at fault marked, what was stored shown and kept, the language
chosen kept from page to page."""
from __future__ import annotations

import re

from serve_helpers import client, csrf_of, path_of, seated_event, sheet_form


def page_lang(html: str) -> str:
    return re.search(r'<html lang="([a-z]+)"', html).group(1)


def test_the_code_pages_language_goes_on_to_the_tables_page(tourney, db_url):
    links = seated_event(tourney, lang="sv")
    web = client(db_url)
    # no choice made: the code page reads the phone's language, and so does the table
    finnish = {"Accept-Language": "fi-FI,fi;q=0.9"}
    code_page = web.get("/t", headers=finnish)
    assert page_lang(code_page.text) == "fi"
    opened = web.post("/t", data={"csrf": csrf_of(code_page.text), "code": links["1"]["code"],
                                  "lang": "fi"}, headers=finnish)
    assert page_lang(opened.text) == "fi", opened.url
    assert "Pöytä" in opened.text
    # a language chosen on the code page stays on the table's page and after
    chosen = web.get("/t?lang=nb")
    opened = web.post("/t", data={"csrf": csrf_of(chosen.text), "code": links["2"]["code"],
                                  "lang": "nb"})
    assert page_lang(opened.text) == "nb"
    assert page_lang(web.get(path_of(links["1"]["url"])).text) == "nb"
    assert page_lang(web.get("/t").text) == "nb"


def test_the_code_page_posts_its_language(tourney, db_url):
    seated_event(tourney, lang="sv")
    web = client(db_url)
    html = web.get("/t?lang=fi").text
    assert '<input type="hidden" name="lang" value="fi">' in html


def error_items(html: str) -> list[str]:
    block = re.search(r'<ul class="errors" id="errors">(.*?)</ul>', html, re.S)
    return re.findall(r"<li>(.*?)</li>", block.group(1), re.S) if block else []


def invalid_fields(html: str) -> set[str]:
    return set(re.findall(r'name="([a-z0-9-]+)"[^>]*aria-invalid="true"', html))


# (deal 1: a box that is no score; deal 2: two losers; deal 3: a box left empty)
WRONG = {"score-1-0": "x", "score-1-1": "1", "score-1-2": "0", "score-1-3": "0",
         "score-2-0": "1", "score-2-1": "1", "score-2-2": "0", "score-2-3": "0",
         "score-3-0": "1", "score-3-1": "0", "score-3-2": "0", "score-3-3": ""}
# What each language says of them: the deal, the rule's sentence, the detail
SAID = {
    "en": ("deal 2", "exactly one loser", "entered: "),
    "sv": ("giv 2", "exakt en förlorare", "angivet: "),
    "nb": ("giv 2", "nøyaktig én taper", "oppgitt: "),
    "fi": ("jako 2", "tasan yksi häviäjä", "syötetty: "),
}


def _wrong_sheets_sent(tourney, db_url) -> list[tuple[str, str, object]]:
    """The sheet WRONG sent from tables 1-4 of a Swedish event, each table's page
    read in sv, nb, fi and en: (table, language, the refusing page) each."""
    links = seated_event(tourney, lang="sv", tables=4)
    web = client(db_url)
    sent = []
    for table, lang in zip("1234", ("sv", "nb", "fi", "en")):
        url = path_of(links[table]["url"])
        form = {"csrf": csrf_of(web.get(f"{url}?lang={lang}").text), **WRONG}
        page = web.post(url, data=form)
        assert page.status_code == 422 and page_lang(page.text) == lang
        sent.append((table, lang, page))
    return sent


def test_every_error_is_said_in_the_pages_language_with_its_detail(tourney, db_url):
    for table, lang, page in _wrong_sheets_sent(tourney, db_url):
        items = error_items(page.text)
        assert len(items) == 3, items  # every error, one per deal
        deal, sentence, entered = SAID[lang]
        two_losers = next(item for item in items if f"<strong>{deal}" in item)
        assert sentence in two_losers, two_losers
        seats = tourney("round", "show", "club", "1", "--json").json["tables"][int(table) - 1]["seats"]
        if lang == "en":  # the engine's own words are the detail
            assert "has 2 losers" in two_losers and "&#39;x&#39; is not a score" in items[0]
        else:  # what was typed in the deal's boxes, by player, in the page's words
            typed = f"{entered}{seats[0]} 1, {seats[1]} 1, {seats[2]} 0, {seats[3]} 0"
            assert typed in two_losers, two_losers
            assert f"{entered}x" in items[0]
            assert all('lang="en"' not in item for item in items), items
            assert not any("needs exactly one loser" in item for item in items)
        # the fields at fault: the box that is no score, deal 2's boxes, the empty box
        assert invalid_fields(page.text) == {"score-1-0", "score-2-0", "score-2-1",
                                             "score-2-2", "score-2-3", "score-3-3"}


def test_an_empty_sheet_is_told_to_type_its_scores_not_to_import_a_file(tourney, db_url):
    links = seated_event(tourney, lang="sv")
    web = client(db_url)
    url = path_of(links["1"]["url"])
    for lang, said in (("en", "Type each deal&#39;s scores in the boxes, then send the sheet."),
                       ("sv", "Skriv in varje givs poäng i rutorna och skicka sedan protokollet.")):
        page = web.post(url, data={"csrf": csrf_of(web.get(f"{url}?lang={lang}").text)})
        assert page.status_code == 422 and page_lang(page.text) == lang
        items = error_items(page.text)
        assert len(items) == 1 and said in items[0], items
        assert "import" not in items[0] and "läs in" not in items[0], items


def test_a_pasted_record_marks_its_box_and_says_what_is_wrong(tourney, db_url):
    links = seated_event(tourney, lang="sv")
    web = client(db_url)
    url = path_of(links["1"]["url"])
    form = {"csrf": csrf_of(web.get(url).text), "record": "not,a,record\n1,2,3"}
    page = web.post(url, data=form)
    assert page.status_code == 422
    assert invalid_fields(page.text) == {"record"}
    items = error_items(page.text)
    # the sentence and the reader's own detail in Swedish: nothing marked as English
    assert items and all('lang="en"' not in item and "(engelska)" not in item
                         for item in items), items
    assert any("okänd kolumn" in item and "unknown column" not in item for item in items), items


def test_the_table_sees_what_was_stored_and_comes_back_to_it(tourney, db_url):
    links = seated_event(tourney, lang="sv")
    web = client(db_url, auto_accept=True)
    url = path_of(links["1"]["url"])
    seats = tourney("round", "show", "club", "1", "--json").json["tables"][0]["seats"]
    form = {"csrf": csrf_of(web.get(url).text), **sheet_form(loser_seat=1)}
    sent = web.post(url, data=form)
    assert sent.status_code == 200
    # the answer shows what was stored: the version, the time, the scores and places
    stored = re.search(r'<section class="stored".*?</section>', sent.text, re.S).group(0)
    assert re.search(r"Version 1, sparad \d\d:\d\d\.", stored), stored
    assert all(name in stored for name in seats)
    places = re.findall(r"<tr><th scope=\"row\">Placering</th>(.*?)</tr>", stored)[0]
    # seat 2 lost every deal; the others share the first place, marked as in the standings
    assert [re.sub(r"<[^>]+>", "", cell) for cell in re.findall(r"<td>(.*?)</td>", places)
            ] == ["1=", "4", "1=", "1="]
    # later, the table's page says so and links to it
    page = web.get(url).text
    assert re.search(r"Resultatet för det här bordet är sparat\. Version 1, sparad \d\d:\d\d\.", page)
    assert f'href="{url}/result"' in page
    result = web.get(f"{url}/result")
    assert result.status_code == 200 and "Version 1, sparad" in result.text
    assert result.headers["Cache-Control"] == "no-store"
    assert all(name in result.text for name in seats)
    assert web.get("/t/not-a-token/result").status_code == 404


def test_an_invalid_result_after_the_stored_one_lists_every_error(tourney, db_url):
    links = seated_event(tourney, lang="sv")
    web = client(db_url, auto_accept=True)
    url = path_of(links["1"]["url"])
    form = {"csrf": csrf_of(web.get(url).text), **sheet_form(loser_seat=1)}
    assert web.post(url, data=form).status_code == 200
    again = web.post(url, data={**form, **WRONG, "score-3-3": "<b>"})
    items = error_items(again.text)
    assert len(items) == 3, items
    assert any("angivet: x" in item for item in items), items
    # what was typed is shown as text, never as markup
    assert any("angivet: &lt;b&gt;" in item for item in items), items
    assert "<b>" not in again.text


def test_a_record_file_for_a_table_entered_on_its_phone_says_the_score_sheet(tourney, db_url,
                                                                            tmp_path):
    """Table 1's score sheet entered on its phone, then the organizer imports the
    record file of the same table (with the moves): the refusal says the table's
    result was entered at the venue as a score sheet, and that replacing it keeps
    the sheet as the old version (--replace), not a difference of "stored ''" in
    every column a score sheet leaves empty; --replace then stores the file's."""
    import random

    from tourney.engines import get_game
    from tourney.records.csv_format import write_records
    from tourney.simulation import simulate_match

    links = seated_event(tourney, lang="sv")
    web = client(db_url, auto_accept=True)
    url = path_of(links["1"]["url"])
    form = {"csrf": csrf_of(web.get(url).text), **sheet_form(loser_seat=1)}
    assert web.post(url, data=form).status_code == 200
    seats = tourney("round", "show", "club", "1", "--json").json["tables"][0]["seats"]
    game = get_game("svarta-maja")
    records = simulate_match(game, game.resolve_options({"deals": "3"}), seats,
                             random.Random(1), event="club", round_number=1, table="1")
    path = tmp_path / "table1.csv"
    with open(path, "w", encoding="utf-8", newline="") as stream:
        write_records(stream, records, game_for=lambda r: game)
    refused = tourney("result", "import", path, exit_code=None)
    assert refused.exit_code != 0
    assert ("round 1, table 1 of club was entered at the venue as a score sheet (version 1: "
            "scores, no moves), and this file has the moves. Replacing it stores the file's "
            "as a new version; the score sheet stays in the match history (--replace)"
            ) in refused.stderr
    assert "stored ''" not in refused.stderr
    tourney("result", "import", path, "--replace")
    history = tourney("result", "history", "club", "1", "1", "--json", exit_code=None)
    assert history.exit_code == 0 and len(history.json) == 2, history.stdout


# The rule's sentence for a box left empty, as each page says it; the error's own
# words say the same ("the score is missing"), so the page says it once.
MISSING = {"en": ("The score is missing.", "score is missing"),
           "sv": ("Poängen saknas.", "poängen saknas"),
           "nb": ("Poengsummen mangler.", "mangler"),
           "fi": ("Pistemäärä puuttuu.", "puuttu")}


def test_a_missing_score_is_said_once_in_every_language(tourney, db_url):
    for table, lang, page in _wrong_sheets_sent(tourney, db_url):
        sentence, stem = MISSING[lang]
        [missing] = [item for item in error_items(page.text) if sentence in item]
        assert missing.lower().count(stem) == 1, missing
        assert 'class="detail"' not in missing, missing
