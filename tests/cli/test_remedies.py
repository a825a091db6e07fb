"""Remedies (tourney.errors.Remedy) are data; the command line words each kind as
the command to type (tourney.cli.errors.COMMANDS), the organizer's pages as what
to do there (tourney/web/messages.REMEDY_SENTENCES) or not at all."""
from __future__ import annotations

import shlex

import pytest

from tourney.cli.errors import COMMANDS, command, message
from tourney.cli.errors import SETTING_WAYS as SETTING_WAY_WORDS
from tourney.errors import REMEDIES, SETTING_WAYS, Remedy, SettingWay, TourneyError
from tourney.web.messages import (
    REMEDY_SENTENCES,
    SETTING_WAY_SENTENCES,
    remedy_sentence,
    setting_way_offer,
)

SAMPLE = {"event": "cup", "round": 2, "table": "3", "player": "Bo Ek",
          "players": ("Bo Ek", "Cilla"), "series": "league", "scope": "cup",
          "variant": "spardame", "key": "title"}


def test_every_kind_has_its_command_and_nothing_else_does():
    assert set(COMMANDS) == set(REMEDIES)
    assert set(REMEDY_SENTENCES) <= set(REMEDIES)


@pytest.mark.parametrize("kind", sorted(REMEDIES))
def test_each_kind_is_a_command_a_shell_reads_back(kind):
    remedy = Remedy(kind, **{field: SAMPLE[field] for field in REMEDIES[kind]})
    words = shlex.split(command(remedy))
    assert words[0] == "tourney" and len(words) > 2
    for field in REMEDIES[kind]:  # each value one word, quoted as the shell needs
        values = SAMPLE[field] if field == "players" else (SAMPLE[field],)
        assert all(str(value) in words for value in values), (field, words)


def test_commands_as_the_cli_words_them():
    assert command(Remedy("undo-absence", event="cup", round=2, player="Bo Ek")) == \
        "tourney round absent cup 2 'Bo Ek' --undo"
    assert command(Remedy("enter-players", event="cup", players=("Bo Ek",))) == \
        "tourney event enter cup 'Bo Ek'"
    assert command(Remedy("enter-players")) == "tourney event enter"  # no event known
    assert command(Remedy("undo-forfeit", event="cup", round=1, table="2")) == \
        "tourney result forfeit cup 1 2 --undo"


def test_a_remedy_takes_only_its_kinds_data():
    with pytest.raises(ValueError):
        Remedy("no-such-kind")
    with pytest.raises(TypeError):
        Remedy("seat-round", event="cup", round=2)
    assert Remedy("seat-round", event="cup") == Remedy("seat-round", event="cup")
    assert Remedy("seat-round", event="cup") != Remedy("seat-round", event="league")
    assert Remedy("enter-players", event="cup", players=("A B",)).to_json() == {
        "kind": "enter-players", "event": "cup", "players": ["A B"]}


def test_two_ways_each_beside_its_own_words():
    err = TourneyError("unknown player 'Bo'; register it first", setting="add",
                       remedy=Remedy("add-player"),
                       setting_way=SettingWay("add-unknown", players=("Bo",)))
    assert str(err) == "unknown player 'Bo'; register it first"  # the setting's way is data
    assert message(err) == ("unknown player 'Bo'; register it first (`tourney player add`), "
                            "or have entering add it (--add)")
    two = TourneyError("unknown players 'Bo', 'Cai'", setting="add",
                       setting_way=SettingWay("add-unknown", players=("Bo", "Cai")))
    assert message(two) == "unknown players 'Bo', 'Cai', or have entering add them (--add)"


def test_every_setting_way_has_its_words_and_a_page_offers_only_its_own():
    assert set(SETTING_WAY_WORDS) == set(SETTING_WAYS)
    assert set(SETTING_WAY_SENTENCES) <= set(SETTING_WAYS)
    with pytest.raises(ValueError):
        SettingWay("seat-round")  # a remedy's kind, not a setting's
    assert SettingWay("seat-anyway", round=2) != Remedy("seat-round")
    assert SettingWay("seat-anyway", round=2).to_json() == {"kind": "seat-anyway", "round": 2}


def test_a_page_offers_seating_anyway_as_a_button_in_its_language():
    offer = setting_way_offer(SettingWay("seat-anyway", round=3), "sv", "cup")
    assert offer.action == "/org/cup/seat"
    assert offer.button == "Lotta rond 3 ändå"
    assert "rond 3" in offer.sentence and "anyway" not in offer.sentence
    moved = setting_way_offer(SettingWay("move-anyway"), "sv", "cup")
    assert moved.action is None and "även om bordsstorlekarna" in moved.sentence
    assert setting_way_offer(SettingWay("write-sheet-anyway"), "sv", "cup") is None


def test_a_page_says_a_remedy_in_its_language_or_not_at_all():
    forfeit = Remedy("undo-forfeit", event="cup", round=1, table="2")
    assert remedy_sentence(forfeit, "en") == "Take back the forfeit of table 2 first."
    assert remedy_sentence(forfeit, "fi") == "Peru ensin pöydän 2 luovutus."
    assert remedy_sentence(Remedy("upgrade-database"), "sv") is None  # not the page's to do
    assert remedy_sentence(None, "sv") is None
