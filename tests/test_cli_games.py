"""`tourney variants`, `validate` and `simulate` through the CLI, for every variant."""
import json

import pytest
from click.testing import CliRunner

from tourney.cli.main import cli
from tourney.engines import VARIANT_IDS, get_game
from tourney.records.csv_format import read_records_text

# A player count and rules per variant that give short matches.
SIM_ARGS = {
    "svarta-maja": ["--players", "4", "--rule", "deals=2"],
    "kortrad": ["--players", "3", "--deals", "2"],
    "sju-dolda": ["--players", "5", "--deals", "2"],
    "dam-stick": ["--players", "4", "--rule", "target=30"],
    "spardame": ["--players", "4", "--deals", "2", "--rule", "pass=cycle"],
    "dam-brade": ["--players", "2", "--rule", "games=2"],
}


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def rules_of(variant):
    args = SIM_ARGS[variant]
    return [args[i + 1] for i, a in enumerate(args) if a == "--rule"]


def simulated(tmp_path, variant, seed=1):
    result = run("simulate", variant, *SIM_ARGS[variant], "--tables", "2", "--seed", str(seed))
    assert result.exit_code == 0, result.output
    path = tmp_path / f"{variant}.csv"
    path.write_text(result.stdout)
    return path


def test_variants_lists_every_variant_with_its_options():
    result = run("variants", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert [v["id"] for v in data] == list(VARIANT_IDS)
    spardame = next(v for v in data if v["id"] == "spardame")
    assert spardame["players"] == [3, 5]
    assert {"pass", "jd_bonus", "hearts_break"} <= {o["key"] for o in spardame["options"]}
    assert "hand_size" in run("variants").stdout


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_simulated_records_validate(tmp_path, variant):
    path = simulated(tmp_path, variant)
    rule_args = [x for r in rules_of(variant) for x in ("--rule", r)]
    result = run("validate", str(path), *rule_args, "--json")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    deals = [x for x in lines if x["kind"] == "deal"]
    matches = [x for x in lines if x["kind"] == "match"]
    records = read_records_text(path.read_text())
    assert [d["line"] for d in deals] == [r.line for r in records]
    assert all(d["valid"] and d["verified"] == "moves" for d in deals)
    # deals first, then matches
    assert lines.index(matches[0]) == len(deals)
    assert len(matches) == 2 and all(m["valid"] for m in matches)
    game = get_game(variant)
    for deal, record in zip(deals, records):
        assert [game.format_score(s) for s in deal["scores"]] == record.scores
    ranked = {p for m in matches for p, _ in m["ranking"]}
    assert ranked == {p for r in records for p in r.players}


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_a_broken_move_is_named_with_line_column_and_move(tmp_path, variant):
    path = simulated(tmp_path, variant, seed=2)
    lines = path.read_text().splitlines()
    records = read_records_text(path.read_text())
    first = records[0]
    # One move more after the deal is over: illegal in every game.
    broken = list(first.play) + [first.play[-1]]
    lines[first.line - 1] = lines[first.line - 1].replace(" ".join(first.play), " ".join(broken), 1)
    path.write_text("\n".join(lines) + "\n")
    rule_args = [x for r in rules_of(variant) for x in ("--rule", r)]
    result = run("validate", str(path), *rule_args)
    assert result.exit_code == 1
    assert f"line {first.line}, play, move {len(broken)} " in result.stdout
    assert "already over" in result.stdout


def test_usage_errors_exit_2(tmp_path):
    path = simulated(tmp_path, "kortrad")
    assert run("validate", str(path), "--rule", "nonsense=1").exit_code == 2
    assert run("validate", str(path), "--variant", "chess").exit_code == 2
    assert run("validate", str(tmp_path / "missing.csv")).exit_code == 2
    bad_header = tmp_path / "h.csv"
    bad_header.write_text("round,table,deal,players,play,colour\n")
    result = run("validate", str(bad_header))
    assert result.exit_code == 2 and "colour" in result.stderr
    assert "Traceback" not in result.output


def test_bad_input_never_tracebacks(tmp_path):
    cases = {
        "empty.csv": b"",
        "binary.csv": b"round,table,deal,players,play\n1,1,1,\xff\xfe;b,S1\n",
        "ragged.csv": b"round,table,deal,players,variant,play\n1,1,1,a;b\n",
        "cards.csv": b"round,table,deal,players,variant,dealer,hands,play\n1,1,1,a;b,kortrad,a,ZZ;QS,S1\n",
        "thousand.csv": ("round,table,deal,players,variant,dealer,hands,play\n1,1,1,a;b,kortrad,a,"
                         + " ".join(["QS"] * 1000) + ";2C,S1\n").encode(),
    }
    for name, data in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        result = run("validate", str(path))
        assert result.exit_code in (1, 2), (name, result.output)
        assert "Traceback" not in result.output and result.exception is None or isinstance(result.exception, SystemExit)
        assert "line " in result.output, (name, result.output)


def test_validate_reads_stdin(tmp_path):
    path = simulated(tmp_path, "kortrad")
    result = run("validate", "-", input=path.read_bytes())
    assert result.exit_code == 0, result.output


def test_simulate_json_gives_the_csv_records_with_numbers_as_numbers(tmp_path):
    """`simulate --json` is the CSV's records, one JSON object a deal; round and deal
    are numbers there and the table a label, as in `result export --json` and
    `round sheet --json`."""
    args = ["simulate", "kortrad", *SIM_ARGS["kortrad"], "--tables", "2", "--seed", "4"]
    as_csv = read_records_text(run(*args).stdout)
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(lines) == len(as_csv) == 4
    for line, record in zip(lines, as_csv):
        assert (line["round"], line["table"], line["deal"]) == (
            record.round, record.table, record.deal)
        assert line["play"] == " ".join(record.play)
        assert line["players"] == ";".join(record.players)


def test_variants_write_options_as_rule_takes_them(run_cli):
    """true/false as `--rule KEY=VALUE` takes them and the docs write them; a
    game for exactly two players reads "2 players"."""
    out = run_cli(None, "variants").stdout
    assert "(default: False)" not in out and "(default: True)" not in out
    assert "spade_trump (default: false)" in out
    assert "dam-brade: " in out and "(2 players)" in out and "2-2 players" not in out


def test_event_show_says_every_option_in_words(tourney):
    """Every option of every variant, set or default, is stated in a sentence (a
    value that is not set reads "not set")."""

    for variant in VARIANT_IDS:
        tourney("event", "create", variant, "--variant", variant)
        lines = tourney("event", "show", variant).stdout.split("rules:\n")[1].split("entrants:")[0]
        for line in lines.strip().splitlines():
            assert "False" not in line and "True" not in line, line
            assert ": " in line or line.endswith("= not set (default)"), line


@pytest.mark.parametrize("args, said", [
    (["standigns", "cup"], "unknown command 'standigns' (did you mean standings?)"),
    (["round", "sest"], "unknown command 'sest' (did you mean seat, sheet or reseat?)"),
    (["reslut", "import"], "unknown command 'reslut' (did you mean result?)"),
    (["zzz"], "unknown command 'zzz'\n"),
])
def test_a_mistyped_command_gets_did_you_mean(run_cli, args, said):
    """As a mistyped event, player or dealer does: a usage error (exit 2)."""
    run = run_cli(None, *args, exit_code=2)
    assert said in run.stderr + "\n", run.stderr
