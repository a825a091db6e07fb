"""What a new user met on ``tourney serve`` (issue 29): the login keeps the language
and goes back to the page asked for (only ever a page of this server), a form of a
tab whose login ended lands on the login page and back, a decision another tab took
is said by its table, a mistyped standings address suggests the event, a table's
page is never cached; on SQLite and PostgreSQL."""
from __future__ import annotations

import html
from urllib.parse import parse_qs, urlsplit

import pytest
from serve_helpers import TOKEN, client, csrf_of, match_csv, path_of, seated_event, send_csv

from tourney.reports.i18n import translations

BROWSER = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


def _log_in(web, login_path: str):
    """Log in on the login page at ``login_path``; the answer (a 303)."""
    page = web.get(login_path)
    assert page.status_code == 200
    form = {"token": TOKEN, "csrf": csrf_of(page.text)}
    nxt = html.unescape(page.text).partition('name="next" value="')[2].partition('"')[0]
    if nxt:
        form["next"] = nxt
    return web.post("/login", data=form, follow_redirects=False)


@pytest.mark.parametrize("asked", ["/org?lang=sv", "/org/club?lang=sv"])
def test_the_login_keeps_the_language_and_goes_back_to_the_page_asked_for(
        tourney, db_url, asked):
    seated_event(tourney, lang="en")
    web = client(db_url)
    away = web.get(asked, headers=BROWSER, follow_redirects=False)
    assert away.status_code == 303
    login = away.headers["location"]
    query = parse_qs(urlsplit(login).query)
    assert urlsplit(login).path == "/login" and query == {"next": [asked], "lang": ["sv"]}
    page = web.get(login)
    assert '<html lang="sv">' in page.text
    assert translations("sv").gettext("Log in") in page.text
    done = _log_in(web, login)
    assert done.status_code == 303 and done.headers["location"] == asked
    back = web.get(asked)
    assert back.status_code == 200 and '<html lang="sv">' in back.text


def _language_links(page: str) -> dict[str, str]:
    """The login page's language links: language -> address."""
    nav = page.partition('class="langs"')[2].partition("</nav>")[0]
    links = {}
    for anchor in nav.split("<a ")[1:]:
        href = html.unescape(anchor.partition('href="')[2].partition('"')[0])
        links[anchor.partition('hreflang="')[2].partition('"')[0]] = href
    return links


def test_the_login_pages_language_links_keep_the_page_asked_for(tourney, db_url):
    seated_event(tourney, lang="en")
    web = client(db_url)
    login = web.get("/org/club?lang=sv", headers=BROWSER).url
    links = _language_links(web.get(login).text)
    assert set(links) == {"en", "nb", "fi"}
    chosen = links["fi"]
    query = parse_qs(urlsplit(chosen).query)
    # the page asked for, now asked for in the language chosen
    assert urlsplit(chosen).path == "/login"
    assert query == {"next": ["/org/club?lang=fi"], "lang": ["fi"]}
    page = web.get(chosen)
    assert '<html lang="fi">' in page.text
    done = _log_in(web, chosen)
    assert done.status_code == 303 and done.headers["location"] == "/org/club?lang=fi"
    assert '<html lang="fi">' in web.get(done.headers["location"]).text


@pytest.mark.parametrize("target", ["//evil.example", "https://evil", "/\\evil",
                                    "/\\/evil.example", "http:/evil",
                                    "\t//evil.example"])
def test_the_login_goes_back_only_to_a_page_of_this_server(tourney, db_url, target):
    web = client(db_url)
    page = web.get("/login", params={"next": target})
    assert 'name="next"' not in page.text
    # nor do its language links carry it on
    assert all(href == f"/login?lang={code}"
               for code, href in _language_links(page.text).items())
    form = {"token": TOKEN, "csrf": csrf_of(page.text), "next": target}
    done = web.post("/login", data=form, follow_redirects=False)
    assert done.status_code == 303 and done.headers["location"] == "/org"


def test_a_form_of_a_tab_whose_login_ended_goes_to_the_login_and_back(tourney, db_url):
    seated_event(tourney, lang="sv")
    web = client(db_url)
    assert _log_in(web, "/login").status_code == 303
    page = web.get("/org/club")
    assert '<html lang="sv">' in page.text
    stale = csrf_of(page.text)
    # logged out in another tab
    assert web.post("/logout", data={"csrf": stale}, follow_redirects=False).status_code == 303
    answer = web.post("/org/club/close", data={"csrf": stale}, headers=BROWSER)
    assert answer.status_code == 401
    assert answer.headers["content-type"].startswith("text/html")
    assert '<html lang="sv">' in answer.text and 'action="/login"' in answer.text
    assert translations("sv").gettext("Log in as the organizer first.") in html.unescape(
        answer.text)
    form = {"token": TOKEN, "csrf": csrf_of(answer.text), "next": "/org/club"}
    assert 'name="next" value="/org/club"' in answer.text
    # its language links open the event's page again (the action's address takes no GET)
    assert '<a href="/org/club?lang=fi"' in answer.text
    done = web.post("/login", data=form, follow_redirects=False)
    assert done.headers["location"] == "/org/club"
    # nothing was done: the round is still open
    assert web.get("/org/club", headers={"Authorization": f"Bearer {TOKEN}",
                                         "Accept": "application/json"}).json()["open"]


def test_a_decision_taken_in_another_tab_is_said_by_its_table(tourney, db_url):
    links = seated_event(tourney, lang="sv")
    web = client(db_url)
    assert send_csv(web, links["2"], match_csv(tourney, "club", 1, "2")).json()["outcome"] \
        == "received"
    assert _log_in(web, "/login").status_code == 303
    page = web.get("/org/club")
    submission = web.get("/org/club", headers={"Accept": "application/json"}).json()
    [waiting] = [t["submission"] for t in submission["tables"] if t["table"] == "2"]
    form = {"csrf": csrf_of(page.text), "submission": waiting}
    assert web.post("/org/club/accept", data=form, follow_redirects=False).status_code == 303
    again = web.post("/org/club/reject", data=form)  # the second tab
    assert again.status_code == 409 and '<html lang="sv">' in again.text
    sv = translations("sv").gettext
    words = ("table %(table)s's result in round %(round)s was already decided "
             "(%(state)s): reload the page")
    assert sv(words) != words
    expected = sv(words) % {"table": "2", "round": 1, "state": sv("accepted")}
    assert expected in html.unescape(again.text)
    assert "inskickat resultat" not in again.text


def test_a_mistyped_standings_address_suggests_the_event(tourney, db_url):
    seated_event(tourney, slug="club-1")
    web = client(db_url)
    page = web.get("/standings/club1")
    assert page.status_code == 404
    assert '<a href="/standings/club-1">' in page.text
    assert 'id="did-you-mean"' not in web.get("/standings/zzzzzz").text


def test_a_table_page_and_its_answers_are_never_cached(tourney, db_url):
    links = seated_event(tourney)
    web = client(db_url)
    table = path_of(links["1"]["url"])
    page = web.get(table)
    assert page.headers["cache-control"] == "no-store"
    sent = web.post(table, data={"csrf": csrf_of(page.text),
                                 "record": match_csv(tourney, "club", 1, "1")})
    assert sent.status_code == 200 and sent.headers["cache-control"] == "no-store"
    refused = web.post(table, data={"csrf": "stale", "record": "x"})
    assert refused.status_code == 403 and refused.headers["cache-control"] == "no-store"


def _headings(page: str, section: str) -> list[str]:
    import re

    part = page.split(f'id="{section}"')[1].split("</thead>")[0]
    # a heading's words may sit in boxes with soft hyphens (grid_name): its text
    return [html.unescape(re.sub(r"<[^>]*>", "", h)).replace("\u00ad", "").strip()
            for h in re.findall(r"<th[^>]*>(.*?)</th>", part)]


def test_a_players_page_names_a_deal_total_and_match_points_apart(tourney, db_url):
    links = seated_event(tourney)
    web = client(db_url, auto_accept=True)
    for table in links:
        send_csv(web, links[table], match_csv(tourney, "club", 1, table))
    url = tourney("player", "links", "club", "--json").json[0]["url"]
    for lang in ("sv", "nb", "fi", "en"):
        page = web.get(f"{url}?lang={lang}").text
        results, standings = _headings(page, "results"), _headings(page, "standings-section")
        _ = translations(lang).gettext
        assert _("Total") in results and _("Match points") in results, (lang, results)
        assert _("Points") in standings, (lang, standings)
        # no heading of "your results" says what a heading of the standings says
        assert not set(results) & set(standings) - {_("Place")}, (lang, results, standings)
