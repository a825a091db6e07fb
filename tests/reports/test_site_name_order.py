"""The site sorts names as each page's language does: Swedish and Finnish … Z Å Ä Ö,
Norwegian … Z Æ Ø Å, English with the letters they come from."""
from __future__ import annotations

import re

NAMES = ["Zorn", "Öst", "Ødegaard", "Æsir", "Ärlig", "Åberg", "Abel"]
ORDER = {
    "sv": ["Abel", "Zorn", "Åberg", "Ärlig", "Æsir", "Ødegaard", "Öst"],
    "nb": ["Abel", "Zorn", "Ärlig", "Æsir", "Ødegaard", "Öst", "Åberg"],
    "en": ["Abel", "Åberg", "Æsir", "Ärlig", "Ødegaard", "Öst", "Zorn"],
}


def names_in(html: str, section: str | None = None) -> list[str]:
    if section:
        html = html.split(section, 1)[1]
    body = html.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    return re.findall(r"<bdi>([^<]+)</bdi>", body)


def test_player_index_and_seat_list_sort_in_the_pages_language(tourney, tmp_path):
    tourney("player", "add", *NAMES)
    tourney("event", "create", "nordic", "--variant", "kortrad", "--table-sizes", "3-4",
            "--lang", "sv")
    tourney("event", "enter", "nordic", "--all")
    tourney("round", "seat", "nordic")
    site = tmp_path / "site"
    tourney("publish", "--out", str(site), "--lang", "sv", "--lang", "nb", "--lang", "en")
    for lang, prefix in (("sv", ""), ("nb", "nb/"), ("en", "en/")):
        index = (site / prefix / "players" / "index.html").read_text(encoding="utf-8")
        assert names_in(index) == ORDER[lang], lang
        (event_dir,) = (site / prefix).glob("events/*/")
        round_page = (event_dir / "round-1.html").read_text(encoding="utf-8")
        assert [n for n in names_in(round_page, 'by-name"') if n in NAMES] \
            == ORDER[lang], lang
