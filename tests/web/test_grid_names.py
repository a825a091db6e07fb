"""Player names at `tourney serve`: a result sent with decomposed letters (as a Mac
may type them) is the same players' result, and names in a score grid's narrow
columns (tourney.web.grid_names) break at their syllables."""
from __future__ import annotations

import unicodedata

from serve_helpers import client, match_csv, path_of, seated_event


def test_a_result_with_decomposed_names_is_accepted(tourney, db_url):
    links = seated_event(tourney, tables=4)
    seats = tourney("round", "show", "club", "1", "--json").json
    table = next(t for t in seats["tables"] if "Åsa" in t["seats"] or "Örjan" in t["seats"])
    body = unicodedata.normalize("NFD", match_csv(tourney, "club", 1, table["table"]))
    assert "A\u030asa" in body or "O\u0308rjan" in body
    web = client(db_url, auto_accept=True)
    answer = web.post(path_of(links[table["table"]]["url"]), content=body.encode("utf-8"),
                      headers={"Content-Type": "text/csv"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["outcome"] == "stored"


def test_long_names_may_break_at_their_syllables():
    """The grid's headers: soft hyphens where a Nordic name may be hyphenated
    (compounds kept whole), nothing else changed; short words, initials and other
    scripts as they are; each word in a box of its own, escaped."""
    from tourney.web.grid_names import SOFT_HYPHEN, grid_name, hyphenate, short_names

    def breaks(name: str) -> str:
        return hyphenate(name).replace(SOFT_HYPHEN, "|")

    assert breaks("Anna-Karin Bergström") == "Anna-Ka|rin Berg|ström"
    assert breaks("Margareta Öhrnberg") == "Mar|ga|reta Öhrn|berg"
    assert breaks("Cecilia Holmqvist") == "Ce|ci|lia Holm|qvist"
    assert breaks("Ulla-Britt Sjöström") == "Ulla-Britt Sjö|ström"
    assert breaks("Bjørnstad Lundgren Rickard") == "Bjørn|stad Lund|gren Rick|ard"
    assert breaks("Hämäläinen Virtanen") == "Hä|mä|läi|nen Vir|ta|nen"
    assert breaks("Bo Ek Åsa Astrid") == "Bo Ek Åsa Astrid"
    assert breaks("Jörgen L.") == "Jör|gen L."
    assert breaks("李小龍 Παπαδόπουλος") == "李小龍 Παπαδόπουλος"
    for name in ("Anna-Karin Bergström", "<img src=x onerror=alert(1)>", "Ødegaard"):
        assert hyphenate(name).replace(SOFT_HYPHEN, "") == name
    assert short_names(["Margareta Öhrnberg", "Bo Ekholm"]) == ["Margareta Ö.", "Bo E."]
    # in the grid each word is a box of its own (a line breaks inside one only when
    # it alone is wider than the column), and the name is escaped
    assert str(grid_name("Bo  Ekholm")).replace(SOFT_HYPHEN, "|") == \
        '<span class="word">Bo</span> <span class="word">Ek|holm</span>'
    assert str(grid_name("Anna-Karin B.")).replace(SOFT_HYPHEN, "|") == (
        '<span class="word">Anna-</span><span class="word">Ka|rin</span> '
        '<span class="word">B.</span>')
    assert str(grid_name('<b a="1">')) == \
        '<span class="word">&lt;b</span> <span class="word">a=&#34;1&#34;&gt;</span>'
