"""A new user's club evening at the phone form (Swedish event, spardame, tables
of 4): what the walkthrough found, each pinned."""
from __future__ import annotations

import re

from serve_helpers import TOKEN, client, csrf_of, path_of

NAMES = ["Anna Berg", "Bo Ek", "Cecilia Holm", "Jörgen Lindqvist"]


def spardame_event(run, slug="kvall", lang="sv", names=NAMES, rounds=2, rules=()):
    run("player", "add", *names)
    run("event", "create", slug, "--variant", "spardame", "--rounds", rounds,
        "--table-sizes", str(len(names)), "--rule", "deals=2", *rules, "--lang", lang)
    run("event", "enter", slug, "--all")
    run("round", "seat", slug)
    return run("round", "links", slug, "1", "--base-url", "http://testserver",
               "--json").json["tables"][0]


def post_sheet(web, link, cells: dict):
    page = web.get(path_of(link["url"]))
    form = {"csrf": csrf_of(page.text)}
    form.update(cells)
    return web.post(path_of(link["url"]), data=form)


def test_codes_are_shown_alike_in_the_cli_and_on_the_qr_page(tourney, db_url):
    link = spardame_event(tourney)
    shown = link["code"]  # --json gives the code as shown
    assert len(shown) == 9 and shown[4] == "-"
    code = shown.replace("-", "")
    plain = tourney("round", "links", "kvall", "1", "--base-url", "http://testserver").stdout
    assert shown in plain
    web = client(db_url)
    page = web.get("/org/kvall/round/1/links", headers={"Authorization": f"Bearer {TOKEN}"})
    assert shown in page.text
    # typed either way, the code opens the table
    for typed in (code, shown):
        form = {"csrf": csrf_of(web.get("/t").text), "code": typed}
        opened = web.post("/t", data=form, follow_redirects=False)
        assert opened.status_code == 303 and opened.headers["location"] == path_of(link["url"])


def cells(deal1, deal2=("", "", "", "")) -> dict:
    form = {}
    for deal, scores in ((1, deal1), (2, deal2)):
        for seat, text in enumerate(scores):
            form[f"score-{deal}-{seat}"] = text
    return form


def error_items(html: str) -> list[str]:
    block = re.search(r'<ul class="errors".*?</ul>', html, re.S)
    return re.findall(r"<li>(.*?)</li>", block.group(0), re.S) if block else []


def marked(html: str) -> set[str]:
    return set(re.findall(r'name="(score-\d+-\d+)"[^>]*class="bad" aria-invalid="true"', html))


def test_every_bad_box_is_named_in_swedish_and_marked(tourney, db_url):
    link = spardame_event(tourney)
    web = client(db_url)
    players = tourney("round", "show", "kvall", "1", "--json").json["tables"][0]["seats"]
    page = post_sheet(web, link, cells(["125", "15", "0", "110"], ["0;", "x", "", "100"]))
    assert page.status_code == 422
    items = error_items(page.text)
    text = "\n".join(items)
    # one line per box at fault, by deal, seat and player; Swedish only
    assert len(items) == 5, items
    assert "seats given for" not in text and "separated by" not in text
    # the detail is what was typed, in Swedish: no English words of the engine
    assert 'lang="en"' not in text and "is not a possible penalty" not in text
    assert "angivet: 125" in text and "angivet: 0;" in text
    assert text.count("Den poängen går inte att få i det här spelet.") == 2
    assert "giv 1, poäng, plats 1, " + players[0] in text
    assert "giv 1, poäng, plats 2, " + players[1] in text
    assert "giv 2, poäng, plats 1, " + players[0] in text and "skriv ett tal i varje ruta" in text
    assert "giv 2, poäng, plats 2, " + players[1] in text
    assert "giv 2, poäng, plats 3, " + players[2] + "</strong>: Poängen saknas." in text
    assert "'' is not a score" not in text
    assert marked(page.text) == {"score-1-0", "score-1-1", "score-2-0", "score-2-1", "score-2-2"}
    # the values typed stay in their boxes
    assert 'value="0;"' in page.text and 'value="125"' in page.text


def test_an_english_page_keeps_the_engines_detail(tourney, db_url):
    link = spardame_event(tourney, lang="en")
    web = client(db_url)
    page = post_sheet(web, link, cells(["125", "0", "0", "0"]))
    text = "\n".join(error_items(page.text))
    assert "This score is not possible in this game." in text
    assert "is not a possible penalty" in text
    assert marked(page.text) == {"score-1-0"}


def test_a_deal_total_error_is_translated_without_english(tourney, db_url):
    link = spardame_event(tourney)
    web = client(db_url)
    page = post_sheet(web, link, cells(["100", "20", "0", "0"], ["100", "20", "0", "0"]))
    items = error_items(page.text)
    assert items and all("lang=\"en\"" not in item for item in items), items
    # the detail: the deal's scores as typed; every box of the deal is marked
    assert all("angivet: " in item for item in items), items
    assert marked(page.text) == {f"score-{deal}-{seat}" for deal in (1, 2) for seat in range(4)}


def test_score_boxes_have_a_minus_sign_where_scores_can_be_negative(tourney, db_url):
    plain = spardame_event(tourney)
    bonus = spardame_event(tourney, slug="bonus", names=["E1 Ek", "E2 Ek", "E3 Ek", "E4 Ek"],
                           rules=("--rule", "jd_bonus=-100"))
    web = client(db_url)
    assert 'inputmode="decimal"' in web.get(path_of(plain["url"])).text
    page = web.get(path_of(bonus["url"])).text
    assert 'type="text" inputmode="text"' in page and 'inputmode="decimal"' not in page


def test_live_standings_read_like_the_static_site(tourney, db_url):
    names = NAMES + ["Erik Ek", "Fia Falk", "Gun Gran", "Hans Hed"]
    tourney("player", "add", *names)
    tourney("event", "create", "kvall", "--variant", "spardame", "--rounds", "2",
            "--table-sizes", "4", "--rule", "deals=2", "--lang", "sv")
    tourney("event", "enter", "kvall", "--all")
    tourney("round", "seat", "kvall")
    link = tourney("round", "links", "kvall", "1", "--base-url", "http://testserver",
                   "--json").json["tables"][0]
    seats = tourney("round", "show", "kvall", "1", "--json").json["tables"][0]["seats"]
    web = client(db_url, auto_accept=True)
    sent = post_sheet(web, link, cells(["100", "20", "60", "60"], ["100", "20", "60", "60"]))
    assert sent.status_code == 200, sent.text
    tourney("event", "withdraw", "kvall", seats[0])
    page = web.get("/standings/kvall").text
    # points of wholes and halves as the Swedish site shows them: a half as ½
    assert "<td class=\"points\">½</td>" in page and "<td class=\"points\">1</td>" in page
    # (the tie-break columns and notes have their own decimals: 0,50 is a share there)
    points = re.sub(r'<td class="tb[^"]*">.*?</td>|<(p|ul) class="hint[^"]*" id="tiebreak-.*?</\1>',
                    "", page, flags=re.S)
    assert "0.5" not in points and "0,5" not in points
    assert "(drog sig ur efter rond 1)" in page
    progress = re.search(r'<p[^>]*id="progress"[^>]*>(.*?)</p>', page, re.S).group(1)
    assert "1 av 2" in progress and "rond 1" in progress
