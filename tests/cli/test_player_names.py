"""Names as people type them: NFC at every entry, look-alike warnings on `player add`
and `player import`, and lists sorted as the terminal's language sorts names."""
import unicodedata

import pytest


def nfd(text: str) -> str:
    return unicodedata.normalize("NFD", text)


def listed(tourney, lang):
    return [p["name"] for p in tourney("player", "list", "--json",
                                       env={"LC_ALL": lang}).json]


def test_cli_arguments_are_nfc_everywhere(tourney):
    tourney("player", "add", nfd("Åsa Öberg"), "Bo", "Cai", "Dag", "--club", nfd("Åkers IF"))
    assert {p["club"] for p in tourney("player", "list", "--json").json} == {"Åkers IF"}
    tourney("event", "create", "cup", "--variant", "kortrad", "--table-sizes", "2")
    tourney("event", "enter", "cup", nfd("Åsa Öberg"), "Bo", "Cai", "Dag")
    assert {p["name"] for p in tourney("player", "list", "--json").json
            if p["events"] == ["cup"]} == {"Åsa Öberg", "Bo", "Cai", "Dag"}
    tourney("rating", "history", nfd("Åsa Öberg"), "--json")
    tourney("event", "withdraw", "cup", nfd("Åsa Öberg"))
    tourney("player", "merge", "Bo", nfd("Åsa Öberg"), "--yes")


def test_add_warns_about_lookalikes_and_adds_them(tourney):
    tourney("player", "add", "Åsa Öberg", "Ødegaard")
    added = tourney("player", "add", "Asa Oberg", "Odegaard", "ÅSA  ÖBERG", "--json")
    details = added.json["details"]
    assert [p["name"] for p in details["players"]] == ["Asa Oberg", "Odegaard", "ÅSA  ÖBERG"]
    warnings = {w["name"]: (w["like"], w["differs"]) for w in details["warnings"]}
    assert warnings == {"Asa Oberg": ("Åsa Öberg", "accents"),
                        "Odegaard": ("Ødegaard", "accents"),
                        "ÅSA  ÖBERG": ("Åsa Öberg", "case")}
    assert "warning: 'Asa Oberg' looks like 'Åsa Öberg'" in added.stderr
    assert "tourney player merge 'Åsa Öberg' 'Asa Oberg'" in added.stderr
    assert set(listed(tourney, "C")) == {"Åsa Öberg", "Ødegaard", "Asa Oberg", "Odegaard",
                                         "ÅSA  ÖBERG"}
    unknown = tourney("player", "rename", "Odegard", "X", exit_code=2).stderr
    assert "did you mean 'Ødegaard'" in unknown or "did you mean 'Odegaard'" in unknown
    tourney("player", "add", "Åke Öhr")
    far = tourney("player", "rename", "ake ohr", "X", exit_code=2).stderr
    assert "did you mean 'Åke Öhr'" in far  # equal but for case and accents
    quiet = tourney("player", "add", "Bo", "--json")
    assert quiet.json["details"]["warnings"] == [] and "warning" not in quiet.stderr


def test_event_enter_add_warns_too(tourney):
    tourney("player", "add", "Åsa Öberg")
    tourney("event", "create", "cup", "--variant", "kortrad")
    entered = tourney("event", "enter", "cup", "Asa Oberg", "--add", "--json")
    assert entered.json["details"]["added"] == ["Asa Oberg"]
    assert [w["like"] for w in entered.json["details"]["warnings"]] == ["Åsa Öberg"]
    assert "warning: 'Asa Oberg' looks like 'Åsa Öberg'" in entered.stderr


def test_import_warns_about_lookalikes_in_the_file_and_registered(tourney, tmp_path):
    tourney("player", "add", "Åsa Öberg")
    path = tmp_path / "players.csv"
    path.write_text("name\nasa oberg\nBo Ek\nbo ek\nCai\n", encoding="utf-8")
    report = tourney("player", "import", str(path), "--json")
    assert report.json["details"]["added"] == ["asa oberg", "Bo Ek", "bo ek", "Cai"]
    assert [(w["name"], w["like"], w["differs"]) for w in report.json["details"]["warnings"]] == [
        ("asa oberg", "Åsa Öberg", "case and accents"), ("bo ek", "Bo Ek", "case")]
    assert "warning: 'bo ek' looks like 'Bo Ek'" in report.stderr
    again = tourney("player", "import", str(path), "--json").json["details"]  # no warning
    assert again["added"] == [] and again["warnings"] == []


NORDIC = ["Zorn", "Öst", "Ødegaard", "Æsir", "Ärlig", "Åberg", "Abel", "Ostrom"]
# NORDIC as each collation sorts it: Swedish and Finnish, Norwegian and Danish, others
IN_ORDER = {"sv": ["Abel", "Ostrom", "Zorn", "Åberg", "Ärlig", "Æsir", "Ødegaard", "Öst"],
            "nb": ["Abel", "Ostrom", "Zorn", "Ärlig", "Æsir", "Ødegaard", "Öst", "Åberg"],
            "en": ["Abel", "Åberg", "Æsir", "Ärlig", "Ødegaard", "Öst", "Ostrom", "Zorn"]}


@pytest.mark.parametrize("lang, order", [
    ("sv_SE.UTF-8", "sv"), ("fi_FI.UTF-8", "sv"), ("nb_NO.UTF-8", "nb"), ("da_DK.UTF-8", "nb"),
    ("en_GB.UTF-8", "en"), ("C.UTF-8", "en"),
])
def test_player_list_sorts_as_the_terminals_language(tourney, lang, order):
    tourney("player", "add", *NORDIC)
    assert listed(tourney, lang) == IN_ORDER[order]
    table = tourney("player", "list", env={"LC_ALL": lang}).stdout.splitlines()[1:]
    assert [line.split()[0] for line in table] == IN_ORDER[order]


@pytest.mark.parametrize("lang, order", [("sv", "sv"), ("fi", "sv"), ("nb", "nb"), ("en", "en")])
def test_player_list_lang_sorts_as_that_language_on_any_terminal(tourney, lang, order):
    """A Swedish club's organizer on an English terminal: --lang sv puts Å after Z."""
    tourney("player", "add", *NORDIC)
    assert [p["name"] for p in tourney("player", "list", "--json", "--lang", lang,
                                       env={"LC_ALL": "en_US.UTF-8"}).json] == IN_ORDER[order]


def test_seat_list_and_standings_ties_sort_in_the_events_language(tourney):
    tourney("player", "add", "Zorn", "Öst", "Åberg", "Ødegaard")
    tourney("event", "create", "sv-cup", "--variant", "kortrad", "--table-sizes", "4",
            "--lang", "sv")
    tourney("event", "create", "nb-cup", "--variant", "kortrad", "--table-sizes", "4",
            "--lang", "nb")
    for slug in ("sv-cup", "nb-cup"):
        tourney("event", "enter", slug, "--all")
        tourney("round", "seat", slug)
    # nothing played: everyone shares first place, in name order; the terminal's
    # language does not change an event's order
    sv = tourney("standings", "sv-cup", "--json", env={"LC_ALL": "en_US.UTF-8"}).json
    assert [r["player"] for r in sv] == ["Zorn", "Åberg", "Ødegaard", "Öst"]
    nb = tourney("standings", "nb-cup", "--json", env={"LC_ALL": "sv_SE.UTF-8"}).json
    assert [r["player"] for r in nb] == ["Zorn", "Ødegaard", "Öst", "Åberg"]
    shown = tourney("round", "show", "nb-cup", "1").stdout
    by_name = shown[shown.index("By name:"):].splitlines()[1:5]
    assert [line.split()[0] for line in by_name] == ["Zorn", "Ødegaard", "Öst", "Åberg"]
