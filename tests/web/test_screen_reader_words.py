"""The words around a player's forms and links, for a screen reader: the language links
at the top of every page of `tourney serve` are each in their own language (a Finnish
screen reader read "en" as the Finnish word), and a refused sign-up field says why."""
from __future__ import annotations

import re

from conftest import cli_on_url
from serve_helpers import client, csrf_of, seated_event


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


def test_a_refused_sign_up_field_is_described_by_what_is_wrong(tmp_path):
    """A screen reader on the e-mail box says why it is refused (in the page's
    language), not only that it is invalid."""
    url = str(tmp_path / "tourney.db")
    run = cli_on_url(url)
    seated_event(run, lang="nb", tables=1)
    run("event", "set", "club", "--signup", "open")
    with client(url) as web:
        form = web.get("/signup/club")
        sent = web.post("/signup/club", data={"csrf": csrf_of(form.text), "name": "Søren Ødegård",
                                              "club": "", "email": "not-an-address"})
    box = re.search(r'<input name="email"[^>]*>', sent.text).group(0)
    assert 'aria-invalid="true"' in box
    described = re.search(r'aria-describedby="([^"]+)"', box)
    assert described, box
    said = re.search(rf'<p [^>]*id="{described.group(1)}"[^>]*>([^<]+)<', sent.text).group(1)
    assert "e-postadresse" in said, said
