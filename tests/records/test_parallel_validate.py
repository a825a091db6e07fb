"""`tourney validate --jobs`: a file checked in parts, a process each, prints what
one process prints, in the same order (tourney.records.parallel)."""
import json
import os
import time

import pytest
from click.testing import CliRunner

from tourney.cli.main import cli
from tourney.records import parallel
from tourney.records.parallel import collides, plan_parts


def run(*args):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture(scope="module")
def season(tmp_path_factory):
    """200 spardame deals (50 matches of 4) with faults of every kind here and there."""
    result = run("simulate", "spardame", "--players", "4", "--deals", "4", "--tables", "5",
                 "--rounds", "10", "--seed", "3")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines(keepends=True)
    head, body = lines[0], lines[1:]
    for index in range(7, len(body), 23):
        cells = body[index].rstrip("\n").split(",")
        kind = (index // 23) % 5
        if kind == 0:  # two cards of the play swapped
            play = cells[10].split()
            play[5], play[9] = play[9], play[5]
            cells[10] = " ".join(play)
        elif kind == 1:
            cells[11] = "1;2;3;4"  # wrong claimed scores
        elif kind == 2:
            cells = cells[:-1]  # a ragged row
        elif kind == 3:
            cells[4] = "9"  # deal numbering
        else:  # an unfilled score-sheet row
            cells[7] = cells[9] = cells[10] = cells[11] = ""
        body[index] = ",".join(cells) + "\n"
    body.insert(100, "\n")  # a blank line: the line numbers after it move on by one
    path = tmp_path_factory.mktemp("parallel") / "season.csv"
    path.write_text(head + "".join(body), encoding="utf-8")
    return path


@pytest.fixture
def small_parts(monkeypatch):
    monkeypatch.setattr(parallel, "MIN_PART_BYTES", 1000)


def outputs(path, *args):
    text = run("validate", str(path), *args)
    as_json = run("validate", str(path), "--json", *args)
    return text.exit_code, text.output, as_json.stdout


def test_parts_start_where_a_match_starts_and_count_lines(season, small_parts):
    parts = plan_parts(str(season), 3)
    # parts enough for the processes to take the next one as each ends
    assert parts is not None and len(parts) == 3 * parallel.PARTS_PER_JOB
    data = season.read_bytes()
    assert parts[0].start == data.index(b"\n") + 1 and parts[-1].end == len(data)
    for before, after in zip(parts, parts[1:]):
        assert before.end == after.start
        assert after.line_offset == data[:after.start].count(b"\n") - 1
        last = data[:after.start].splitlines()[-1].split(b",")
        first = data[after.start:].splitlines()[0].split(b",")
        assert (last[2], last[3]) != (first[2], first[3])  # round, table


def test_jobs_print_what_one_process_prints(season, small_parts):
    code, text, as_json = outputs(season, "--jobs", "1")
    assert code == 1
    assert "invalid deals" in text and "ragged row" in text
    assert [json.loads(line)["kind"] for line in as_json.splitlines()].count("skipped") > 0
    for jobs in ("2", "3"):
        assert outputs(season, "--jobs", jobs) == (code, text, as_json)
    assert outputs(season) == (code, text, as_json)  # the default: one per core


def test_a_match_whose_rows_are_apart_across_parts_is_checked_in_one_process(
        season, small_parts, tmp_path):
    lines = season.read_text().splitlines(keepends=True)
    lines.insert(len(lines) - 5, lines[2])  # a row of the first match, near the end
    path = tmp_path / "split.csv"
    path.write_text("".join(lines))
    single = outputs(path, "--jobs", "1")
    assert "must stand together" in single[1]
    assert outputs(path, "--jobs", "3") == single


def test_a_file_error_in_a_later_part_stops_where_one_process_stops(
        season, small_parts, tmp_path):
    lines = season.read_text().splitlines(keepends=True)
    lines[150] = lines[150][:20] + "\x00" + lines[150][20:]
    path = tmp_path / "nul.csv"
    path.write_text("".join(lines))
    single = outputs(path, "--jobs", "1")
    assert "line 151, players: a NUL byte" in single[1]  # the reader names the column
    assert outputs(path, "--jobs", "3") == single


def test_files_that_are_not_cut(season, small_parts, tmp_path):
    quoted = tmp_path / "quoted.csv"
    quoted.write_text(season.read_text().replace("P1", '"P1"', 1))
    latin = tmp_path / "latin.csv"
    latin.write_bytes(season.read_bytes().replace(b"P2", b"P\xe9", 1))
    assert plan_parts(str(quoted), 2) is None  # a quoted field may hold a line break
    assert plan_parts(str(latin), 2) is None  # not UTF-8: one reading decides
    assert plan_parts(str(season), 1) is None
    assert plan_parts("-", 2) is None
    assert plan_parts(str(season), 2, encoding="latin-1") is None
    assert plan_parts(str(season), 2, encoding="utf-8") is not None


def test_a_small_file_stays_in_one_process(season):
    assert plan_parts(str(season), 8) is None  # under two parts of MIN_PART_BYTES


def test_collides():
    assert not collides([[1, 2], [3], [4, 5]])
    assert collides([[1, 2], [3, 1]])


def test_run_parts_hands_back_results_in_order_and_raises_a_part_s_error(season, small_parts):
    parts = plan_parts(str(season), 3)

    def lines(source):
        return [line for line, _cells in source.rows()]

    results = parallel.run_parts(str(season), "season.csv", parts, lines)
    assert [n for part in results for n in part] == [
        line for line, _cells in parallel.Source(open(season, "rb"), "s").rows()]

    def fails_after_the_first(source):
        if source.line_offset:
            raise ValueError(f"part at {source.line_offset}")
        return "first"

    with pytest.raises(ValueError, match="part at"):
        parallel.run_parts(str(season), "season.csv", parts, fails_after_the_first)


def test_parts_run_at_most_jobs_at_a_time_and_each_next_starts_as_one_ends(
        season, small_parts, tmp_path):
    parts = plan_parts(str(season), 2)
    assert len(parts) > 2

    def marked(source):
        # each process marks itself running while it works: the most marks seen at
        # once is how many ran at the same time
        mark = tmp_path / f"running-{os.getpid()}"
        mark.touch()
        try:
            seen = len(list(tmp_path.glob("running-*")))
            time.sleep(0.05)
            return os.getpid(), seen, [line for line, _cells in source.rows()]
        finally:
            mark.unlink()

    results = parallel.run_parts(str(season), "season.csv", parts, marked, jobs=2)
    assert len({pid for pid, _, _ in results}) == len(parts)  # a process a part
    assert max(seen for _, seen, _ in results) == 2
    assert [n for _, _, lines in results for n in lines] == [
        line for line, _cells in parallel.Source(open(season, "rb"), "s").rows()]


def test_a_part_whose_process_is_killed_sends_the_file_back_to_one_process(
        season, small_parts):
    import os
    import signal

    def killed_after_the_first(source):
        if source.line_offset:
            os.kill(os.getpid(), signal.SIGKILL)
        return "first"

    parts = plan_parts(str(season), 2)
    assert parallel.run_parts(str(season), "s", parts, killed_after_the_first) is None
