"""The language links at the top of every page of `tourney serve` are each in
their own language: a screen reader on a Finnish page reads "en" as English (not
the Finnish word "en"), and the name of each language is there in itself."""
from __future__ import annotations

import re

from conftest import cli_on_url
from serve_helpers import client, seated_event


def test_each_language_link_is_marked_as_its_language(tmp_path):
    url = str(tmp_path / "tourney.db")
    run = cli_on_url(url)
    seated_event(run, lang="fi", tables=1)
    own = run("player", "links", "club", "--json").json[0]["url"]
    with client(url) as web:
        page = web.get(own)
        signup_closed = web.get("/signup/club")
    assert page.status_code == 200 and '<html lang="fi"' in page.text
    for html in (page.text, signup_closed.text):
        switch = re.search(r'<nav class="langs"[^>]*>(.*?)</nav>', html, re.S).group(1)
        marked = dict(re.findall(r'<(?:a|strong)\b[^>]*\blang="(\w+)"[^>]*\btitle="([^"]+)"[^>]*>\1<',
                                 switch))
        assert marked == {"en": "English", "sv": "svenska", "nb": "norsk bokmål",
                          "fi": "suomi"}, switch
