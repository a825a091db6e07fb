"""Results in and out: `result import|export|history|revert|show`, and `standings`."""
from __future__ import annotations

import os
import sys
from contextlib import ExitStack

import click

from tourney.app.results import ImportOptions, NothingFilledIn, import_results, revert_result
from tourney.engines import get_game
from tourney.errors import UsageError
from tourney.errors.counts import count_text
from tourney.errors.words import quoted
from tourney.numbers import fixed_text, number_column, number_text, plain_number
from tourney.ordering import terminal_language
from tourney.records.csv_format import COLUMNS
from tourney.records.spreadsheets import open_table, table_format
from tourney.storage.db import reading, transaction
from tourney.storage.models import Series
from tourney.tournament.events import get_event
from tourney.tournament.export import EXPORT_WIDTHS, export_results
from tourney.tournament.results import ImportRejected, current_user
from tourney.tournament.scoring import event_bye_points
from tourney.tournament.standings import (
    TIEBREAKS,
    check_round_number,
    place_text,
    standing_decimals,
    standings_table,
)
from tourney.tournament.teams import team_scope
from tourney.tournament.versions import match_detail, match_history

from .completion import complete_event
from .database import db_option, open_db, refuse_overwrites
from .errors import INVALID, error_list, exit_code
from .events import POINTS_SYSTEM_WORDS
from .output import (
    COUNT,
    ROUND_NUMBER,
    TYPED_NUMBER,
    CommandGroup,
    CountingTable,
    JsonLinesTable,
    change_report,
    confirm,
    delimited_flags,
    delimited_format,
    deprecated_option,
    echo,
    emit_json,
    emit_table,
    encoding_option,
    json_option,
    message,
    refuse_delimited_unless,
    replace_option,
    report_change,
    report_written,
    sheet_option,
    table_format_option,
    table_out_option,
    terminal_text,
    yes_option,
)
from .series import count_option, is_series, show_standings, teams_option


def import_summary(report) -> str:
    """An import's counts in a line (:class:`tourney.tournament.results.ImportReport`):
    ``added: 3 matches, unchanged: 0, replaced: 0, rejected: 0``."""
    text = (f"added: {count_text(report.added, 'match')}, unchanged: {report.unchanged}, "
            f"replaced: {report.replaced}, rejected: {report.rejected}")
    if report.unfilled:
        text += f"; skipped {count_text(report.unfilled, 'empty score-sheet row')}"
    if report.dry_run:
        text += " (dry run: nothing written)"
    return text


def forfeit_text(report) -> str:
    """What a forfeit, or its taking back, did, in a line
    (:class:`tourney.tournament.forfeits.ForfeitReport`)."""
    where = f"{report.event} round {report.number}, table {report.table}"
    if report.undo:
        return f"{where}: forfeit taken back; the table is to be played (or imported)"
    others = (f"; {', '.join(report.others)} {number_text(report.points)} "
              f"point{'' if report.points == 1 else 's'} each (a bye's worth)"
              if report.others else "")
    reason = f" (reason: {report.reason})" if report.reason else ""
    return f"{where} forfeited: {', '.join(report.absent)} 0 points{others}{reason}"


@click.group(cls=CommandGroup)
def result():
    """Import, export and inspect match results (deal records).

    A match is one table's deals in one round of an event. Each import of new
    content for a match is a new version; `history` lists them and `revert`
    makes an older one current again.
    """


def _progress(path: str):
    """A progress bar on stderr when stderr is a terminal; else nothing."""
    if not sys.stderr.isatty():
        return None, None
    size = os.path.getsize(path)
    bar = click.progressbar(length=size, label=f"importing {os.path.basename(path)}",
                            file=sys.stderr, show_eta=True)
    bar.__enter__()

    def update(position: int) -> None:
        bar.update(position - bar.pos)

    return bar, update


def _print_errors(report) -> None:
    for line in error_list(report.notices, report.errors, report.error_count):
        message(line)


@result.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--event", "event_slug", metavar="SLUG",
              help="The event of rows without an event column; rows naming another "
                   "event are then an error.")
@click.option("--dry-run", is_flag=True, help="Check and report; write nothing.")
@click.option("--replace", is_flag=True,
              help="Store a match whose content differs from the stored one as a new "
                   "version (the old one is kept, marked superseded).")
@click.option("--skip-invalid", "rejects_path", metavar="REJECTS",
              type=click.Path(dir_okay=False, allow_dash=True),
              help="Store the valid matches and write the rows of rejected matches to "
                   "this file (.xlsx or .csv by its name; - for stdout), with an added "
                   "error column. Fixed, it imports as it is. An existing file is "
                   "replaced only with --yes.")
@sheet_option
@encoding_option
@click.option("--by", "imported_by", metavar="NAME",
              help="Who imports (default: TOURNEY_ACTOR, else the login name).")
@click.option("--reason", metavar="TEXT",
              help="Why (a correction's: the scorer swapped two names), kept in the audit "
                   "log with who imported (`tourney log --action result`).")
@click.option("--jobs", type=click.IntRange(1, 256), metavar="N",
              help="Processes that check a big CSV file at a time, each taking the next "
                   "part of it as it ends, while this one stores the matches in file "
                   "order (default: one per core; a file under 2 MB is checked here).")
@yes_option
@json_option
@db_option
def import_cmd(file, event_slug, dry_run, replace, rejects_path, sheet, encoding, imported_by,
               reason, jobs, yes, as_json, db_url):
    """Import deal records (CSV or XLSX; - for stdin) into the database.

    Every deal is replayed by its variant's engine with the event's house rules,
    every match is checked against the match rules and against the round's
    seating: the table must have been seated, deal 1 must list the seated players
    in seat order, and seat 1 deals first. The file is one transaction: any
    invalid row rejects the whole file (exit 1, every error listed, the database
    unchanged) unless --skip-invalid names a file for the rejected matches' rows
    (exit 1 still when every match was rejected). An event column naming no
    event is a usage error (exit 2), said once, at its first row.

    The file may be a CSV as spreadsheets save it (comma, semicolon or tab; UTF-8,
    UTF-16 or Windows-1252) or an XLSX workbook (its first sheet, or --sheet);
    errors in a workbook name the sheet and cell (Round 1!K7).

    Importing the same content again changes nothing ("unchanged"); a match whose
    content differs from the stored one is an error unless --replace. Spelling
    differences (10H for TH, lower case) are not changes.

    A summary goes to stderr: added, unchanged, replaced and rejected matches;
    --json prints what changed on stdout as every changing command does (action,
    changed, summary, details: the counts and the errors).

    \b
    Examples:
      tourney result import round1.csv --event club-1
      tourney result import round1.xlsx --sheet "Round 1" --event club-1
      tourney result import season.csv --skip-invalid rejects.xlsx --json
    """
    refuse_overwrites(db_url, {"--skip-invalid": rejects_path}, inputs=[file], replace=yes)
    if rejects_path == "-" and as_json:
        raise click.UsageError("--skip-invalid - and --json both write to stdout; "
                               "give the rejects a file name")
    if replace and not dry_run and file != "-":  # "-": standard input is the data
        confirm("--replace: a match whose result in the file differs from the stored one "
                "gets the file's as its new current version (the old one stays in its "
                "history). Go on?", yes)
    engine = open_db(db_url, read_only=dry_run)
    bar, on_progress = _progress(file) if file != "-" and os.path.isfile(file) else (None, None)
    session_scope = reading if dry_run else transaction
    # The rejects file is written beside its final name and renamed into place
    # once the import has committed: a failed import leaves an old file as it was.
    with ExitStack() as rejects_scope:
        rejects = rejects_note = None
        if rejects_path:
            from tourney.web.messages import file_error_note as rejects_note

            rejects = rejects_scope.enter_context(open_table(
                rejects_path, None, title="rejects", choosable=False))  # no --format
        try:
            with session_scope(engine) as session:
                report = import_results(session, file, ImportOptions(
                    event=event_slug, replace=replace, dry_run=dry_run, rejects=rejects,
                    imported_by=imported_by or current_user(), on_progress=on_progress,
                    encoding=encoding, sheet=sheet, jobs=jobs, rejects_note=rejects_note,
                    reason=reason))
        except ImportRejected as rejected:
            if bar is not None:
                bar.__exit__(None, None, None)
            report = rejected.report
            if not isinstance(rejected, NothingFilledIn):  # its one error says it all
                _print_errors(report)
                message(import_summary(report))
            message(f"Error: {rejected}; the database is unchanged")
            if as_json:
                emit_json(change_report("result.import", False, import_summary(report),
                                        **report.to_json()))
            sys.exit(exit_code(rejected))
    if bar is not None:
        bar.__exit__(None, None, None)
    _print_errors(report)
    report_change("result.import", report.committed and bool(report.added or report.replaced),
                  import_summary(report), as_json, **report.to_json())
    if rejects_path and report.rejected:
        where = "on standard output" if rejects_path == "-" else f"in {rejects_path}"
        message(f"the rows of {count_text(report.rejected, 'rejected match', 'rejected matches')} "
                f"are {where}")
    elif rejects_path:
        # The file is written all the same (its header row alone): a rejects file of
        # an earlier import left at that name would read as this one's rejects.
        where = "standard output" if rejects_path == "-" else rejects_path
        message(f"nothing was rejected: {where} has the header row only")
    if report.rejected and not (report.added or report.unchanged or report.replaced):
        # --skip-invalid with nothing valid: a script must not read it as success
        message(f"Error: every match of {file} was rejected; nothing was imported")
        sys.exit(INVALID)


@result.command(name="export")
@click.argument("slug", shell_complete=complete_event)
@click.option("--round", "round_number", type=COUNT,
              help="Only this round.")
@click.option("--out", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write here instead of stdout (- is stdout; an XLSX workbook goes "
                   "to stdout only when it is piped or redirected).")
@table_format_option
@replace_option
@delimited_flags
@json_option
@db_option
def export_cmd(slug, round_number, out, format_, yes, as_json, db_url):
    """Write an event's results as deal records (CSV or XLSX).

    The current version of every match, in canonical spelling, with the event
    and variant columns filled and the computed scores written. Importing the
    export again, in either format, changes nothing.

    With --json and --out, stdout gets what was written: {"action":
    "result.export", "file", "format", "matches", "deals"}; with --json and no
    --out, the records themselves, one JSON object per line.

    \b
    Examples:
      tourney result export club-1 --round 2 --out round2.csv
      tourney result export club-1 --out club-1.xlsx
    """
    refuse_overwrites(db_url, {"--out": out}, replace=yes)
    shown = out if out and out != "-" else None
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        event = get_event(session, slug)  # an unknown event before any file is made
        if round_number is not None:  # and a round it does not have
            check_round_number(session, event, round_number)
        if as_json and not shown:
            counted = CountingTable(JsonLinesTable(COLUMNS), COLUMNS)
            export_results(session, slug, counted, round_number)
        else:
            with open_table(out, COLUMNS, format=format_, title=event.slug,
                            widths=EXPORT_WIDTHS) as table:
                counted = CountingTable(table, COLUMNS)
                export_results(session, slug, counted, round_number)
    report_written(out, counted.rows, "deal", as_json=as_json, action="result.export",
                   format=table_format(out, format_), event=event.slug, round=round_number,
                   matches=counted.matches, deals=counted.rows)


@result.command(name="history")
@click.argument("slug", shell_complete=complete_event)
@click.argument("round_number", metavar="ROUND", type=ROUND_NUMBER)
@click.argument("table")
@delimited_flags
@json_option
@db_option
def history_cmd(slug, round_number, table, as_json, db_url):
    """List the stored versions of one match (event, round, table).

    \b
    Example:
      tourney result history club-1 2 3
    """
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        versions = match_history(session, slug, round_number, table)
    if as_json:
        emit_json(versions)
        return
    emit_table(
        ["version", "current", "imported at", "by", "file", "sha256", "deals", "ranking"],
        [[v["version"], "*" if v["current"] else "", v["imported_at"], v["imported_by"],
          v["file"], (v["file_sha256"] or "")[:12], v["deals"],
          ", ".join(f"{place}. {name}" for name, place in v["ranking"])]
         for v in versions])


@result.command(name="revert")
@click.argument("slug", shell_complete=complete_event)
@click.argument("round_number", metavar="ROUND", type=ROUND_NUMBER)
@click.argument("table")
@click.argument("version", type=COUNT)
@click.option("--by", "actor", metavar="NAME", help="Who reverts (default: the login name).")
@yes_option
@json_option
@db_option
def revert_cmd(slug, round_number, table, version, actor, yes, as_json, db_url):
    """Make an older version of a match current again (audit-logged).

    The version that was current stays stored, marked superseded.

    \b
    Example:
      tourney result revert club-1 2 3 1
    """
    confirm(f"Make version {version} of {slug} round {round_number}, table {table} "
            "the current result again?", yes)
    engine = open_db(db_url)
    with transaction(engine) as session:
        changed = revert_result(session, slug, round_number, table, version, actor=actor)
    where = f"{slug} round {round_number}, table {table}"
    summary = (f"{where}: version {version} is current" if changed else
               f"{where}: version {version} is already current; nothing changed")
    report_change("result.revert", bool(changed), summary, as_json, event=slug,
                  round=round_number, table=table, version=version)


@result.command(name="show")
@click.argument("slug", shell_complete=complete_event)
@click.argument("round_number", metavar="ROUND", type=ROUND_NUMBER)
@click.argument("table")
@click.argument("version", type=COUNT, required=False)
# `tourney --version` is the program's version: a match's is an argument, as in revert
@deprecated_option("--version", "the argument VERSION (result show SLUG ROUND TABLE VERSION)",
                   "old_version", type=COUNT)
@delimited_flags
@json_option
@db_option
def show_cmd(slug, round_number, table, version, old_version, as_json, db_url):
    """Show one match: its places, points and deal scores.

    VERSION is a stored version of the match (`tourney result history` lists
    them; default: the current one). The places table lists the players by place, with their seats; the deals
    table has a column of scores per player, in seat order, whatever order
    each deal names its players in (in checkers the colours alternate: the
    column named after the first colour says who had it in each game). A game
    dealt by a dealer has a dealer column. --json gives each deal's players
    and scores in the deal's own order, and by_seat in the match's seat order;
    --csv and --tsv the deals table (the heading on stderr).

    \b
    Examples:
      tourney result show club-1 2 3
      tourney result show club-1 2 3 1 --csv
    """
    version = version if version is not None else old_version
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        detail = match_detail(session, slug, round_number, table, version)
    if as_json:
        emit_json(detail)
        return
    state = "current" if detail["current"] else "superseded"
    echo(f"{slug} ({detail['variant']}) round {round_number}, table {table}: "
               f"version {detail['version']} ({state}), {count_text(detail['deal_count'], 'deal')}")
    if not delimited_format():  # --csv, --tsv: the deals alone, a table of rows
        places = detail["places"]
        totals = number_column([p["total"] for p in places])
        points = number_column([p["points"] for p in places])
        emit_table(["place", "player", "seat", "total", "points"],
                   [[p["place"], p["player"], p["seat"], totals[i], points[i]]
                    for i, p in enumerate(places)])
        echo("")
    game = get_game(detail["variant"])
    deals = detail["deals"]
    seats = [s["player"] for s in deals[0]["by_seat"]] if deals else []
    # a column of scores per player, alike in every row (tourney.numbers)
    scores = [number_column([d["by_seat"][i]["score"] for d in deals]) for i in range(len(seats))]
    # who had the first colour in each game, where seats have roles (dam-brade's Black)
    role = game.seat_roles[0].lower() if game.seat_roles else None
    emit_table(
        ["deal", *(["dealer"] if game.uses_dealer else []), *([role] if role else []),
         *[terminal_text(name, keep_newlines=False) for name in seats], "verified"],
        [[d["deal"], *([d["dealer"]] if game.uses_dealer else []),
          *([d["players"][0]] if role else []), *[column[i] for column in scores],
          d["verified"]] for i, d in enumerate(deals)])


@click.command()
@click.argument("slug", shell_complete=complete_event)
@click.option("--round", "up_to_round", type=COUNT,
              help="The standings after this round (of the players entered by then).")
@teams_option
@count_option
@table_format_option
@table_out_option
@replace_option
@delimited_flags
@json_option
@db_option
def standings(slug, up_to_round, teams, count, format_, out, yes, as_json, db_url):
    """Show an event's standings: place, player, match points, tie-breaks.

    Match points follow the event's points system: by default (share) a match
    is worth the share of the table's other players finished ahead of, a shared
    place counting half (0 to 1 at any table size); with --points place the
    winner at a table of n gets n-1. A bye is worth the event's bye points (by
    default a win's worth). Players equal on points are ordered by the event's
    tie-breaks (default: opponents, score, wins); players equal on all of them
    share a place, shown as "2=" (files: the shared column; JSON: "shared").
    "decided by" names what separated a player from the one above ("shared":
    nothing, they share the place); the number columns show enough decimals for
    that difference to show. A player who withdrew is marked with the round
    they withdrew after. The arbiter's adjustments (`tourney result adjust`)
    are counted in the points and listed beside them with their reasons
    ("adjustments" column; JSON: "adjustments": [{"id", "points", "reason",
    "round"}]); forfeits (`tourney result forfeit`) give 0 to the absent and a
    bye's points to the table's others (JSON: "forfeits", "forfeit_wins").
    The table is followed (on stderr) by what each column
    means. --format csv or xlsx (or --out FILE) writes the table for a
    spreadsheet: CSV with the decimals the terminal shows, XLSX cells as
    numbers in full shown with those decimals. --json gives the numbers in full.

    --teams club|declared gives the team standings of the event (or of a
    series: SLUG may name one, `tourney series standings`): a team's players'
    points add up, its best N with --count N.

    \b
    Examples:
      tourney standings club-1 --json
      tourney standings club-1 --out club-1-standings.xlsx
      tourney standings club-1 --teams club --count 2
    """
    if teams is not None or count is not None or up_to_round is None and is_series(db_url, slug):
        if up_to_round is not None:
            raise UsageError("--round and --teams do not go together: team standings "
                             "count the event as it stands")
        return show_standings(slug, teams=teams, count=count, lang=terminal_language(),
                              format_=format_, out=out, yes=yes, as_json=as_json,
                              db_url=db_url, kind="any")
    refuse_overwrites(db_url, {"--out": out}, replace=yes)
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        # a slug names an event or a series: an unknown one is said as both
        # (suggesting either); a series reaches here only with --round
        event = team_scope(session, slug)
        if isinstance(event, Series):
            raise UsageError(f"{quoted(slug).english()} is a series: --round takes an event's standings "
                             f"after a round (the series' standings: `tourney series "
                             f"standings {slug}`)")
        rows = standings_table(session, event, up_to_round=up_to_round,
                               lang=terminal_language())
    to_file = bool(out and out != "-")
    if as_json and not to_file:
        emit_json([row.to_json() for row in rows])
        return
    tiebreaks = list(rows[0].tiebreaks) if rows else []
    headers = ["place", "player", "points", *tiebreaks, "decided by"]
    # every number column with its decimals, alike in every row, enough to show
    # what decided each place (standing_decimals)
    decimals = standing_decimals(rows)
    numbers = {"points": [row.points for row in rows],
               **{t: [row.tiebreaks[t] for row in rows] for t in tiebreaks}}
    if format_ or out:
        # the arbiter's adjustments, when there are any: a column of their own
        adjusted = any(row.adjustments for row in rows)
        extra = ["adjustments"] if adjusted else []
        with open_table(out, [*headers, "shared", "withdrew after", *extra], format=format_,
                        title=f"{slug} standings",
                        widths=[7, 30, 8, *[11] * len(tiebreaks), 24, 8, 14,
                                *[40] * len(extra)],
                        decimals=[None, None, *[decimals[n] for n in numbers], None, None,
                                  None, *[None] * len(extra)]) as table:
            for index, row in enumerate(rows):
                # the values in full: an XLSX cell shows the column's decimals and
                # keeps the rest, CSV writes the decimals the terminal shows
                table.write([row.place, row.player,
                             *[plain_number(column[index]) for column in numbers.values()],
                             row.decided_by or "", "yes" if row.shared else "",
                             row.withdrawn_after,
                             *([adjustment_text(row.adjustments)] if adjusted else [])])
        report_written(out, len(rows), "player", as_json=as_json, action="standings",
                       format=table_format(out, format_), event=slug, round=up_to_round,
                       players=len(rows))
        return
    texts = [[fixed_text(v, decimals[name]) for v in column] for name, column in numbers.items()]
    withdrawn = any(row.withdrawn_after is not None for row in rows)
    adjusted = any(row.adjustments for row in rows)
    emit_table(
        headers + (["withdrew after"] if withdrawn else [])
        + (["adjustments"] if adjusted else []),
        [[place_text(row.place, row.shared), row.player,
          *[column[i] for column in texts], row.decided_by or "",
          *([f"round {row.withdrawn_after}" if row.withdrawn_after is not None else ""]
            if withdrawn else []),
          *([adjustment_text(row.adjustments)] if adjusted else [])]
         for i, row in enumerate(rows)])
    message(f"points: {POINTS_SYSTEM_WORDS[event.points]}; a bye is worth "
            f"{number_text(event_bye_points(event))}")
    higher_is_better = get_game(event.variant).higher_is_better
    for tiebreak in tiebreaks:
        message(f"{tiebreak}: {TIEBREAKS[tiebreak].note_for(higher_is_better)}")
    if adjusted:
        message("adjustments: match points given or taken by the arbiter, counted in the "
                "points (`tourney result adjust`); never in a rating")
    if any(row.shared for row in rows):
        message("=: a shared place (equal on points and every tie-break); "
                "decided by \"shared\": nothing separates the player from the one above")



def adjustment_text(items) -> str:
    """A player's adjustments as the standings show them beside the points:
    ``slow play (round 2, #3): -1``."""
    return "; ".join(
        f"{a['reason']} ({'round ' + str(a['round']) + ', ' if a['round'] is not None else ''}"
        f"#{a['id']}): {'+' if a['points'] > 0 else ''}{number_text(a['points'])}"
        for a in items)


@result.command(name="forfeit")
@click.argument("slug", shell_complete=complete_event)
@click.argument("round_number", metavar="ROUND", type=ROUND_NUMBER, required=False)
@click.argument("table", required=False)
@click.option("--absent", "absent", multiple=True, metavar="PLAYER",
              help="A player of the table who did not play (or left); repeatable.")
@click.option("--undo", is_flag=True, help="Take the table's forfeit back.")
@click.option("--reason", metavar="TEXT",
              help="Why; shown with the forfeit (the published pages, --list).")
@click.option("--list", "list_all", is_flag=True,
              help="List the event's forfeited tables (of ROUND, when given).")
@delimited_flags
@json_option
@db_option
def forfeit_cmd(slug, round_number, table, absent, undo, reason, list_all, as_json, db_url):
    """Score a table whose match was not played (or not finished) as forfeited.

    Each player named --absent gets 0 match points for the round; each other
    player of the table gets the event's bye points (by default a win's worth),
    as though they had a bye: counted in the points, not as a match played
    (no tie-break counts it), and no rating changes. The table then counts as
    played: the next round can be seated, and a result for it is refused by
    `tourney result import` until the forfeit is taken back (--undo). A table
    whose result is in (or waits for the organizer) cannot be forfeited (exit 1).
    The reason is kept with the forfeit and shown wherever it is (the published
    pages and open data, the organizer's page of `tourney serve`, --list).

    \b
    JSON: {"action": "result.forfeit", "changed": true, "summary", "details":
           {"event", "round", "table", "absent": [names], "others": [names],
           "absent_points": 0, "others_points": X, "undo": false, "reason"}}
    (--list --json: [{"round", "table", "absent": [names], "reason"}])

    \b
    Examples:
      tourney result forfeit club-1 2 3 --absent "Bo Ek" --reason "left at 21:00"
      tourney result forfeit club-1 2 3 --undo
      tourney result forfeit club-1 --list
    """
    from tourney.app.results import forfeit_table, list_forfeits

    refuse_delimited_unless(list_all, "give --list")
    if list_all:
        if table or absent or undo or reason:
            raise UsageError("--list takes no TABLE, --absent, --undo or --reason")
        with reading(open_db(db_url, read_only=True)) as session:
            rows = [f.to_json() for f in list_forfeits(session, get_event(session, slug),
                                                       round_number)]
        if as_json:
            emit_json(rows)
        else:
            emit_table(["round", "table", "absent", "reason"],
                       [[r["round"], r["table"], ", ".join(r["absent"]), r["reason"]]
                        for r in rows])
        return
    if round_number is None or table is None:
        raise UsageError("name the round and the table (or --list)", setting="table")
    engine = open_db(db_url)
    with transaction(engine) as session:
        report = forfeit_table(session, get_event(session, slug), round_number, table,
                               list(absent), undo=undo, reason=reason)
    action = "result.forfeit" + (".undo" if undo else "")
    report_change(action, True, forfeit_text(report), as_json, **report.to_json())


@result.command(name="adjust")
@click.argument("slug", shell_complete=complete_event)
@click.argument("player", required=False)
@click.option("--points", type=TYPED_NUMBER, metavar="X",
              help="Match points to give (negative: to take), e.g. -1.")
@click.option("--reason", metavar="TEXT", help="Why; shown beside the standings.")
@click.option("--round", "round_number", type=ROUND_NUMBER, metavar="N",
              help="The round it belongs to (the standings after an earlier round "
                   "leave it out; default: the whole event).")
@click.option("--cancel", "cancel_id", type=COUNT, metavar="ID",
              help="Cancel adjustment ID: take it back (`tourney result adjust SLUG "
                   "--list` gives the ids).")
# --remove is a flag in `series handicap` (now --undo there)
@deprecated_option("--remove", "--cancel ID", "old_cancel_id", type=COUNT, metavar="ID")
@click.option("--list", "list_all", is_flag=True, help="List the event's adjustments.")
@delimited_flags
@json_option
@db_option
def adjust_cmd(slug, player, points, reason, round_number, cancel_id, old_cancel_id, list_all,
               as_json, db_url):
    """Give or take match points, with a reason: a penalty or a correction.

    The points count in the standings (beside them, with the reason, in the
    terminal, --json, CSV/XLSX and the published site) and nowhere else: no
    tie-break, no rating (ratings come from the matches played). Each
    adjustment gets an id; --cancel ID takes it back, --list lists them. Every
    one is in the audit log with who did it.

    \b
    JSON: {"action": "result.adjust", "changed": true, "summary", "details":
           {"event", "id", "player", "points", "reason", "round", "actor", "at"}}
    (--list --json: [{"id", "player", "points", "reason", "round", "actor", "at"}])

    \b
    Examples:
      tourney result adjust club-1 "Bo Ek" --points -1 --reason "slow play" --round 2
      tourney result adjust club-1 --cancel 1
      tourney result adjust club-1 --list
    """
    from tourney.app.results import adjust_points, adjustments, remove_adjustment
    from tourney.errors import UsageError

    cancel_id = cancel_id if cancel_id is not None else old_cancel_id
    refuse_delimited_unless(list_all, "give --list")
    if list_all:
        if player or points is not None or cancel_id:
            raise UsageError("--list takes no player, --points or --cancel")
        with reading(open_db(db_url, read_only=True)) as session:
            rows = [a.to_json() for a in adjustments(session, get_event(session, slug))]
        if as_json:
            emit_json(rows)
        else:
            emit_table(["id", "player", "points", "round", "reason", "by"],
                       [[r["id"], r["player"], number_text(r["points"]), r["round"],
                         r["reason"], r["actor"]] for r in rows])
        return
    if cancel_id is not None:
        if player or points is not None or reason or round_number:
            raise UsageError("--cancel takes only the adjustment's id", setting="cancel")
        with transaction(open_db(db_url)) as session:
            info = remove_adjustment(session, get_event(session, slug), cancel_id)
        report_change("result.adjust.remove", True,
                      f"{slug}: adjustment {info.id} taken back ({info.player}, "
                      f"{number_text(info.points)}: {info.reason})", as_json, event=slug,
                      **info.to_json())
        return
    if not player or points is None:
        raise UsageError("name the player and the points (--points X --reason TEXT)",
                         setting="points")
    with transaction(open_db(db_url)) as session:
        info = adjust_points(session, get_event(session, slug), player, points, reason,
                             round_number=round_number)
    sign = "+" if info.points > 0 else ""
    report_change("result.adjust", True,
                  f"{slug}: {info.player} {sign}{number_text(info.points)} "
                  f"point{'' if abs(info.points) == 1 else 's'} ({info.reason})"
                  + (f", round {info.round}" if info.round is not None else "")
                  + f"; adjustment {info.id} (`--cancel {info.id}` takes it back)",
                  as_json, event=slug, **info.to_json())


def register(group: click.Group) -> None:
    group.add_command(result)
    group.add_command(standings)
