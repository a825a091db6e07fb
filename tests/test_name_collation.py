"""tourney.person_names (one spelling, look-alikes) and tourney.ordering.name_key (how each
language sorts names)."""
import unicodedata

import pytest

from tourney.ordering import collation, name_key, name_order, terminal_language
from tourney.person_names import lookalike_key, lookalike_kind, normalize_name

NAMES = ["Zorn", "Öst", "Ødegaard", "Æsir", "Ärlig", "Åberg", "Abel", "Aasen", "Yngve",
         "Über", "Ostrom"]


def test_normalize_name_is_nfc_and_stripped():
    assert normalize_name(" A\u030asa O\u0308berg\n") == "\u00c5sa \u00d6berg"
    assert normalize_name(None) == ""
    assert normalize_name("Anna  Berg") == "Anna  Berg"  # inner spaces kept as typed


@pytest.mark.parametrize("a, b, kind", [
    ("Åsa Öberg", "Asa Oberg", "accents"),
    ("Åsa Öberg", "åsa öberg", "case"),
    ("Åsa Öberg", "ASA  OBERG", "case and accents"),
    ("Ødegaard", "Odegaard", "accents"),
    ("Æsir", "Aesir", "accents"),
    ("Céline", "Ce\u0301line", "case"),  # only the spelling differs: NFC makes them one
    ("Anna Berg", "Anna  Berg", "spaces"),  # not "case": a second space typed by mistake
])
def test_lookalikes(a, b, kind):
    assert lookalike_key(a) == lookalike_key(b)
    assert lookalike_kind(b, a) == kind


def test_different_names_are_not_lookalikes():
    assert lookalike_key("Åsa Öberg") != lookalike_key("Åsa Berg")
    assert lookalike_key("Anna") != lookalike_key("Anne")


@pytest.mark.parametrize("lang, order", [
    ("sv", ["Aasen", "Abel", "Ostrom", "Über", "Yngve", "Zorn", "Åberg", "Ärlig", "Æsir",
            "Ødegaard", "Öst"]),
    ("fi", ["Aasen", "Abel", "Ostrom", "Über", "Yngve", "Zorn", "Åberg", "Ärlig", "Æsir",
            "Ødegaard", "Öst"]),
    # Norwegian and Danish: Æ Ø Å, "aa" is Å
    ("nb", ["Abel", "Ostrom", "Über", "Yngve", "Zorn", "Ärlig", "Æsir", "Ødegaard", "Öst",
            "Åberg", "Aasen"]),
    ("da", ["Abel", "Ostrom", "Über", "Yngve", "Zorn", "Ärlig", "Æsir", "Ødegaard", "Öst",
            "Åberg", "Aasen"]),
    # elsewhere a letter sorts with the one it is made from
    ("en", ["Aasen", "Abel", "Åberg", "Æsir", "Ärlig", "Ødegaard", "Öst", "Ostrom", "Über",
            "Yngve", "Zorn"]),
    (None, ["Aasen", "Abel", "Åberg", "Æsir", "Ärlig", "Ødegaard", "Öst", "Ostrom", "Über",
            "Yngve", "Zorn"]),
])
def test_names_sort_as_the_language_does(lang, order):
    assert sorted(NAMES, key=name_order(lang)) == order
    assert sorted(reversed(NAMES), key=name_order(lang)) == order


def test_case_and_accents_decide_only_ties_and_the_order_is_total():
    names = ["eva", "Éva", "Evan", "Eva", "Èva"]
    ordered = sorted(names, key=name_order("sv"))
    assert ordered[-1] == "Evan"  # the letters first: an accent never beats them
    assert ordered[:2] == ["Eva", "eva"] and set(ordered[2:4]) == {"Éva", "Èva"}
    assert len({name_key(n, "sv") for n in names}) == len(names)
    decomposed = unicodedata.normalize("NFD", "Åberg")
    assert name_key(decomposed, "sv")[0] == name_key("Åberg", "sv")[0]


@pytest.mark.parametrize("code, rules", [
    ("sv", "sv"), ("sv_FI", "sv"), ("fi_FI.UTF-8", "sv"), ("nb-NO", "nb"), ("no", "nb"),
    ("nn", "nb"), ("da_DK.UTF-8", "nb"), ("en_GB.UTF-8", None), ("de", None), (None, None),
])
def test_collation_of_a_language_code(code, rules):
    assert collation(code) == rules


def test_terminal_language():
    assert terminal_language({"LANG": "sv_SE.UTF-8"}) == "sv_SE.UTF-8"
    assert terminal_language({"LC_ALL": "nb_NO.UTF-8", "LANG": "sv_SE.UTF-8"}) == "nb_NO.UTF-8"
    assert terminal_language({"LC_COLLATE": "fi_FI", "LANG": "en_US"}) == "fi_FI"
    assert terminal_language({"LANG": "C.UTF-8"}) is None
    assert terminal_language({"LC_ALL": "POSIX"}) is None
    assert terminal_language({}) is None
