"""RecordChecker.check_stream as the one match grouper (validate and result import):
every row belongs to exactly one match, whose MatchCheck follows its rows."""
import io

from click.testing import CliRunner

from tourney.cli.main import cli
from tourney.records.csv_format import RecordReader
from tourney.records.parallel import NO_MATCH, collides
from tourney.records.validation import DealCheck, MatchCheck, RecordChecker


def simulated(tables=2, deals=3) -> list[str]:
    result = CliRunner().invoke(cli, ["simulate", "spardame", "--players", "4", "--deals",
                                      str(deals), "--tables", str(tables), "--seed", "5"])
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


def groups(lines: list[str]) -> list[MatchCheck]:
    """The matches of the file, checking that each DealCheck comes before its match."""
    reader = RecordReader(io.BytesIO(("\n".join(lines) + "\n").encode()), "f.csv",
                          errors="yield")
    checker = RecordChecker(variant="spardame", keep_deals=True)
    matches, open_rows = [], []
    for item in checker.check_stream(reader):
        if isinstance(item, DealCheck):
            open_rows.append(item)
        else:
            assert item.deals == open_rows  # every row of the match, in file order
            matches.append(item)
            open_rows = []
    assert not open_rows  # no row outside a match
    return matches


def test_a_good_file_is_one_match_per_table():
    matches = groups(simulated())
    assert [(m.round, m.table, m.valid, len(m.deals)) for m in matches] == [
        (1, "1", True, 3), (1, "2", True, 3)]


def test_an_unreadable_row_joins_the_match_its_cells_name():
    lines = simulated()
    cells = lines[4].split(",")  # deal 1 of table 2
    cells[7] = cells[7].replace(cells[7].split()[0], "XX", 1)  # not a card
    lines[4] = ",".join(cells)
    first, second = groups(lines)
    assert first.valid and len(first.deals) == 3
    assert (second.table, second.error.rule, len(second.deals)) == ("2", "invalid-deals", 3)
    assert second.deals[0].record is None and second.deals[0].error.rule == "card"


def test_a_ragged_row_is_counted_against_the_match_before_it():
    lines = simulated()
    lines[4] = lines[4].rsplit(",", 1)[0]  # table 2's first row, ragged
    first, second = groups(lines)
    assert first.error.rule == "invalid-deals" and len(first.deals) == 4
    assert first.error.line == 5
    assert second.error.rule == "deal-numbering"  # its deal 1 is missing


def test_unreadable_first_rows_form_a_match_of_no_key():
    lines = simulated()
    lines[1] = lines[1].rsplit(",", 1)[0]
    matches = groups(lines)
    assert matches[0].key == NO_MATCH and matches[0].error.rule == "invalid-deals"
    assert [m.table for m in matches[1:]] == ["1", "2"]
    assert collides([["a"], [NO_MATCH, "b"]]) and not collides([[NO_MATCH, "a"], ["b"]])


def test_rows_of_a_closed_match_are_a_refused_match_of_their_own():
    lines = simulated()
    matches = groups(lines + lines[1:3])
    assert [m.valid for m in matches[:2]] == [True, True]
    again = matches[2]
    assert again.table == "1" and len(again.deals) == 2
    assert {d.error.rule for d in again.deals} == {"match-split"}
    assert "began at line 2" in again.deals[0].error.message


def test_a_deal_twice_is_named_as_such():
    lines = simulated()
    same = groups(lines[:3] + [lines[2]] + lines[3:])[0]
    assert (same.error.rule, same.error.line, same.error.column) == ("duplicate-row", 4, "deal")
    cells = lines[3].split(",")
    cells[4] = "2"  # deal 3 under deal 2's number
    other = groups(lines[:3] + [",".join(cells)] + lines[4:])[0]
    assert other.error.rule == "duplicate-deal" and "also on line 3" in other.error.message


def test_resolve_errors_stay_in_their_match():
    lines = simulated()
    checker = RecordChecker(variant="spardame", keep_deals=True)

    def resolve(record):
        if record.line == 3:
            from tourney.errors import RecordError
            raise RecordError("no such event", rule="unknown-event", column="event")

    reader = RecordReader(io.BytesIO(("\n".join(lines) + "\n").encode()), "f.csv",
                          errors="yield")
    matches = [m for m in checker.check_stream(reader, resolve=resolve)
               if isinstance(m, MatchCheck)]
    assert len(matches) == 2 and matches[0].error.rule == "invalid-deals"
    assert [d.error.rule for d in matches[0].deals if d.error] == ["unknown-event"]


def test_a_named_stream_names_its_file_in_every_error(tmp_path):
    """A reader given a name (open_records names it after its path) has that name
    on every error check_stream yields, a row's and a match's: a library user need
    not fill it in."""
    from tourney.records.csv_format import OpenRecords, open_records

    lines = simulated(tables=1, deals=2)
    header, first, second = lines[0], lines[1].split(","), lines[2]
    play = header.split(",").index("play")
    cards = first[play].split()
    first[play] = " ".join([cards[1], cards[0], *cards[2:]])  # played out of turn
    bad = tmp_path / "named.csv"
    bad.write_text("\n".join([header, ",".join(first), second]) + "\n", encoding="utf-8")
    with open_records(str(bad), errors="yield") as opened:
        assert isinstance(opened, OpenRecords) and opened.reader.filename == str(bad)
        source, reader = opened  # still the pair it was
        assert source is opened.source
        items = list(RecordChecker(variant="spardame").check_stream(reader))
    errors = [e for item in items
              for e in (item.errors if isinstance(item, MatchCheck) else [item.error])
              if e is not None]
    assert errors and {e.file for e in errors} == {str(bad)}
    assert str(errors[0]).startswith(f"{bad}, line 2")
    # a stream of no name keeps the file unknown
    unnamed = RecordReader(io.BytesIO(bad.read_bytes()), errors="yield")
    assert {e.file for item in RecordChecker(variant="spardame").check_stream(unnamed)
            if isinstance(item, MatchCheck) for e in item.errors} == {None}
