"""The command reference page, generated from the CLI's --help texts.

Writing the reference by hand would give every command's help a second home that
drifts; instead the built guide's `commands.md` is rendered from the click command
tree. The repository keeps a short `guide/commands.md` in its place (so the guide's
links work there too, pointing at `--help` and the README's command list), which this
hook replaces. `python docs/hooks.py` prints the generated page.
"""
from __future__ import annotations

import sys
from pathlib import Path

import click

PAGE = Path(__file__).resolve().parent / "guide" / "commands.md"
# A fixed width: the page is the same whatever terminal it was made in.
WIDTH = 80


def _walk(command: click.Command, path: list[str]):
    yield path, command
    if isinstance(command, click.Group):
        for name in sorted(command.list_commands(click.Context(command))):
            sub = command.get_command(click.Context(command), name)
            if sub is not None and not sub.hidden:
                yield from _walk(sub, path + [name])


def render_reference() -> str:
    """Markdown for every command: its usage line and its whole --help text."""
    from tourney.cli.main import cli

    lines = ["# Commands", "",
             "Every command of `tourney`, as `tourney COMMAND --help` prints it; the exit "
             "codes and the JSON of a failure in full: "
             "[Output for scripts](getting-started.md#output-for-scripts).", ""]
    # Contexts as the program makes them (-h, --help everywhere), at a fixed width.
    root = click.Context(cli, info_name="tourney", terminal_width=WIDTH,
                         max_content_width=WIDTH, **cli.context_settings)
    for path, command in _walk(cli, ["tourney"]):
        # tourney's own --help first: the options every command takes, the exit codes
        ctx = (root if len(path) == 1 else
               click.Context(command, info_name=" ".join(path[1:]), parent=root))
        if getattr(command, "_help_option", None) is not None:
            command._help_option = None  # click keeps the first one made, by any context
        depth = "##" if len(path) <= 2 else "###"
        lines += [f"{depth} {' '.join(path[1:]) or 'tourney'}", "", "```text",
                  command.get_help(ctx), "```", ""]
    return "\n".join(lines)


def on_files(files, config):
    """The committed short page replaced by the generated reference."""
    from mkdocs.structure.files import File

    committed = files.get_file_from_path(PAGE.name)
    if committed is not None:
        files.remove(committed)
    files.append(File.generated(config, PAGE.name, content=render_reference()))
    return files


if __name__ == "__main__":
    sys.stdout.write(render_reference())
