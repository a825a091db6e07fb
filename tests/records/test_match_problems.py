"""A match's problems, all of them where they can be told apart, none that follows
from another (RecordChecker.check_match and match_problems, shared by `validate`
and `result import`), and what the reader says of a row: the dealer's "did you
mean", a row of another delimiter than the header, a file of two encodings."""
from __future__ import annotations

import io
import json

import pytest

from tourney.errors import RecordError, Remedy
from tourney.records.csv_format import RecordReader
from tourney.records.spreadsheets import typed_cell
from tourney.records.validation import DealCheck, MatchCheck, RecordChecker

HEADER = "event;round;table;deal;players;dealer;scores"
PLAYERS = "Anna;Bo;Cai;Dag"
SCORES = '"100;50;40;50"'


def row(deal, dealer, players=PLAYERS, table=1, scores=SCORES):
    return f'ev;1;{table};{deal};"{players}";{dealer};{scores}'


# a well-dealt match of four deals: Anna, Bo, Cai, Dag deal in turn
GOOD = [row(1, "Anna"), row(2, "Bo"), row(3, "Cai"), row(4, "Dag")]


def checked(lines, rules=None):
    """The (deal checks, match checks) of a file of score-sheet rows."""
    text = "\n".join([HEADER, *lines]) + "\n"
    reader = RecordReader(io.BytesIO(text.encode()), "m.csv", errors="yield")
    checker = RecordChecker(variant="spardame", rules=rules or {"deals": "4"})
    items = list(checker.check_stream(reader))
    return ([i for i in items if isinstance(i, DealCheck)],
            [i for i in items if isinstance(i, MatchCheck)])


def listed(match: MatchCheck) -> list[tuple[str, int]]:
    return [(err.rule, err.line) for err in match.problems]


def test_the_good_match_is_valid():
    _, [match] = checked(GOOD)
    assert match.valid and match.errors == [] and match.problems == []


def test_a_duplicate_deal_and_a_missing_deal_are_both_said():
    lines = [GOOD[0], GOOD[1], row(2, "Cai", scores='"0;100;40;100"'), GOOD[3]]
    _, [match] = checked(lines)
    assert listed(match) == [("duplicate-deal", 4), ("deal-numbering", 5)]
    assert match.error is match.errors[0]


def test_every_deal_number_given_twice_is_said():
    lines = [GOOD[0], GOOD[0], GOOD[1], GOOD[1], GOOD[2], GOOD[3]]
    _, [match] = checked(lines)
    assert listed(match) == [("duplicate-row", 3), ("duplicate-row", 5)]


def test_a_row_refused_for_its_dealer_keeps_its_deal_number_for_the_numbering():
    # deal 2's dealer misspelt (the row is read, its deal refused) and deal 4 missing
    lines = [GOOD[0], row(2, "bo"), GOOD[2], GOOD[2]]
    deals, [match] = checked(lines)
    assert deals[1].record.deal == 2 and deals[1].error.rule == "dealer"
    assert "dealer 'bo' is not one of the players (did you mean Bo?)" in str(deals[1].error)
    assert match.errors[0].rule == "invalid-deals"
    assert listed(match) == [("match-incomplete", 4), ("duplicate-row", 5)]


def test_a_row_refused_for_its_players_is_not_said_to_change_them():
    six = "Anna;Bo;Cai;Dag;Eva;Fia"  # spardame is played by 3 to 5
    lines = [GOOD[0], row(2, "Bo", players=six, scores='"40;40;40;40;40;40"'), GOOD[2],
             GOOD[3]]
    deals, [match] = checked(lines)
    assert deals[1].error.rule == "player-count"
    assert listed(match) == []  # "the players change" would be the same mistake again


def test_a_row_refused_by_the_rules_still_counts_for_a_fixed_match_length():
    lines = GOOD + [row(5, "Anna")]
    lines[1] = row(2, "Bo", scores='"1;2;3;4"')  # not a possible spardame score sheet
    deals, [match] = checked(lines)
    assert deals[1].error is not None
    assert listed(match) == [("match-too-long", 6)]


def test_rows_of_a_closed_match_are_refused_and_nothing_more():
    _, matches = checked(GOOD + [row(1, "Anna", table=2)] + GOOD[2:])
    again = matches[-1]
    assert {d.error.rule for d in again.deals if d.error} <= {"match-split"}
    assert again.problems == []  # its numbering (3, 4) is no second mistake


def test_the_dealer_gets_a_did_you_mean_for_case_and_accents():
    for given, meant in (("anna", "Anna"), ("Björn Ängstrom", "Björn Ängström")):
        players = PLAYERS.replace("Anna", meant)
        deals, _ = checked([row(1, given, players=players)], {"deals": "1"})
        assert deals[0].error.rule == "dealer"
        assert deals[0].error.message == (f"dealer {given!r} is not one of the players "
                                          f"(did you mean {meant}?)")


def test_a_ragged_row_counts_its_fields_in_words():
    deals, _ = checked(["ev;1;1;1"])
    assert deals[0].error.message.startswith("4 fields where the header has 7")
    deals, _ = checked(["ev"])
    assert deals[0].error.message.startswith("1 field where the header has 7")


def test_rows_of_another_delimiter_than_the_header_are_said_so():
    # a comma score sheet saved again by a spreadsheet that separates by ';'
    text = ("event,round,table,deal,players,dealer,scores\n"
            "ev;1;1;1;Anna;Anna;1\nev;1;1;2;Anna;Anna;1\n"
            'ev,1,1,3,"Anna;Bo",Anna,1;0,x\n')
    reader = RecordReader(io.BytesIO(text.encode()), "m.csv", errors="yield")
    first, second, third = [e for e in reader if isinstance(e, RecordError)]
    assert "the header is separated by commas but this row by semicolons" in first.message
    assert first.remedy == Remedy("score-sheet")  # the CLI: `tourney round sheet ... --out`
    assert "this row too is separated by another delimiter" in second.message
    assert "(see line 2)" in second.message and second.remedy is None
    # a row of the header's delimiter with ';' in its cells is no such row
    assert "separated by" not in third.message
    # a whole line in one quoted cell, the scores typed beside it: not CSV at all
    text = ('event,round,table,deal,players,dealer,scores\n'
            '"ev,1,1,1,""Anna;Bo"",Anna,";1;0\n')
    with pytest.raises(RecordError) as err:
        list(RecordReader(io.BytesIO(text.encode()), "m.csv", errors="yield"))
    assert err.value.rule == "csv" and err.value.line == 2
    assert "but this row by semicolons" in err.value.message
    assert "XLSX" in err.value.message


def test_a_file_of_two_encodings_says_where_they_change():
    head = f"{HEADER}\n".encode()
    latin = row(1, "Åsa", players="Åsa;Bo;Cai;Dag").encode("cp1252") + b"\n"
    ascii_row = (GOOD[1] + "\n").encode()
    utf8 = row(3, "Cai", players="Anna;Bo;Cai;Dög").encode() + b"\n"
    reader = RecordReader(io.BytesIO(head + latin + ascii_row + utf8), "m.csv",
                          errors="yield")
    with pytest.raises(RecordError) as err:
        list(reader)
    assert (err.value.rule, err.value.line, err.value.column) == ("encoding", 4, "players")
    assert "this line is UTF-8" in err.value.message
    assert "changing between line 2 and this one" in err.value.message
    # the other way round: UTF-8 first, then a Windows-1252 line
    reader = RecordReader(io.BytesIO(head + utf8 + ascii_row + latin), "m.csv",
                          errors="yield")
    with pytest.raises(RecordError) as err:
        list(reader)
    assert err.value.line == 4 and "(line 2 is)" in err.value.message
    # a file that is Windows-1252 throughout reads, with its notice
    reader = RecordReader(io.BytesIO(head + latin), "m.csv", errors="yield")
    assert [r.players[0] for r in reader] == ["Åsa"]


def test_number_cells_are_numbers_with_spaces_around_them():
    assert typed_cell("round", " 2 ") == 2 and typed_cell("deal", "3") == 3
    assert typed_cell("table", "01") == "01" and typed_cell("table", "A") == "A"
    assert typed_cell("round", "²") == "²"  # a digit to str.isdigit, not a number
    assert typed_cell("players", " 2") == " 2"


def test_validate_lists_every_error_of_a_match_as_the_import_words_them(run_cli, tmp_path):
    path = tmp_path / "m.csv"
    lines = [GOOD[0], GOOD[1], row(2, "Cai", scores='"0;100;40;100"'), GOOD[3]]
    path.write_text("\n".join([HEADER, *lines]) + "\n", encoding="utf-8")
    run = run_cli(None, "validate", str(path), "--variant", "spardame", "--rule", "deals=4",
                  exit_code=1)
    assert run.stdout.splitlines()[:2] == [
        f"{path}, line 4, deal: deal 2 of this match appears twice with different "
        "content (also on line 3)",
        f"{path}, line 5, deal: deal 4 where deal 3 was due: deals are numbered 1, 2, "
        "3... without gaps"]
    run = run_cli(None, "validate", str(path), "--variant", "spardame", "--rule", "deals=4",
                  "--json", exit_code=1)
    [match] = [m for m in map(json.loads, run.stdout.splitlines()) if m["kind"] == "match"]
    assert match["rule"] == "duplicate-deal"
    assert [(e["rule"], e["line"], e["column"]) for e in match["errors"]] == [
        ("duplicate-deal", 4, "deal"), ("deal-numbering", 5, "deal")]
