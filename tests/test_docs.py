"""The user guide (docs/guide/): its examples are valid records, it builds, and nothing a
user reads points outside the repository."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from tourney.cli.main import cli
from tourney.engines import VARIANT_IDS, get_game

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "guide"
# A fenced csv block, optionally preceded by `<!-- validate: ARGS -->` giving the
# validate options it needs (e.g. a house rule).
CSV_BLOCK = re.compile(r"(?:<!-- validate: (?P<args>[^>]*) -->\n)?```csv\n(?P<body>.*?)```",
                       re.S)


def _csv_blocks():
    for page in sorted(GUIDE.glob("*.md")):
        for n, found in enumerate(CSV_BLOCK.finditer(page.read_text(encoding="utf-8")), 1):
            yield pytest.param(found["body"], shlex.split(found["args"] or ""),
                               id=f"{page.stem}-{n}")


@pytest.mark.parametrize("body,args", list(_csv_blocks()))
def test_every_record_example_in_the_guide_is_valid(body, args):
    result = CliRunner().invoke(cli, ["validate", "-", *args], input=body)
    assert result.exit_code == 0, result.output
    assert "0 invalid deals, 0 invalid matches" in result.output


def test_the_guide_has_a_record_example_of_every_game():
    variants = {row.split(",")[1] for body, _ in (p.values for p in _csv_blocks())
                for row in body.splitlines()[1:]}
    assert variants == set(VARIANT_IDS)


def test_the_guide_names_every_option_of_every_game():
    rules = (GUIDE / "rules.md").read_text(encoding="utf-8")
    for variant in VARIANT_IDS:
        assert f"`{variant}`" in rules
        for spec in get_game(variant).option_specs:
            assert f"`{spec.key}`" in rules, (variant, spec.key)


# A fenced python block: the pages' examples of the library (docs/guide/library.md).
PYTHON_BLOCK = re.compile(r"```python\n(?P<body>.*?)```", re.S)


def _python_pages():
    return [page for page in [ROOT / "README.md", *sorted(GUIDE.glob("*.md"))]
            if PYTHON_BLOCK.search(page.read_text(encoding="utf-8"))]


@pytest.mark.parametrize("page", _python_pages(), ids=lambda page: page.name)
def test_the_pages_python_examples_run_as_written(page, tmp_path):
    """A page's python blocks run one after another as one script, in a fresh folder
    holding the repository's examples/, as a reader who pastes them would run them:
    an example that stopped working fails naming the page."""
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    blocks = [found["body"] for found in
              PYTHON_BLOCK.finditer(page.read_text(encoding="utf-8"))]
    script = tmp_path / "example.py"
    script.write_text("\n".join(blocks), encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "TOURNEY_DB"}
    done = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, f"{page.name}:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}"


def test_the_library_page_shows_every_layer_a_user_calls():
    """docs/guide/library.md: the engines, records, ratings and use cases, and what
    each example prints is what the text says it does."""
    page = (GUIDE / "library.md").read_text(encoding="utf-8")
    code = "\n".join(found["body"] for found in PYTHON_BLOCK.finditer(page))
    for module in ("tourney.engines", "tourney.records", "tourney.ratings", "tourney.app"):
        assert f"from {module}" in code, module
    assert "library.md" in (GUIDE / "index.md").read_text(encoding="utf-8")
    import tourney.app.results

    # what import_results raises is exported beside it, as the page imports it
    assert "ImportRejected" in tourney.app.results.__all__


def _help_texts():
    def walk(command, path):
        ctx = click.Context(command, info_name=" ".join(path))
        yield " ".join(path), command.get_help(ctx)
        if isinstance(command, click.Group):
            for name in command.list_commands(ctx):
                yield from walk(command.get_command(ctx, name), path + [name])
    yield from walk(cli, ["tourney"])


def test_nothing_a_user_reads_points_outside_the_repository():
    outside = re.compile(r"shared/|RULES\.md|FORMAT\.md|seeds/|(?i:design card)")
    readable = [ROOT / "README.md", *GUIDE.glob("*.md"), *(ROOT / "docs").glob("*.md"),
                *(ROOT / "reports" / "templates").rglob("*"),
                *(ROOT / "reports" / "locale").rglob("*.po")]
    for path in readable:
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            assert not outside.search(text), f"{path.relative_to(ROOT)} points outside"
    for name, text in _help_texts():
        assert not outside.search(text), f"`{name} --help` points outside"


def test_variants_shows_one_game_with_its_rules_summary():
    result = CliRunner().invoke(cli, ["variants", "dam-stick"])
    assert result.exit_code == 0
    assert "queen" in result.output and "no_queen_first_trick" in result.output
    assert "spardame" not in result.output
    for variant in VARIANT_IDS:
        assert get_game(variant).summary, variant


def test_the_guide_builds_strictly(tmp_path):
    pytest.importorskip("mkdocs", reason="mkdocs is in the test extras")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet",
         "-f", str(ROOT / "docs" / "mkdocs.yml"), "-d", str(tmp_path / "guide")],
        capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    reference = (tmp_path / "guide" / "commands.html").read_text(encoding="utf-8")
    assert "result import" in reference and "--skip-invalid" in reference


def test_the_command_page_in_the_repository_points_at_the_help():
    page = (GUIDE / "commands.md").read_text(encoding="utf-8")
    assert "`tourney --help`" in page and "README.md" in page
    assert "getting-started.md#output-for-scripts" in page  # the exit codes


def test_the_built_command_reference_begins_with_tourneys_own_help():
    """The options every command takes (--db, --json before the command) and the exit
    codes are in `tourney --help`: the generated page has it, then each command's."""
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        from hooks import render_reference
    finally:
        sys.path.remove(str(ROOT / "docs"))
    page = render_reference()
    assert page.index("## tourney\n") < page.index("## db\n")
    assert "Exit status: 0 success;" in page and "getting-started.md#output-for-scripts" in page


LINK = re.compile(r"\]\((?P<target>[^)\s#]+)(?:#[^)]*)?\)")


def test_every_link_of_the_guide_and_readme_works_in_the_repository():
    for page in [ROOT / "README.md", *GUIDE.glob("*.md"), *(ROOT / "docs").glob("*.md")]:
        for found in LINK.finditer(page.read_text(encoding="utf-8")):
            target = found["target"]
            if "://" in target or target.startswith("mailto:"):
                continue
            assert (page.parent / target).exists(), f"{page.relative_to(ROOT)}: {target}"


def test_the_score_ranges_the_guide_gives_are_the_engines():
    """records.md: the row games' totals per number of cards a seat ends with."""
    from tourney.engines.row_games import _REACHABLE

    text = (ROOT / "docs" / "guide" / "records.md").read_text(encoding="utf-8")
    said = re.search(r"seven cards score (\d+) to (\d+).*?five cards\s+(\d+) to (\d+)", text,
                     re.S)
    assert said, "records.md no longer gives the row games' score ranges"
    low7, high7, low5, high5 = map(int, said.groups())
    assert (low7, high7) == (min(_REACHABLE[7]), max(_REACHABLE[7]))
    assert (low5, high5) == (min(_REACHABLE[5]), max(_REACHABLE[5]))


def test_the_halves_the_guide_allows_are_the_ones_read():
    """records.md: digits only, but for dam-brade's halves, which it lists."""
    from tourney.engines import get_game

    text = (ROOT / "docs" / "guide" / "records.md").read_text(encoding="utf-8")
    brade = get_game("dam-brade")
    for spelling in ("½", "1/2", "0,5"):
        assert f"`{spelling}`" in text and brade.parse_score(spelling) == 0.5
    for game in ("spardame", "kortrad", "dam-stick"):  # the card games: digits only
        with pytest.raises(ValueError):
            get_game(game).parse_score("½")


def test_the_messages_the_guide_shows_greet_players_as_notify_does():
    """The guide's e-mails greet and list the players by the names its player file
    registers, with notify's own greeting ("Hello Anna Berg,"): tourney keeps one
    name per player, so no given name ("Hello Anna,") can be told apart."""
    from tourney.app.notify import RESULTS_TEXTS, SEATING_TEXTS

    page = (GUIDE / "players.md").read_text(encoding="utf-8")
    registered = re.search(r"printf 'name,club,email\\n(.*?)' > players.csv", page)[1]
    names = {row.split(",")[0] for row in registered.split("\\n") if row}
    greetings = re.findall(r"^Hello (.+),$", page, re.M)
    assert len(greetings) == 2 and set(greetings) <= names, greetings
    for texts in (SEATING_TEXTS, RESULTS_TEXTS):
        assert texts["en"][1].format(player=greetings[0]) == f"Hello {greetings[0]},"
    listed = re.findall(r"^\d+\. (.+): [\d.]+$", page, re.M)
    assert listed and set(listed) <= names, listed


def test_the_readme_says_site_set_as_the_command_takes_it():
    """`site set` takes KEY VALUE (title, organisation, url), not options such as
    --title: the README's command table says it so, naming every key."""
    from tourney.cli.site import set_

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    arguments = [p.human_readable_name for p in set_.params if isinstance(p, click.Argument)]
    assert arguments == ["KEY", "VALUE"]
    said = re.search(r"`site set (\S+ \S+)`[^|]*", readme)
    assert said and said[1] == "KEY VALUE", said
    for key in set_.params[0].type.choices:
        assert f"`{key}`" in said[0], key
    assert "site set/show" not in readme
