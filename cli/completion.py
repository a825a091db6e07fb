"""Shell completion of event slugs, player names and variants.

Click completes commands and options by itself (see the user guide, "Getting started",
for the one line each shell needs); these callbacks add the values that live in the
database. Completion must never create or change a database and must never print an
error into the user's shell, so a SQLite file is opened read-only (and only if it
exists), and any failure completes nothing.
"""
from __future__ import annotations

import os
import re

import click
from click.shell_completion import BashComplete, CompletionItem, add_completion_class

from tourney.engines import VARIANT_IDS

COMPLETIONS_SHOWN = 200  # a shell lists this many candidates at most


def _db_url(ctx: click.Context) -> str | None:
    # --db may be given to the command or (as a global option) to the group above it.
    while ctx is not None:
        url = ctx.params.get("db_url")
        if url:
            return url
        ctx = ctx.parent
    return os.environ.get("TOURNEY_DB")


def _names(ctx: click.Context, sql: str, incomplete: str) -> list[CompletionItem]:
    try:
        from sqlalchemy import create_engine, text
        from sqlalchemy.engine import make_url

        from tourney.storage.db import resolve_url, sqlite_file

        url = resolve_url(_db_url(ctx))
        path = sqlite_file(url)
        if path is not None:
            if not os.path.isfile(path):
                return []
            url = make_url(url).set(database=f"file:{os.path.abspath(path)}?mode=ro",
                                    query={"uri": "true"})
        engine = create_engine(url, connect_args={"connect_timeout": 3}
                               if not str(url).startswith("sqlite") else {})
        try:
            with engine.connect() as connection:
                rows = connection.execute(text(sql), {"prefix": incomplete + "%",
                                                      "limit": COMPLETIONS_SHOWN})
                return [CompletionItem(row[0]) for row in rows]
        finally:
            engine.dispose()
    except Exception:  # completion never shows an error: it just offers nothing
        return []


def complete_event(ctx, param, incomplete: str) -> list[CompletionItem]:
    """Event slugs that begin with what was typed."""
    return _names(ctx, "SELECT slug FROM event WHERE slug LIKE :prefix "
                       "ORDER BY slug LIMIT :limit", incomplete)


def complete_player(ctx, param, incomplete: str) -> list[CompletionItem]:
    """Player names that begin with what was typed."""
    return _names(ctx, "SELECT name FROM player WHERE merged_into_id IS NULL AND name LIKE :prefix "
                       "ORDER BY name LIMIT :limit", incomplete)


def complete_variant(ctx, param, incomplete: str) -> list[CompletionItem]:
    return [CompletionItem(v) for v in VARIANT_IDS if v.startswith(incomplete)]


# Characters bash would split a word at or expand.
_BASH_SPECIAL = re.compile(r"""([\s'"\\$`&;()<>|*?\[\]#~!{}])""")


class QuotingBashComplete(BashComplete):
    r"""Bash completion that quotes what it offers: bash puts a candidate on the
    command line as it is, so "Anna Berg" would become two arguments. Each special
    character gets a backslash (``Anna\ Berg``); the script's ``read`` takes one
    level of backslashes off, so they are doubled on the way. zsh and fish quote
    candidates themselves."""

    def format_completion(self, item: CompletionItem) -> str:
        if item.type != "plain":
            return super().format_completion(item)
        quoted = _BASH_SPECIAL.sub(r"\\\1", item.value)
        return f"{item.type},{quoted.replace(chr(92), chr(92) * 2)}"


add_completion_class(QuotingBashComplete, "bash")
