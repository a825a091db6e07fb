"""`tourney player ...`: registering players, listing, renaming, setting club and e-mail,
merging, importing."""
from __future__ import annotations

import shlex
import sys

import click

from tourney.app import players as service
from tourney.errors.counts import count_text
from tourney.errors.words import quoted
from tourney.records.spreadsheets import open_table, table_format
from tourney.storage.db import reading, transaction
from tourney.tournament.players import PlayerFileRejected, PlayerInfo, list_players

from .completion import complete_event, complete_player
from .database import db_option, open_db, refuse_overwrites, starting_db
from .errors import INVALID, error_list, lookalike_message, notice_message
from .output import (
    CommandGroup,
    base_url_option,
    change_report,
    confirm,
    delimited_flags,
    emit_json,
    emit_table,
    encoding_option,
    json_option,
    message,
    name_order_option,
    replace_option,
    report_change,
    report_written,
    sheet_option,
    table_format_option,
    table_out_option,
    yes_option,
)


@click.group("player", cls=CommandGroup)
def player():
    """Register and manage players (names are shared by every event).

    \b
    Examples:
      tourney player add "Anna Berg" "Bo Ek" --club Vasa
      tourney player import players.csv
      tourney player list --json
    """


@player.command("add")
@click.argument("names", nargs=-1, required=True, metavar="PLAYER...")
@click.option("--club", help="The club of the players added.")
@click.option("--email", help="The e-mail address (one player at a time).")
@json_option
@db_option
def add(names, club, email, as_json, db_url):
    """Register one or more new players.

    Names are stored as given (surrounding spaces removed, NFC: the same letters
    typed on any system are the same name). A name already registered is an error
    and nothing is added. A name equal to a registered one apart from case or
    accents ("Asa Oberg" beside "Åsa Öberg") is added with a warning.

    \b
    Example:
      tourney player add "Anna Berg" "Bo Ek" --club Vasa
    """
    warnings: list = []
    with starting_db(db_url) as engine, transaction(engine) as session:
        added = service.add_players(session, names, club=club, email=email,
                                    warnings=warnings)
        rows = [PlayerInfo.of(p).to_json() for p in added]
    for warning in warnings:
        message(lookalike_message(warning))
    report_change("player.add", bool(rows), f"{count_text(len(rows), 'player')} added", as_json,
                  players=[{k: v for k, v in r.items() if k != "id"} for r in rows],
                  warnings=[w.to_json() for w in warnings])


@player.command("list")
@click.option("--all", "include_merged", is_flag=True,
              help="List every player, duplicates merged into another one too.")
@click.option("--with-email", is_flag=True,
              help="Show the e-mail addresses too (left out unless asked for: a list is often shared).")
@name_order_option
@table_format_option
@table_out_option
@replace_option
@delimited_flags
@json_option
@db_option
def list_(include_merged, with_email, lang, format_, out, yes, as_json, db_url):
    """List players by name: club and the events entered (and e-mail with --with-email).

    Names sort as --lang sorts them, else as the terminal's language does (LC_ALL,
    LC_COLLATE or LANG), else as English does.

    --format csv or xlsx writes the list for a spreadsheet (a file with --out;
    `tourney player import` reads it back: add --with-email to carry the
    addresses along).

    \b
    Examples:
      tourney player list --json | jq '.[] | select(.club == "Vasa") | .name'
      tourney player list --format xlsx --with-email --out players.xlsx
    """
    refuse_overwrites(db_url, {"--out": out}, replace=yes)
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        rows = list_players(session, include_merged=include_merged, lang=lang)
    if not with_email:
        for row in rows:
            row.pop("email", None)
    if as_json and not (out and out != "-"):
        emit_json(rows)
        return
    headers = ["name", "club"] + (["email"] if with_email else []) + ["events"]
    if include_merged:
        headers.append("merged into")
    table = [[r["name"], r["club"]] + ([r["email"]] if with_email else [])
             + [", ".join(r["events"])] + ([r["merged_into"]] if include_merged else [])
             for r in rows]
    if format_ or out:
        widths = {"name": 30, "club": 24, "email": 30, "events": 40, "merged into": 30}
        with open_table(out, headers, format=format_, title="players",
                        widths=[widths[h] for h in headers]) as sheet:
            for row in table:
                sheet.write(row)
        report_written(out, len(table), "player", as_json=as_json, action="player.list",
                       format=table_format(out, format_), players=len(table))
        return
    emit_table(headers, table)


@player.command("rename")
@click.argument("old", shell_complete=complete_player)
@click.argument("new")
@json_option
@db_option
def rename(old, new, as_json, db_url):
    """Give a player a new name (results and ratings stay theirs).

    \b
    Example:
      tourney player rename "Ana Berg" "Anna Berg"
    """
    engine = open_db(db_url)
    with transaction(engine) as session:
        player = service.rename_player(session, old, new)
    before, after = quoted(old.strip()).english(), quoted(player.name).english()
    report_change("player.rename", True, f"renamed {before} to {after}",
                  as_json, old=old.strip(), new=player.name)


@player.command("set")
@click.argument("name", metavar="PLAYER", shell_complete=complete_player)
@click.option("--club", help="The player's club (\"\" clears it).")
@click.option("--email", help="The player's e-mail address (\"\" clears it).")
@json_option
@db_option
def set_(name, club, email, as_json, db_url):
    """Change a registered player's club or e-mail address.

    For an address given at the door, or a player who changed clubs; the player's
    results, ratings and name stay as they are (`player rename` changes the name).
    The address is never printed: the summary says it was set.

    \b
    Examples:
      tourney player set "Jan Berg" --email jan@example.org
      tourney player set "Jan Berg" --club Vasa
      tourney player set "Jan Berg" --club ""
    """
    if club is None and email is None:
        raise click.UsageError("name what to set: --club, --email or both")
    engine = open_db(db_url)
    with transaction(engine) as session:
        player, changed = service.set_player(session, name, club=club, email=email)
        name = player.name
    said = []
    if "club" in changed:
        said.append(f"club {changed['club'][1] or 'none'} (was {changed['club'][0] or 'none'})")
    if "email" in changed:
        said.append("e-mail address " + ("set" if changed["email"][1] else "cleared"))
    summary = f"{name}: " + ("; ".join(said) if said else "nothing changed")
    report_change("player.set", bool(changed), summary, as_json, player=name,
                  **({"club": {"old": changed["club"][0], "new": changed["club"][1]}}
                     if "club" in changed else {}),
                  **({"email": "set" if changed["email"][1] else "cleared"}
                     if "email" in changed else {}))


@player.command("merge")
@click.argument("keep", shell_complete=complete_player)
@click.argument("duplicate", shell_complete=complete_player)
@yes_option
@json_option
@db_option
def merge(keep, duplicate, yes, as_json, db_url):
    """Merge DUPLICATE into KEEP: one person registered twice.

    The duplicate's entries, seats, results and rating history move to KEEP; the
    duplicate's row stays, marked as merged, so its name still finds KEEP and the
    audit log keeps the history. Refused when both sat in the same round. The
    ratings of every pool either was rated in are brought in step (a pool both
    were rated in is recomputed from the first match of either).

    \b
    Example:
      tourney player merge "Anna Berg" "Anna  Berg"
    """
    merged, kept = quoted(duplicate).english(), quoted(keep).english()
    confirm(f"Merge {merged} into {kept}? Its entries, results and ratings move to {kept}.", yes)
    engine = open_db(db_url)
    with transaction(engine) as session:
        report = service.merge_players(session, keep, duplicate)
    moved = report.results
    entries = len(moved.entries_moved) + len(moved.entries_folded)
    report_change("player.merge", True,
                  f"merged {quoted(report.duplicate).english()} into "
                  f"{quoted(report.keep).english()}: "
                  f"{count_text(entries, 'entry', 'entries')}, "
                  f"{count_text(moved.seats_moved, 'seat')}, "
                  f"{count_text(moved.places_moved, 'result')}", as_json, **report.to_json())
    if report.ratings.conflicting:
        message("both were rated in " + ", ".join(report.ratings.conflicting)
                + ": those ratings were recomputed")


@player.command("import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@sheet_option
@encoding_option
@json_option
@db_option
def import_(file, sheet, encoding, as_json, db_url):
    """Register the players of a CSV or XLSX file (- for stdin).

    The file has a header line with a `name` column and optionally `club` and
    `email` (any case; other columns are refused; `events` and `merged into`,
    as `player list --format` writes them, are left out), or it is a plain list
    of names, one per line, with no header (a first line that reads as a
    misspelt `name`, such as `nme`, is refused as a header). Names already
    registered are left as they are and reported; importing the same file twice
    adds nothing the second time. A new name equal to a registered one (or one
    earlier in the file) apart from case or accents is added with a warning. The whole
    file is checked and every error listed (each named by line, or sheet and cell;
    a file that cannot be read at all stops at once); any error imports nothing.

    \b
    Examples:
      tourney player import players.csv
      tourney player import club.xlsx --sheet Members
    """
    notices: list[str] = []
    try:
        rows = service.read_player_csv(file, encoding=encoding, sheet=sheet, notices=notices)
    except PlayerFileRejected as rejected:
        _rejected(rejected, as_json)
    for notice in notices:
        message(notice_message(notice))
    source = "<stdin>" if file == "-" else file  # as the file's errors name it
    with starting_db(db_url) as engine, transaction(engine) as session:
        report = service.import_players(session, rows, source=source)
    for name in report.already:
        fields = report.differ.get(name)
        if fields:
            said = " and ".join({"club": "club", "email": "e-mail address"}[f] for f in fields)
            flags = " ".join(f"--{f} {f.upper() if f == 'club' else 'ADDRESS'}" for f in fields)
            message(f"already registered: {name} (the file's {said} is not the one stored, "
                    f"which is kept: `tourney player set {shlex.quote(name)} {flags}` "
                    f"changes it)")
        else:
            message(f"already registered: {name}")
    for warning in report.lookalikes:
        message(lookalike_message(warning))
    report_change("player.import", bool(report.added),
                  f"{source}: {len(report.added)} added, {len(report.already)} already "
                  "registered", as_json, file=source, **report.to_json())


def _rejected(rejected: PlayerFileRejected, as_json: bool) -> None:
    """A player file with invalid rows: every error listed (as `result import`
    lists a record file's, bounded alike), nothing imported, exit 1."""
    from tourney.tournament.results import error_dict

    for line in error_list(rejected.notices, rejected.errors, rejected.error_count,
                           rules=False):
        message(line)
    message(f"Error: {rejected}; the database is unchanged")
    if as_json:
        emit_json(change_report("player.import", False, str(rejected), file=rejected.file,
                                error_count=rejected.error_count,
                                errors=[error_dict(err) for err in rejected.errors]))
    sys.exit(INVALID)


@player.command("links")
@click.argument("slug", shell_complete=complete_event)
@base_url_option("each player's link")
@click.option("--renew", multiple=True, metavar="PLAYER",
              help="Give this player a new link; the old one stops working (repeatable).")
@delimited_flags
@json_option
@db_option
def links(slug, base_url, renew, as_json, db_url):
    """Each entered player's private link to their own page of the event.

    `tourney serve` shows at /p/TOKEN the player's table and seat this round,
    their results, the standings with their row marked and their rating; no
    login, so hand each player their own link. Links are made on first use and
    stay the same on every run; --renew PLAYER revokes a player's link (a lost
    phone, a link passed on) and makes a new one. E-mail addresses are never
    printed.

    \b
    Examples:
      tourney player links club-1 --base-url http://192.168.1.20:8000
      tourney player links club-1 --renew "Anna Berg" --json
    """
    from tourney.tournament.evening import player_links
    from tourney.tournament.events import get_event

    with transaction(open_db(db_url)) as session:
        rows = player_links(session, get_event(session, slug), tuple(renew))
        data = [row.to_json(base_url) for row in rows]
    if as_json:
        emit_json(data)
    else:
        emit_table(["player", "link"], [[r["player"], r["url"]] for r in data])


def register(group: click.Group) -> None:
    group.add_command(player)
