"""A sign-up address typed from a poster with a slip (/signup/club1) suggests the
event's sign-up page, as a mistyped standings address does, in the phone's
language."""
from __future__ import annotations

from conftest import cli_on_url
from serve_helpers import client, seated_event


def test_a_mistyped_sign_up_address_suggests_the_event(tmp_path):
    url = str(tmp_path / "tourney.db")
    run = cli_on_url(url)
    seated_event(run, lang="nb", tables=1)
    run("event", "set", "club", "--signup", "open")
    with client(url) as web:
        page = web.get("/signup/club1", headers={"Accept-Language": "nb"})
        standings = web.get("/standings/club1")
    assert page.status_code == 404 and '<html lang="nb"' in page.text
    assert 'id="did-you-mean"' in page.text and '<a href="/signup/club">' in page.text
    assert '<a href="/standings/club">' in standings.text  # as before
