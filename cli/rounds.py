"""`tourney round ...`: seating rounds, showing and reseating them."""
from __future__ import annotations

import click

from tourney.app import rounds as actions
from tourney.engines import get_game
from tourney.engines.base import MAX_DEALS_PER_MATCH
from tourney.errors import SettingWay
from tourney.errors.counts import count_text
from tourney.errors.seats import seat_number, seat_text
from tourney.numbers import number_text
from tourney.ordering import terminal_language
from tourney.records.csv_format import COLUMNS, format_row, typed_record
from tourney.records.spreadsheets import (
    open_table,
    output_stream,
    score_sheet_words,
    table_format,
    write_score_sheet_xlsx,
)
from tourney.storage.db import reading, transaction
from tourney.tournament import rounds as service
from tourney.tournament.events import get_event
from tourney.tournament.sheets import OPEN_ENDED_ROWS, score_sheet_rows

from .completion import complete_event
from .database import db_option, open_db, refuse_overwrites
from .errors import advice_message
from .output import (
    COUNT,
    SEED,
    CommandGroup,
    base_url_option,
    change_report,
    delimited_flags,
    delimited_format,
    echo,
    emit_json,
    emit_jsonl,
    emit_table,
    encoding_option,
    json_option,
    message,
    replace_option,
    report_change,
    report_written,
    sheet_option,
    table_format_option,
)


@click.group("round", cls=CommandGroup)
def round_():
    """Seat an event's rounds at tables.

    \b
    Examples:
      tourney round seat club-1
      tourney round show club-1 2 --json
    """


WITHDREW = " (withdrew)"  # beside a seated player who no longer plays the round


def print_seating(seating: service.RoundSeating, title: str, variant: str) -> None:
    """A seat list to print and pin up: by table, then by name; a player who
    withdrew since the round was seated is marked (the round is to be reseated)."""
    gone = {(w.name, w.table) for w in seating.withdrawn}

    def shown(name: str, table: str | None) -> str:
        return name + (WITHDREW if (name, table) in gone else "")

    echo(title)
    echo("")
    for table in seating.tables:
        seats = [f"{seat_number(i)}. {shown(name, table.table)}"
                 for i, name in enumerate(table.seats)]
        echo(f"Table {table.table}:  " + "   ".join(seats))
    if seating.byes:
        echo("Bye:  " + ", ".join(shown(name, None) for name in seating.byes))
    if seating.absent:
        echo("Absent:  " + ", ".join(seating.absent))
    if seating.not_checked_in:
        echo("Not checked in (not seated):  " + ", ".join(seating.not_checked_in))
    if seating.checked_in_late:
        echo("Checked in after the seating (not seated):  " + ", ".join(seating.checked_in_late))
    echo("")
    echo("By name:")
    rows = seating.by_name(terminal_language())
    width = max((len(name) for name, _, _ in rows), default=0)
    for name, table, seat in rows:
        where = "bye" if table is None else f"table {table}, {seat_text(seat)}"
        echo(f"  {name.ljust(width)}  {where}"
             + (WITHDREW if (name, table) in gone else ""))
    echo("")
    echo(get_game(variant).vocabulary.seat_note)
    if seating.unmet:
        echo("")
        echo("Not met:")
        for unmet in seating.unmet:
            echo(f"  {unmet['message']}")


def seat_rows(seating: service.RoundSeating) -> list[list]:
    """The seating as rows (--csv, --tsv): table, seat (from 1), player and status
    (withdrew since the round was seated, bye, absent, not checked in, checked in
    after the seating)."""
    gone = {(w.name, w.table) for w in seating.withdrawn}
    rows = [[table.table, seat_number(index), name,
             "withdrew" if (name, table.table) in gone else ""]
            for table in seating.tables for index, name in enumerate(table.seats)]
    rows += [["", "", name, "bye, withdrew" if (name, None) in gone else "bye"]
             for name in seating.byes]
    rows += [["", "", name, "absent"] for name in seating.absent]
    rows += [["", "", name, "not checked in"] for name in seating.not_checked_in]
    rows += [["", "", name, "checked in after the seating"]
             for name in seating.checked_in_late]
    return rows


def warning_message(slug: str, warning: dict) -> str:
    """A seating warning (:func:`tourney.tournament.rounds.bye_warning`'s data) in
    the command line's words, naming the commands that would help."""
    worth = warning["bye_points"]
    sizes = (f"exactly {warning['table_min']}" if warning["table_min"] == warning["table_max"]
             else f"{warning['table_min']}-{warning['table_max']}")
    text = (f"{count_text(len(warning['players']), 'player')} get a bye, each worth "
            f"{number_text(worth)} point{'' if worth == 1 else 's'}: "
            f"{', '.join(warning['players'])} ({count_text(warning['seated'], 'player')} at "
            f"tables of {sizes})")
    helps = []
    if warning["table_sizes"] is not None:
        shown, left = warning["table_sizes"], warning["byes_left"]
        leaves = "seat everyone" if not left else f"leave {count_text(left, 'bye')}"
        helps.append(f"tables of {shown} {leaves}: `tourney event set {slug} "
                     f"--table-sizes {shown}`, then `tourney round reseat {slug} "
                     f"{warning['round']}`")
    if warning["bye_points_can_change"]:
        helps.append(f"a bye can be worth less: `tourney event set {slug} --bye-points X`")
    return text + ("; " + "; or ".join(helps) if helps else "")


def worded_warnings(slug: str, seating: service.RoundSeating) -> list[dict]:
    """The seating's warnings as --json gives them: the data and its message."""
    return [{**warning, "message": warning_message(slug, warning)}
            for warning in seating.warnings]


def seating_warnings(slug: str, seating: service.RoundSeating) -> None:
    for warning in seating.warnings:
        message(f"warning: {warning_message(slug, warning)}")


def pairs_message(repeated: int) -> str:
    return f"{repeated} pair{'s meet' if repeated != 1 else ' meets'} again"


def seating_change(action: str, changed: bool, summary: str, slug: str, seating) -> dict:
    """`round seat|reseat --json`: the seating as it always was (round, tables, byes,
    repeated_pairs) with the keys every changing command answers beside it; the
    details add the warnings (more than one bye) and, for a reseat, the players no
    longer entered (they withdrew before playing)."""
    details = {"event": slug, "round": seating.number,
               "warnings": worded_warnings(slug, seating)}
    if action == "round.reseat":
        details["no_longer_entered"] = list(seating.no_longer_entered)
    return {**seating.to_json(), "unmet": list(seating.unmet),
            **change_report(action, changed, summary, **details)}


def unmet_messages(seating: service.RoundSeating) -> None:
    """On stderr: the constraints the seating could not meet (the seat list on
    stdout lists them too, for the wall; a --json reader has them as "unmet")."""
    if seating.unmet:
        shown = [u["message"] for u in seating.unmet[:3]]
        more = len(seating.unmet) - len(shown)
        message(f"warning: {count_text(len(seating.unmet), 'seating constraint')} not met: "
                + "; ".join(shown) + (f"; and {more} more" if more > 0 else ""))


def report_seated(seating, event, action: str, what: str, as_json: bool) -> None:
    """A round just seated: the seat list (or its JSON change report) on stdout, and
    "SLUG: WHAT at N tables, B byes; repeated pairs" on stderr."""
    summary = (f"{event.slug}: {what} at {count_text(len(seating.tables), 'table')}"
               + (f", {count_text(len(seating.byes), 'bye')}" if seating.byes else "")
               + f"; {pairs_message(seating.repeated_pairs)}")
    if as_json:
        emit_json(seating_change(action, True, summary, event.slug, seating))
    else:
        print_seating(seating, f"{event.name}: round {seating.number}", event.variant)
    message(summary)


@round_.command("seat")
@click.argument("slug", shell_complete=complete_event)
@click.option("--force", is_flag=True,
              help="Seat even though some table of the previous round has no result.")
@json_option
@db_option
def seat(slug, force, as_json, db_url):
    """Seat the next round of an event and print the seat list.

    The players entered and not withdrawn are seated by the event's method, with
    every earlier round as history (few repeated meetings) and the standings so
    far. The next round is seated only when every table of the previous round has
    a result, unless --force.

    More than one bye (each worth a win unless the event says otherwise) is
    warned about on stderr, naming the players and what would help: other table
    sizes (`tourney event set SLUG --table-sizes`, then `tourney round reseat`)
    or, while it can still change, a bye worth less (--bye-points).

    \b
    JSON: {"round": N, "tables": [{"table": "1", "seats": [names, seat 1 first],
           "dealer": name}], "byes": [names], "repeated_pairs": K,
           "action": "round.seat", "changed": true, "summary": "...",
           "details": {"event": SLUG, "round": N, "warnings": [{"warning":
           "byes", "message": "...", "players": [names], "table_sizes":
           "3-4" or null, "bye_points_can_change": true}]},
           "unmet": [{"kind": "apart"|"fixed", "players": [names], "table": T,
           "reason", "club": name or null, "message": "..."}]}

    "unmet" lists the event's seating constraints (`tourney event set
    --keep-apart/--fix`) the seating could not meet, each with why; they are
    also printed under the seat list and warned about on stderr.

    \b
    Example:
      tourney round seat club-1 > round1.txt
    """
    engine = open_db(db_url)
    with transaction(engine) as session:
        event = get_event(session, slug)
        seating = actions.seat_next_round(session, event, force=force)
    report_seated(seating, event, "round.seat", f"round {seating.number} seated", as_json)
    seating_warnings(slug, seating)
    unmet_messages(seating)


@round_.command("show")
@click.argument("slug", shell_complete=complete_event)
@click.argument("number", type=COUNT, metavar="ROUND")
@delimited_flags
@json_option
@db_option
def show(slug, number, as_json, db_url):
    """Show the seating of a round (the same data as `round seat` printed).

    A player who withdrew after the round was seated, and is still seated at a
    table without a result (or has a bye), is marked "(withdrew)", and stderr
    says what to do: reseat the round (`tourney round reseat`), or, once some
    of its results are in, enter them again to play the table as seated.

    \b
    JSON: the seating as `round seat --json` has it, and "withdrawn": [{"name",
    "table" (null: a bye)}], "reseat": whether the round is to be reseated
    (it seats a player who withdrew, and none of its results is in), "unmet"
    (the seating constraints it breaks), "absent" (players marked absent from
    it), "not_checked_in" (players not seated because the event requires
    check-in and they have not checked in), "checked_in_late" (players not
    seated because they checked in only after the round was seated: a reseat
    seats them, else the next round), "forfeits": [{"round", "table", "absent":
    [names], "reason"}] (its forfeited tables, as `tourney result forfeit
    --list` gives them), "clock": {"started_at", "ends_at", "minutes",
    "seconds_left"} (all null until `tourney round start`; seconds_left negative
    once time is up). With a clock running, stderr says the time left. The
    organizer's page of `tourney serve` gives the same keys in its JSON.

    \b
    Example:
      tourney round show club-1 2
    """
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        event = get_event(session, slug)
        shown = actions.show_round(session, event, number)
    seating, clock = shown.seating, shown.clock
    note = service.withdrawn_note(seating, slug)
    if as_json:
        emit_json(shown.to_json())
    elif delimited_format():
        emit_table(["table", "seat", "player", "status"], seat_rows(seating))
    else:
        print_seating(seating, f"{event.name}: round {seating.number}", event.variant)
        for forfeit in shown.forfeits:
            echo(f"Table {forfeit.table} forfeited:  {', '.join(forfeit.absent)} did not play"
                 + (f" ({forfeit.reason})" if forfeit.reason else ""))
        if seating.tables:
            message(f"results in for {len(seating.results)} of "
                    f"{count_text(len(seating.tables), 'table')}")
        # a round whose every table is in has no time left to play: the clock's
        # countdown would only mislead (--json keeps the clock as it was set)
        if clock.started_at is not None and len(seating.results) < len(seating.tables):
            message(clock_text(clock))
    if note:
        message(advice_message(note))


@round_.command("reseat")
@click.argument("slug", shell_complete=complete_event)
@click.argument("number", type=COUNT, metavar="ROUND")
@click.option("--seed", type=SEED, help="Draw with this seed instead of the event's.")
@json_option
@db_option
def reseat(slug, number, seed, as_json, db_url):
    """Seat the latest round again, before any of its results is in (or a forfeit).

    Uses the players active now, so a late arrival or a withdrawal is taken into
    account (a player who withdrew before playing any round is then no longer
    entered). With the same players and seed the seating comes out the same;
    give --seed to draw again. More than one bye is warned about, as by
    `tourney round seat`.

    \b
    Examples:
      tourney event enter club-1 "Late Arrival" --from-round 1
      tourney round reseat club-1 1
    """
    engine = open_db(db_url)
    with transaction(engine) as session:
        event = get_event(session, slug)
        seating, changed = actions.reseat_round(session, event, number, seed=seed)
    summary = (f"{slug}: round {seating.number} reseated" if changed else
               f"{slug}: round {seating.number}: the seating is unchanged (same players, "
               "same seed); give --seed to draw again")
    summary += f"; {pairs_message(seating.repeated_pairs)}"
    if seating.no_longer_entered:
        summary += ("; no longer entered (withdrew before playing): "
                    + ", ".join(seating.no_longer_entered))
    if as_json:
        emit_json(seating_change("round.reseat", changed, summary, slug, seating))
    else:
        print_seating(seating, f"{event.name}: round {seating.number} (reseated)", event.variant)
    message(summary)
    seating_warnings(slug, seating)
    unmet_messages(seating)


reason_option = click.option(
    "--reason", metavar="TEXT",
    help="Why (kept in the audit log with who did it: `tourney log`).")


def change_text(change) -> str:
    """The summary line of a swap, move or substitute
    (:class:`tourney.tournament.seat_changes.SeatChange`)."""
    def where(place: dict) -> str:
        return "a bye" if place["table"] is None else \
            f"table {place['table']}, seat {place['seat']}"

    if change.action == "round.substitute":
        sub, out = change.moved
        done = (f"{change.event} round {change.number}: {sub['player']} takes the seat of "
                f"{out['player']} ({where(out['from'])})")
    elif change.action == "round.swap":
        a, b = change.moved
        done = (f"{change.event} round {change.number}: {a['player']} ({where(a['from'])}) "
                f"and {b['player']} ({where(b['from'])}) swapped")
    else:
        m = change.moved[0]
        done = (f"{change.event} round {change.number}: {m['player']} moved from "
                f"{where(m['from'])} to {where(m['to'])}")
    pairs = change.repeated_after
    done += (f"; {pairs} pair{'s meet' if pairs != 1 else ' meets'} again"
             f" (was {change.repeated_before})")
    if change.again:
        done += " (this change: " + ", ".join(" and ".join(p) for p in change.again) + ")"
    if change.forced:
        done += "; forced: " + "; ".join(str(actions.forced_size_words(size))
                                         for size in change.forced)
    return done


def clock_text(clock, now=None) -> str:
    """A round's clock (:class:`tourney.tournament.seat_changes.Clock`) in a line:
    ``time left: 23 min 05 s (ends 20:45 UTC)``, ``time is up: ended 4 min ago
    (20:45 UTC)``, ``no clock``."""
    from tourney.times import aware

    left = clock.seconds_left(now)
    if left is None:
        return "no clock"
    ends = aware(clock.ends_at).strftime("%H:%M UTC")
    if left >= 0:
        return f"time left: {left // 60} min {left % 60:02d} s (ends {ends})"
    return f"time is up: ended {(-left) // 60} min ago ({ends})"


def change_seats(db_url: str, slug: str, as_json: bool, make) -> None:
    """A swap, substitute or move: ``make(session, event)`` changes the seats in one
    transaction; then the summary on stderr, the new seat list (or, with --json,
    the change and the seating) on stdout."""
    with transaction(open_db(db_url)) as session:
        event = get_event(session, slug)
        change = make(session, event)
    summary = change_text(change)
    if as_json:
        emit_json({**change.seating.to_json(), "unmet": list(change.seating.unmet),
                   **change_report(change.action, True, summary, **change.to_json())})
    message(summary)
    unmet_messages(change.seating)
    if not as_json:
        print_seating(change.seating, f"{event.name}: round {change.number}", event.variant)


@round_.command("swap")
@click.argument("slug", shell_complete=complete_event)
@click.argument("number", type=COUNT, metavar="ROUND")
@click.argument("first", metavar="PLAYER")
@click.argument("second", metavar="PLAYER")
@reason_option
@json_option
@db_option
def swap(slug, number, first, second, reason, as_json, db_url):
    """Swap two players' seats in a seated round (tables without a result).

    The two trade table and seat (or a bye); no table's size changes. A table
    whose result is in, that was forfeited, or whose result sent from its link
    waits for the organizer is refused (exit 1). The summary says how many pairs
    meet again in the round (and which the swap makes meet again), and the
    seating constraints the round then breaks.

    \b
    JSON: the round's seating as `round show --json` has it, "unmet", and
          {"action": "round.swap", "changed", "summary", "details": {"event",
          "round", "moved": [{"player", "from": {"table", "seat"}, "to": {...}}],
          "repeated_pairs_before", "repeated_pairs", "meet_again": [[names]],
          "forced": [], "unmet"}}

    \b
    Example:
      tourney round swap club-1 2 "Anna Berg" "Bo Ek" --reason "spouses"
    """
    change_seats(db_url, slug, as_json, lambda session, event: actions.swap_players(
        session, event, number, first, second, reason=reason))


@round_.command("substitute")
@click.argument("slug", shell_complete=complete_event)
@click.argument("number", type=COUNT, metavar="ROUND")
@click.argument("out", metavar="PLAYER")
@click.argument("sub", metavar="SUBSTITUTE")
@reason_option
@json_option
@db_option
def substitute(slug, number, out, sub, reason, as_json, db_url):
    """Seat a substitute in a player's seat of a seated round (tables without a result).

    For a player who left, or withdrew after the round was seated: the
    substitute takes their table and seat. The substitute must be entered (from
    that round: `tourney event enter SLUG NAME --from-round N`) and not seated in
    the round already (then swap them). The player replaced keeps their entry:
    withdraw them too if they are gone for good. Refused at a table whose result
    is in, that was forfeited, or whose result waits in `tourney serve` (exit 1).

    \b
    JSON: as `round swap --json`, with "action": "round.substitute".

    \b
    Examples:
      tourney event enter club-1 "Ulla Ek" --from-round 2
      tourney round substitute club-1 2 "Bo Ek" "Ulla Ek" --reason "Bo was called away"
    """
    change_seats(db_url, slug, as_json, lambda session, event: actions.substitute_player(
        session, event, number, out, sub, reason=reason))


@round_.command("move")
@click.argument("slug", shell_complete=complete_event)
@click.argument("number", type=COUNT, metavar="ROUND")
@click.argument("player", metavar="PLAYER")
@click.option("--table", "table", required=True, metavar="T",
              help="The table to move to (the next number opens a new table).")
@click.option("--force", is_flag=True,
              help="Move even though a table's size leaves the event's table sizes "
                   "(the variant's own player counts hold all the same).")
@reason_option
@json_option
@db_option
def move(slug, number, player, table, force, reason, as_json, db_url):
    """Move a player of a seated round to another table (tables without a result).

    The player takes the last seat of table T; the players after them at their
    old table move up one seat. A table left below the event's smallest size
    (and not emptied), or joined beyond its largest, is refused (exit 1) unless
    --force. Tables played (a result in, a forfeit, a result waiting for the
    organizer) are refused as by `tourney round swap`. The summary says how
    many pairs meet again.

    \b
    JSON: as `round swap --json`, "action": "round.move"; "forced" lists the
    table sizes --force went past, each as data: {"size": "over" (more than the
    event's largest, "most"), "under" (fewer than its smallest, "least") or
    "left" (the table left keeps fewer than "least"), "table", "count"}.

    \b
    Examples:
      tourney round move club-1 2 "Late Arrival" --table 3
      tourney round move club-1 2 "Bo Ek" --table 4 --force --reason "wheelchair"
    """
    change_seats(db_url, slug, as_json, lambda session, event: actions.move_player(
        session, event, number, player, table, force=force, reason=reason))


@round_.command("absent")
@click.argument("slug", shell_complete=complete_event)
@click.argument("number", type=COUNT, metavar="ROUND")
@click.argument("player", metavar="PLAYER")
@click.option("--undo", is_flag=True, help="Take the absence back.")
@reason_option
@json_option
@db_option
def absent(slug, number, player, undo, reason, as_json, db_url):
    """Leave a player out of one round (not seated in it; back the next).

    ROUND is the next round to be seated (or a later one), or the latest
    seated round while none of its results is in: it is then to be reseated
    (`tourney round reseat`). Once a result of the round is in, the player's
    table is scored without them by `tourney result forfeit` instead (the
    refusal names it). An absent player scores nothing for the round (no bye).

    \b
    JSON: {"action": "round.absent", "changed", "summary", "details": {"event",
           "player", "round", "undo", "reseat": N or null}}

    \b
    Examples:
      tourney round absent club-1 3 "Bo Ek" --reason "away on the 3rd"
      tourney round absent club-1 3 "Bo Ek" --undo
    """
    engine = open_db(db_url)
    with transaction(engine) as session:
        event = get_event(session, slug)
        report = actions.mark_absent(session, event, number, player, undo=undo,
                                     reason=reason)
    if not report.changed:
        summary = (f"{slug}: {report.player} is not marked absent from round {number}"
                   if undo else f"{slug}: {report.player} is marked absent from round "
                   f"{number} already")
    elif undo:
        summary = f"{slug}: {report.player} plays round {number} after all"
    else:
        summary = f"{slug}: {report.player} absent from round {number}, back the next"
    report_change("round.absent" + (".undo" if undo else ""), report.changed, summary,
                  as_json, event=slug, **report.to_json())
    if report.reseat:
        message(f"round {report.reseat} is seated {'without' if undo else 'with'} them: "
                f"`tourney round reseat {slug} {report.reseat}` seats it again")


@round_.command("start")
@click.argument("slug", shell_complete=complete_event)
@click.argument("number", type=COUNT, metavar="ROUND")
@click.option("--minutes", type=click.IntRange(1, 24 * 60), metavar="M",
              help="The round's time, 1 to 1440 minutes, from now.")
@click.option("--stop", is_flag=True, help="Take the round's clock away (no time limit).")
@json_option
@db_option
def start(slug, number, minutes, stop, as_json, db_url):
    """Start the clock of the latest seated round: M minutes from now.

    `tourney round show` then says the time left, and the organizer's review
    in `tourney serve` marks a result sent after the end as late (it is taken
    all the same: the arbiter decides). Started again, the clock counts from
    now; --stop takes it away.

    \b
    JSON: {"action": "round.start", "changed": true, "summary", "details":
           {"event", "round", "started_at", "ends_at", "minutes", "seconds_left"}}

    \b
    Example:
      tourney round start club-1 2 --minutes 45
    """
    from tourney.errors import UsageError

    if stop == (minutes is not None):
        raise UsageError("give --minutes M to start the clock, or --stop to take it away",
                         setting="minutes")
    engine = open_db(db_url)
    with transaction(engine) as session:
        event = get_event(session, slug)
        clock = actions.start_clock(session, event, number, minutes, stop=stop)
    summary = (f"{slug} round {number}: clock stopped" if stop else
               f"{slug} round {number}: clock started, {minutes} min; {clock_text(clock)}")
    report_change("round.start" + (".stop" if stop else ""), True, summary, as_json,
                  event=slug, round=number, **clock.to_json())


@round_.command("import")
@click.argument("slug", shell_complete=complete_event)
@click.argument("number", type=COUNT, metavar="ROUND")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=True))
@click.option("--force", is_flag=True,
              help="Seat it even though the previous round has tables without a result, "
                   "or with tables outside the event's sizes (within the variant's).")
@sheet_option
@encoding_option
@json_option
@db_option
def import_(slug, number, file, force, sheet, encoding, as_json, db_url):
    """Seat a round as a file says: a club's own schedule (CSV or XLSX; - is stdin).

    The file has a header with `table` and `player` columns, and optionally
    `seat`: one row per player; a table's rows are seated in file order (or by
    `seat`, 1 dealing first); table `bye` gives a bye. ROUND is the next round
    to be seated, or the latest while none of its results is in (its seating
    is replaced). Every player who can play the round must be in the file once
    (`tourney round absent` leaves one out), and every table must seat the
    event's table sizes (--force: the variant's). Every problem is listed,
    each naming the file, line (or sheet and cell), column and player; any
    problem stores nothing (exit 1). What the seating breaks of the event's
    constraints is said, as for `tourney round seat`.

    \b
    Example file:
      table,seat,player
      1,1,Anna Berg
      1,2,Bo Ek
      ...

    \b
    JSON: as `round seat --json`, "action": "round.import"; refused: {"action":
          "round.import", "changed": false, "summary", "details": {"file",
          "error_count", "errors": [{"error", "file", "line", "column", "player",
          ...}]}}

    \b
    Example:
      tourney round import club-1 1 schedule-round1.xlsx
    """
    import sys

    from tourney.app.rounds import SeatingFileRejected, import_seating

    from .errors import INVALID, error_list

    engine = open_db(db_url)
    try:
        with transaction(engine) as session:
            event = get_event(session, slug)
            seating = import_seating(session, event, number, file, force=force, sheet=sheet,
                                     encoding=encoding)
    except SeatingFileRejected as rejected:
        from tourney.tournament.results import error_dict

        for line in error_list([], rejected.errors, rejected.error_count, rules=False):
            message(line)
        message(f"Error: {rejected}; the database is unchanged")
        if as_json:
            emit_json(change_report("round.import", False, str(rejected), file=rejected.file,
                                    error_count=rejected.error_count,
                                    errors=[error_dict(err) for err in rejected.errors]))
        sys.exit(INVALID)
    report_seated(seating, event, "round.import", f"round {number} seated from {file}", as_json)
    unmet_messages(seating)


@round_.command("sheet")
@click.argument("slug", shell_complete=complete_event)
@click.argument("number", type=COUNT, metavar="ROUND")
@click.option("--out", "out_path", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the sheet here instead of to stdout (- is stdout).")
@table_format_option
@click.option("--deals", type=click.IntRange(1, MAX_DEALS_PER_MATCH),
              help="Rows per table where the match has no fixed number of deals, "
                   f"1 to {MAX_DEALS_PER_MATCH} (default {OPEN_ENDED_ROWS}).")
@click.option("--force", is_flag=True,
              help="Write the sheet even though the round seats a player who withdrew "
                   "at a table still to be played (that table's result cannot be "
                   "imported as seated).")
@replace_option
@delimited_flags
@json_option
@db_option
def sheet(slug, number, out_path, format_, deals, force, yes, as_json, db_url):
    """Write a score-sheet template for a seated round (CSV or XLSX).

    One row per deal for every table, with event, variant, round, table, deal,
    players and dealer filled in and the scores column left for the scorer.
    Fill in each deal's scores (per seat, separated by ';') in a spreadsheet,
    save it (as XLSX, or CSV in any of the spreadsheet's CSV formats) and import
    it: `tourney result import sheet.xlsx`. Rows left completely empty (deals
    not played) are skipped. An existing --out file is replaced only with --yes
    (also one this command wrote before).

    The XLSX sheet prints on A4 with the header on every page, and checks what a
    spreadsheet can: one score per seat, the dealer one of the table's players
    (what the checks say is in the event's language).

    A round that seats a player who withdrew since it was seated is refused
    (exit 1) unless --force: reseat it first (`tourney round reseat`), since the
    import refuses that player's table as seated.

    With --json and --out, stdout gets what was written: {"action":
    "round.sheet", "file", "format", "tables", "rows"}; with --json and no --out,
    the sheet's rows, one JSON object per line.

    \b
    Examples:
      tourney round sheet club-1 2 --out round2-sheet.xlsx
      tourney round sheet club-1 2 --out round2-sheet.csv
    """
    refuse_overwrites(db_url, {"--out": out_path}, replace=yes)
    kind = table_format(out_path, format_)
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        event = get_event(session, slug)
        if not force:
            service.check_no_withdrawn(session, event, number, SettingWay("write-sheet-anyway"))
        rows = score_sheet_rows(session, event, number, deals=deals)
        tab, heading = score_sheet_words(event.name, number)
        event_slug, lang = event.slug, event.lang
    to_file = bool(out_path and out_path != "-")
    if as_json and not to_file:
        for record in rows:
            emit_jsonl(typed_record(format_row(record)))
    elif kind == "xlsx":
        from tourney.web.messages import file_renderer

        say = file_renderer(lang).message  # the tab, heading and checks in the event's language
        with output_stream(out_path, binary=True) as stream:
            write_score_sheet_xlsx(stream, rows, title=say(tab), heading=say(heading),
                                   say=say)
    else:
        with open_table(out_path, COLUMNS, format=kind) as table:
            for record in rows:
                fields = format_row(record)
                table.write([fields[c] for c in COLUMNS])
    if to_file:  # a score sheet's rows are its deals to fill in
        report_written(out_path, len(rows), "deal", as_json=as_json, action="round.sheet",
                       format=kind, event=event_slug, round=number,
                       tables=len({record.table for record in rows}), rows=len(rows))


def table_url(base_url: str, token: str) -> str:
    """A table's link: its path after ``base_url`` (the path alone without one)."""
    return f"{base_url.rstrip('/')}/t/{token}"


@round_.command("links")
@click.argument("slug")
@click.argument("number", type=COUNT, metavar="ROUND")
@base_url_option("each table's link")
@click.option("--force", is_flag=True,
              help="List the links even though the round seats a player who withdrew "
                   "at a table still to be played.")
@delimited_flags
@json_option
@db_option
def links(slug, number, base_url, force, as_json, db_url):
    """List each table's private link for entering its result (`tourney serve`).

    Each table of a seated round gets an unguessable link and a short code to
    type at BASE-URL/t (shown as 7AMQ-7AXW, as on the printed QR page; typed with
    or without the dash); made the first time they are asked for, the same after.
    A link takes results only for its own table, while its round is the latest.
    A round that seats a player who withdrew since it was seated is refused
    (exit 1) unless --force: reseat it first (`tourney round reseat`).
    --base-url is optional, as for `tourney player links`: without it each link
    is its path (/t/TOKEN), to follow the server's address; the organizer's page
    of `tourney serve` prints them in full, with a QR code each.

    \b
    JSON (like `round show --json`: the round and its tables, each with its link):
      {"event": SLUG, "round": ROUND, "open": true,
       "tables": [{"table": "1", "url": "...", "code": "K7QM-4RXP"}]}
    (the code as shown; the server takes it with or without the dash). A closed
    round's links (a later round seated, or closed by the organizer) are listed
    with a note on stderr that they take no results ("open": false).

    \b
    Examples:
      tourney round links club-1 2 --base-url http://192.168.1.10:8000
      tourney round links club-1 2 --json
    """
    from tourney.app.tables import round_closed, round_links
    from tourney.tournament.table_links import display_code

    engine = open_db(db_url)
    with transaction(engine) as session:
        event = get_event(session, slug)
        if not force:
            service.check_no_withdrawn(session, event, number, SettingWay("list-links-anyway"))
        made = round_links(session, event, number)
        closed = round_closed(session, event, number, made)
        rows = [{"table": link.table, "url": table_url(base_url, link.token),
                 "code": display_code(link.code)} for link in made]
    if closed is not None:
        why = ("a later round is seated" if closed == "later-round"
               else "the organizer closed it")
        message(f"note: round {number} of {slug} is closed ({why}): its links take no "
                "results")
    if as_json:
        emit_json({"event": slug, "round": number, "open": closed is None, "tables": rows})
        return
    if delimited_format():
        emit_table(["table", "code", "url"], [[r["table"], r["code"], r["url"]] for r in rows])
        return
    for row in rows:
        echo(f"table {row['table']}  {row['code']}  {row['url']}")


def register(group: click.Group) -> None:
    group.add_command(round_, name="round")
