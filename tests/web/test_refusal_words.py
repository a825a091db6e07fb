"""The server's refusals in the requester's language: a page of the site for a
browser (what went wrong, what to do, a link back; status and Retry-After kept),
``{"code", "message"}`` for an API client, on SQLite and PostgreSQL."""
from __future__ import annotations

import html

import pytest
from serve_helpers import TOKEN, client, csrf_of, match_csv, path_of, seated_event, send_csv

from tourney.reports.i18n import translations
from tourney.web.messages import REFUSALS, refusal_text

BEARER = {"Authorization": f"Bearer {TOKEN}", "Accept": "application/json"}
BROWSER = "text/html,application/xhtml+xml,*/*;q=0.8"


def said(code: str, lang: str, **params) -> tuple[str, str | None]:
    """A refusal's words in ``lang``, checked to be translated there."""
    text, remedy = refusal_text(code, lang, params)
    if lang != "en":
        english, english_remedy = refusal_text(code, "en", params)
        assert text != english and remedy != english_remedy or remedy is None, code
    return text, remedy


def assert_page(answer, code: str, lang: str, back: str | None, **params) -> None:
    """``answer`` is the refusal's page in ``lang``: the site's layout, its words
    and remedy, a link back."""
    assert answer.status_code == REFUSALS[code].status
    assert answer.headers["content-type"].startswith("text/html")
    page = html.unescape(answer.text)
    assert f'<html lang="{lang}">' in answer.text and 'class="langs"' in answer.text
    text, remedy = said(code, lang, **params)
    assert text in page and (remedy is None or remedy in page)
    if back is not None:
        assert f'<a href="{back}">{translations(lang).gettext("Back")}</a>' in page


def test_a_browser_is_refused_with_a_page_in_its_language(tourney, db_url):
    links = seated_event(tourney, lang="en")
    table = path_of(links["1"]["url"])
    web = client(db_url)
    form = {"Content-Type": "application/x-www-form-urlencoded", "Accept": BROWSER}
    page = web.get(table)
    csrf = csrf_of(page.text)
    # not UTF-8 (Finnish asked by the browser)
    answer = web.post(table, content=b"csrf=" + csrf.encode() + b"&record=\xff\xfe",
                      headers={**form, "Accept-Language": "fi-FI,fi;q=0.9"})
    assert_page(answer, "form-not-utf8", "fi", table)
    # too many fields (Swedish)
    fields = "&".join(f"f{i}=1" for i in range(5000)) + f"&csrf={csrf}"
    answer = web.post(table, content=fields, headers={**form, "Accept-Language": "sv"})
    assert_page(answer, "too-many-fields", "sv", table, limit=4000)
    assert "4\u00a0000" in answer.text or "4000" in answer.text
    # an organizer's form sent after the login was lost (a restart): the login page,
    # in the language of the page it came from (the event's, before the browser's),
    # going back there
    answer = web.post("/org/club/close", data={"csrf": csrf},
                      headers={"Accept": BROWSER, "Accept-Language": "nb"})
    assert answer.status_code == 401 and '<html lang="en">' in answer.text
    assert said("log-in-first", "en")[0] in answer.text
    assert 'name="next" value="/org/club"' in answer.text and 'action="/login"' in answer.text
    # an expired form (Norwegian, asked as "no"): back to the event's page for an action
    login = web.get("/login")
    web.post("/login", data={"token": TOKEN, "csrf": csrf_of(login.text)})
    answer = web.post("/org/club/close", data={"csrf": "stale"},
                      headers={"Accept": BROWSER, "Accept-Language": "no"})
    assert_page(answer, "form-expired", "nb", "/org/club")
    # too large, told by its length
    answer = web.post(table, content=b"x" * (3 << 20),
                      headers={**form, "Accept-Language": "sv"})
    assert_page(answer, "too-large", "sv", table)
    # the language of the page comes from the query as on every page
    answer = web.post(f"{table}?lang=fi", data={"csrf": "stale"}, headers={"Accept": BROWSER})
    assert_page(answer, "form-expired", "fi", table)
    # English by default (a new phone: no language kept in a cookie)
    answer = client(db_url).post(table, data={"csrf": "stale"}, headers={"Accept": BROWSER})
    assert_page(answer, "form-expired", "en", table)
    assert "go back, reload the page and send it again" in answer.text.lower()


def test_too_many_attempts_is_a_page_with_retry_after(tourney, db_url):
    seated_event(tourney)
    web = client(db_url, link_failures=2, failure_delay=0)
    headers = {"Accept": BROWSER, "Accept-Language": "sv-SE,sv;q=0.9,en;q=0.5"}
    for _ in range(2):
        assert web.get("/t/not-a-real-token", headers=headers).status_code == 404
    answer = web.get("/t/not-a-real-token", headers=headers)
    assert_page(answer, "too-many-attempts", "sv", None)
    assert "Tillbaka" not in answer.text  # going back would only repeat the guess
    assert int(answer.headers["retry-after"]) > 0
    assert "försök" in answer.text.lower()  # Swedish, not the English
    # an API client is told the same in JSON
    api = web.get("/t/not-a-real-token", headers={"Accept": "application/json",
                                                     "Accept-Language": "fi"})
    assert api.status_code == 429 and int(api.headers["retry-after"]) > 0
    text, remedy = said("too-many-attempts", "fi")
    assert api.json() == {"code": "too-many-attempts", "message": f"{text} {remedy}",
                          "error": f"{text} {remedy}"}


def test_a_refusal_page_escapes_what_the_request_named(tourney, db_url):
    seated_event(tourney)
    web = client(db_url)
    hostile = "/t/%22%3E%3Cimg%20src=x%20onerror=alert(1)%3E"
    answer = web.post(hostile, data={"csrf": "stale"}, headers={"Accept": BROWSER})
    assert answer.status_code == 403 and "<img" not in answer.text
    assert "&#34;&gt;&lt;img src=x" in answer.text  # the link back, escaped
    # a path that would leave the server is never the link back
    assert 'href="//' not in answer.text


@pytest.mark.parametrize("lang", ["en", "sv", "nb", "fi"])
def test_the_json_api_says_its_refusals_in_the_language_asked(tourney, db_url, lang):
    links = seated_event(tourney, lang="sv")
    web = client(db_url, auto_accept=True)
    asked = {"Accept-Language": lang} if lang != "en" else {}  # English by default
    api = {"Accept": "application/json", **asked}

    def message(code):
        text, remedy = said(code, lang)
        return f"{text} {remedy}" if remedy else text

    answer = web.get("/org", headers=api)
    assert answer.status_code == 401
    assert answer.json() == {"code": "log-in-first", "message": message("log-in-first"),
                             "error": message("log-in-first")}
    answer = web.get("/org", headers={**api, "Authorization": "Bearer wrong"})
    assert answer.status_code == 401 and answer.json()["code"] == "wrong-token"
    assert answer.json()["message"] == message("wrong-token")
    answer = web.get("/org/nope", headers={**BEARER, **asked})
    assert answer.status_code == 404 and answer.json()["code"] == "unknown-event"
    assert answer.json()["message"] == message("unknown-event")
    answer = web.post(path_of(links["1"]["url"]), content=b"round\xff",
                      headers={"Content-Type": "text/csv", **asked})
    assert answer.status_code == 422 and answer.json()["errors"][0]["rule"] == "encoding"
    assert answer.json()["errors"][0]["message"] == translations(lang).gettext(
        "not UTF-8 text (byte %(byte)s)") % {"byte": 6}
    answer = web.get("/api/events/nope/standings", headers=asked)
    assert answer.status_code == 404 and answer.json()["code"] == "unknown-event"
    assert answer.json()["message"] == message("unknown-event")
    answer = web.post(path_of(links["1"]["url"]), content=b"{}",
                      headers={"Content-Type": "application/json", **asked})
    assert answer.status_code == 415 and answer.json()["outcome"] == "unsupported-type"
    assert answer.json()["code"] == "unsupported-type"
    assert answer.json()["message"] == message("unsupported-type")
    answer = web.post("/t/no-such-link", content="x", headers={"Content-Type": "text/csv",
                                                               **asked})
    assert answer.status_code == 404 and answer.json()["outcome"] == "unknown-link"
    assert answer.json()["message"] == message("unknown-link")
    answer = web.post(path_of(links["1"]["url"]), content=b"x" * (3 << 20),
                      headers={"Content-Type": "text/csv", **asked})
    assert answer.status_code == 413 and answer.json()["code"] == "too-large"
    assert answer.json()["message"] == message("too-large")


@pytest.mark.parametrize("lang", ["en", "fi"])
def test_a_phones_json_verdict_is_in_the_language_asked(tourney, db_url, lang):
    from tourney.app.tables import CONFLICT_MESSAGE, KEPT_INVALID_MESSAGE

    links = seated_event(tourney, lang="sv")
    web = client(db_url, auto_accept=True)
    asked = {"Accept-Language": lang}
    _ = translations(lang).gettext
    send = lambda body: web.post(path_of(links["1"]["url"]), content=body,  # noqa: E731
                                 headers={"Content-Type": "text/csv", **asked})
    assert send(match_csv(tourney, "club", 1, "1", loser_seat=1)).json()["outcome"] == "stored"
    clash = send(match_csv(tourney, "club", 1, "1", loser_seat=2)).json()
    assert clash["outcome"] == "conflict" and clash["message"] == _(CONFLICT_MESSAGE)
    bad = match_csv(tourney, "club", 1, "1", loser_seat=1).replace("0;1;0;0", "0;2;0;0", 1)
    kept = send(bad).json()
    assert kept["outcome"] == "invalid" and kept["message"] == _(KEPT_INVALID_MESSAGE)
    assert kept["errors"] and all(e["rule"] and e["message"] for e in kept["errors"])
    if lang != "en":
        assert clash["message"] != CONFLICT_MESSAGE and kept["message"] != KEPT_INVALID_MESSAGE
        # each error's message is the page's sentence for it, not the engine's English
        assert all(e["message"] != e["error"] for e in kept["errors"]), kept["errors"]


def test_an_organizers_refused_action_is_said_in_the_language_asked(tourney, db_url):
    links = seated_event(tourney, lang="en")
    web = client(db_url, auto_accept=True)
    send_csv(web, links["1"], match_csv(tourney, "club", 1, "1", loser_seat=1))
    send_csv(web, links["1"], match_csv(tourney, "club", 1, "1", loser_seat=2))
    [conflict] = web.get("/org/club", headers=BEARER).json()["tables"][0]["conflicts"]
    form = {"submission": str(conflict["submission"])}
    assert web.post("/org/club/dismiss", data=form, headers=BEARER).status_code == 200
    again = web.post("/org/club/dismiss", data=form, headers={**BEARER, "Accept-Language": "sv"})
    assert again.status_code == 409 and again.json()["code"] == "decision-refused"
    swedish = again.json()["message"]
    english = web.post("/org/club/dismiss", data=form, headers=BEARER).json()["message"]
    # said by its table and round, not by the submission's id
    assert english == "table 1's result in round 1 was already decided (dismissed): reload the page"
    assert swedish != english
    assert again.json()["error"] == swedish


def test_a_refused_sign_up_is_said_in_json_in_the_language_asked(tourney, db_url):
    seated_event(tourney, lang="sv")
    tourney("event", "set", "club", "--signup", "open")
    web = client(db_url)
    csrf = csrf_of(web.get("/signup/club").text)
    api = {"Accept": "application/json", "Accept-Language": "fi"}
    entered = web.post("/signup/club", data={"csrf": csrf, "name": "Anna", "email": "a@x.se"},
                       headers=api)
    fi = translations("fi").gettext("A player of that name is entered already.")
    assert fi != "A player of that name is entered already."
    assert entered.status_code == 409 and entered.json() == {
        "code": "entered", "error": "entered", "field": None, "message": fi}
    bad = web.post("/signup/club", data={"csrf": csrf, "name": "Pia", "email": "nope"},
                   headers={"Accept": "application/json"})
    assert bad.status_code == 422 and bad.json()["code"] == "field"
    assert bad.json()["field"] == "email" and bad.json()["message"].startswith(
        "Give an e-mail address")
