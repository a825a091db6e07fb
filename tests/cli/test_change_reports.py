"""Commands that change data answer --json in one shape: action, changed, summary,
details (``round seat`` and ``round reseat`` keep their seating keys beside them)."""
from __future__ import annotations

import pytest
from conftest import play_cup_round_one

SHAPE = {"action", "changed", "summary", "details"}
NAMES = ["Ana Berg", "Bo Ek", "Cai Dahl", "Dan Falk", "Eva Gran"]


def _seated_cup(tourney, tmp_path):
    """Players, the event `cup` (spardame, 2-deal matches, tables of 4), round 1
    seated, and the record file of round 1's matches."""
    return play_cup_round_one(tourney, tmp_path, NAMES)[1]


def _players_file(tmp_path):
    path = tmp_path / "players.csv"
    path.write_text("name,club\nFia Holm,Vasa\nAna Berg,\n", encoding="utf-8")
    return path


# command -> (what to run after the setup, the action named, whether it changed)
COMMANDS = {
    "player add": (lambda t, p, f: ["player", "add", "Gus Ivar", "--club", "Vasa"],
                   "player.add", True),
    "player import": (lambda t, p, f: ["player", "import", str(_players_file(p))],
                      "player.import", True),
    "player set": (lambda t, p, f: ["player", "set", "Eva Gran", "--club", "Vasa"],
                   "player.set", True),
    "player rename": (lambda t, p, f: ["player", "rename", "Eva Gran", "Eva Grahn"],
                      "player.rename", True),
    "player merge": (lambda t, p, f: (t("player", "add", "Ana  Berg"),
                                      ["player", "merge", "Ana Berg", "Ana  Berg"])[1],
                     "player.merge", True),
    "event create": (lambda t, p, f: ["event", "create", "cup-2", "--variant", "dam-brade"],
                     "event.create", True),
    "event enter": (lambda t, p, f: ["event", "enter", "cup", "Gus Ivar", "--add"],
                    "event.enter", True),
    "event withdraw": (lambda t, p, f: ["event", "withdraw", "cup", "Bo Ek"],
                       "event.withdraw", True),
    "event set": (lambda t, p, f: ["event", "set", "cup", "--name", "The cup"],
                  "event.set", True),
    "event set unchanged": (lambda t, p, f: ["event", "set", "cup", "--rounds", "3"],
                            "event.set", False),
    "event delete": (lambda t, p, f: ["event", "delete", "cup", "--yes"],
                     "event.delete", True),
    "round reseat": (lambda t, p, f: ["round", "reseat", "cup", "1", "--seed", "99"],
                     "round.reseat", True),
    "round seat": (lambda t, p, f: (t("result", "import", str(f)),
                                    ["round", "seat", "cup"])[1], "round.seat", True),
    "result import": (lambda t, p, f: ["result", "import", str(f)], "result.import", True),
    "result import again": (lambda t, p, f: (t("result", "import", str(f)),
                                             ["result", "import", str(f)])[1],
                            "result.import", False),
    "result revert": (lambda t, p, f: (t("result", "import", str(f)),
                                       ["result", "revert", "cup", "1", "1", "1"])[1],
                      "result.revert", False),
    "rating recompute": (lambda t, p, f: (t("result", "import", str(f)),
                                          ["rating", "recompute"])[1],
                         "rating.recompute", False),  # the import rated them already
    "rating pool": (lambda t, p, f: ["rating", "pool", "spardame", "--param", "tau=0"],
                    "rating.pool", True),
    "site set": (lambda t, p, f: ["site", "set", "title", "Göteborgs Damklubb"],
                 "site.set", True),
    "site unset": (lambda t, p, f: ["site", "unset", "title"], "site.unset", False),
    "publish": (lambda t, p, f: ["publish", "--out", str(p / "site"), "--no-replays"],
                "publish", True),
    "db upgrade": (lambda t, p, f: ["db", "upgrade"], "db.upgrade", False),
    "db init": (lambda t, p, f: ["db", "init"], "db.init", False),
}


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_changing_command_answers_json_in_one_shape(name, tourney, tmp_path):
    records = _seated_cup(tourney, tmp_path)
    make_args, action, changed = COMMANDS[name]
    run = tourney(*make_args(tourney, tmp_path, records), "--json")
    answer = run.json
    assert SHAPE <= set(answer), (name, sorted(answer))
    assert (answer["action"], answer["changed"]) == (action, changed), name
    assert isinstance(answer["details"], dict)
    # the summary is the line the command printed
    assert answer["summary"] and answer["summary"] in run.stderr, name
    if name.startswith("round "):
        # issue 15: the seating stays where it always was
        assert {"round", "tables", "byes", "repeated_pairs"} <= set(answer)
    else:
        assert set(answer) == SHAPE, name


def test_details_keep_the_old_answers(tourney, tmp_path):
    records = _seated_cup(tourney, tmp_path)
    added = tourney("player", "add", "Gus Ivar", "--json").json["details"]
    assert added["players"][0]["name"] == "Gus Ivar"
    renamed = tourney("player", "rename", "Ana Berg", "Anna Berg", "--json").json
    assert renamed["details"] == {"old": "Ana Berg", "new": "Anna Berg"}
    imported = tourney("result", "import", str(records), "--json").json["details"]
    assert imported["added"] == 1 and imported["errors"] == []
    withdrawn = tourney("event", "withdraw", "cup", "Bo Ek", "--json").json["details"]
    assert withdrawn["player"] == "Bo Ek"
    upgraded = tourney("db", "upgrade", "--json").json["details"]
    assert upgraded["before"] == upgraded["after"]


def test_a_rejected_import_answers_in_the_shape_too(tourney, tmp_path):
    records = _seated_cup(tourney, tmp_path)
    text = records.read_text(encoding="utf-8").splitlines()
    text[1] = text[1].replace("cup", "cup", 1)[:-3] + "9;9"  # a broken score cell
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join(text) + "\n", encoding="utf-8")
    answer = tourney("result", "import", str(bad), "--json", exit_code=1).json
    assert set(answer) == SHAPE and answer["changed"] is False
    assert answer["details"]["error_count"] >= 1


def test_db_init_json(run_cli, tmp_path):
    db = str(tmp_path / "new.db")
    created = run_cli(db, "db", "init", "--json").json
    assert (created["action"], created["changed"]) == ("db.init", True)
    again = run_cli(db, "db", "init", "--json").json
    assert again["changed"] is False
