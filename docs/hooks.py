"""MkDocs hook: the command reference page, generated from the CLI's --help texts.

Writing the reference by hand would give every command's help a second home that
drifts; instead `commands.md` is rendered from the click command tree at build time.
"""
from __future__ import annotations

import click
from mkdocs.structure.files import File

from tourney.cli.main import cli

PAGE = "commands.md"


def _walk(command: click.Command, path: list[str]):
    yield path, command
    if isinstance(command, click.Group):
        for name in sorted(command.list_commands(click.Context(command))):
            sub = command.get_command(click.Context(command), name)
            if sub is not None and not sub.hidden:
                yield from _walk(sub, path + [name])


def render_reference() -> str:
    """Markdown for every command: its usage line and its whole --help text."""
    lines = ["# Commands", "",
             "Every command of `tourney`, as `tourney COMMAND --help` prints it.", ""]
    for path, command in _walk(cli, ["tourney"]):
        if len(path) == 1:
            continue
        ctx = click.Context(command, info_name=" ".join(path))
        depth = "##" if len(path) == 2 else "###"
        lines += [f"{depth} {' '.join(path[1:])}", "", "```text",
                  command.get_help(ctx), "```", ""]
    return "\n".join(lines)


def on_files(files, config):
    files.append(File.generated(config, PAGE, content=render_reference()))
    return files
