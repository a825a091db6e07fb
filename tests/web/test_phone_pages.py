"""A table's pages on a phone (issue 29): errors in the page's language with their
detail, the boxes at fault marked, what was stored shown and kept, the language
chosen kept from page to page."""
from __future__ import annotations

import re

from serve_helpers import client, csrf_of, path_of, seated_event


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
