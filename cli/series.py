"""`tourney series ...` and `tourney team ...`: a season's standings over events,
handicaps, and teams from the same tables (also `tourney standings SLUG --teams`)."""
from __future__ import annotations

import click

from tourney.app import series as actions
from tourney.errors.counts import count_text
from tourney.errors.words import quoted
from tourney.numbers import column_decimals, fixed_text, number_text, plain_number
from tourney.records.spreadsheets import open_table, table_format
from tourney.storage.db import reading, transaction
from tourney.tournament.season import DEFAULT_PLACING, SCORING, points_decimals
from tourney.tournament.standings import place_text
from tourney.tournament.teams import TEAM_KINDS

from .completion import complete_event, complete_player
from .database import db_option, open_db, refuse_overwrites
from .output import (
    COUNT,
    SEED,
    CommandGroup,
    confirm,
    delimited_flags,
    deprecated_option,
    echo,
    emit_json,
    emit_table,
    json_option,
    message,
    name_order_option,
    refuse_delimited_unless,
    replace_option,
    report_change,
    report_written,
    table_format_option,
    table_out_option,
    yes_option,
)

PLACING_HELP = ("Placing scoring's points of place 1, 2, 3..., comma-separated (default: "
                + ",".join(str(p) for p in DEFAULT_PLACING) + "); a place past the end gets 0.")
teams_option = click.option(
    "--teams", type=click.Choice(list(TEAM_KINDS)),
    help="Team standings instead: club (the players' clubs) or declared (`tourney team "
         "add`).")
count_option = click.option(
    "--count", type=COUNT, metavar="N",
    help="With --teams: a team's best N players count (default: all of them).")


# How a series' standings order the players (tourney.tournament.season.series_table),
# as `series standings` says it under the table
SERIES_ORDER = ("the total of the events counted (net with handicaps), higher first",
                "events played, more first",
                "the best single result, then the second best, and so on",
                "a drawing of lots seeded by the series' seed")


def series_summary(standings) -> str:
    """What a series' standings count, in a line
    (:class:`tourney.tournament.series.SeriesStandings`)."""
    info = standings.series
    counts = (f"best {count_text(info.best, 'event')} count" if info.best
              else "every event counts")
    qualify = (f"; {count_text(info.min_events, 'event')} to qualify"
               if info.min_events else "")
    return f"{info.scoring} scoring; {counts}{qualify}"


def teams_summary(table) -> str:
    """What team standings count, in a line
    (:class:`tourney.tournament.teams.TeamStandings`)."""
    counts = (f"the best {count_text(table.count, 'player')} of a team count"
              if table.count else "every player of a team counts")
    left = (f"; {count_text(table.left_out, 'player')} with no "
            f"{'club' if table.teams == 'club' else 'team'} left out") if table.left_out else ""
    kind = "club" if table.teams == "club" else "declared team (team add)"
    unqualified = (f"; {count_text(table.unqualified, 'player')} counted not qualified yet "
                   "(qualifying decides a player's own place only)") if table.unqualified else ""
    return f"teams by {kind}; {counts}{left}{unqualified}"


@click.group("series", cls=CommandGroup)
def series():
    """A season: events whose standings add up (best N, placing points, handicaps).

    A series names its events; its standings are computed from the events' own
    standings whenever they are shown, so a corrected result changes the series
    at once. Events of different games may form one series.

    \b
    Examples:
      tourney series create club-2025 --name "Club champion 2025" --best 8 --min-events 5
      tourney series add club-2025 club-01 club-02 club-03
      tourney series standings club-2025
      tourney series standings club-2025 --out club-2025.xlsx
      tourney series handicap club-2025 "Anna Berg" 1.5
    """


@series.command("create")
@click.argument("slug")
@click.option("--name", help="The series' title (default: the slug).")
@click.option("--best", type=COUNT, metavar="N",
              help="A player's best N events count (default: every event).")
@click.option("--min-events", type=click.IntRange(0, 1000), metavar="N",
              help="Events a player must play to qualify (default 0). Players with fewer "
                   "are shown after the qualified ones, without a place.")
@click.option("--scoring", type=click.Choice(list(SCORING)),
              help="What an event gives a player: points (the event's standings points, "
                   "the default) or placing (points for the place, --placing-points).")
@click.option("--placing-points", "placing", metavar="LIST", help=PLACING_HELP)
@click.option("--handicap", is_flag=True,
              help="Rank by net points: each event counted plus the player's handicap "
                   "(`tourney series handicap`); gross is shown beside.")
@click.option("--seed", type=SEED, help="Seed of the drawing of lots, the last tie-break "
                                        "(default: from the slug).")
@json_option
@db_option
def create(slug, name, best, min_events, scoring, placing, handicap, seed, as_json, db_url):
    """Create a series (a season); add its events with `series add`.

    Order of the standings: the total (net with --handicap), then events played
    (more first), then countback (best single result, then the second best...),
    then a drawing of lots seeded by --seed.

    \b
    Examples:
      tourney series create club-2025 --best 8 --min-events 5
      tourney series create league --scoring placing --placing-points 25,18,15,12,10
    """
    engine = open_db(db_url)
    with transaction(engine) as session:
        created = actions.create_series(session, slug, name=name, best=best,
                                        min_events=min_events, scoring=scoring,
                                        placing=placing, handicap=handicap, seed=seed)
        data = actions.describe_series(session, created)
    report_change("series.create", True, f"created series {slug}: {settings_text(data)}",
                  as_json, **data)


def settings_text(data: dict) -> str:
    """A series' settings in words (as `series show` and `series create` say them)."""
    parts = [f"{data['scoring']} scoring"]
    if data["scoring"] == "placing":
        parts[0] += " (" + ",".join(number_text(p) for p in data["placing_points"]) + ")"
    parts.append(f"best {count_text(data['best'], 'event')} count" if data["best"]
                 else "every event counts")
    if data["min_events"]:
        parts.append(f"{count_text(data['min_events'], 'event')} to qualify")
    if data["handicap"]:
        parts.append("ranked by net points (handicaps)")
    return ", ".join(parts)


@series.command("set")
@click.argument("slug")
@click.option("--name", help="The series' title.")
@click.option("--best", type=COUNT, metavar="N", help="A player's best N events count.")
@click.option("--min-events", type=click.IntRange(0, 1000), metavar="N",
              help="Events a player must play to qualify.")
@click.option("--scoring", type=click.Choice(list(SCORING)), help="points or placing.")
@click.option("--placing-points", "placing", metavar="LIST", help=PLACING_HELP)
@click.option("--handicap/--no-handicap", default=None,
              help="Rank by net points (handicaps) or by gross.")
@click.option("--seed", type=SEED, help="Seed of the drawing of lots.")
@click.option("--unset", "unset", multiple=True, type=click.Choice(["best"]),
              help="best: every event counts again.")
@json_option
@db_option
def set_(slug, name, best, min_events, scoring, placing, handicap, seed, unset, as_json,
         db_url):
    """Change a series' settings, at any time (the standings follow at once).

    \b
    JSON: {"action": "series.set", "changed", "summary", "details": {"series",
           "changes": {SETTING: {"before", "after"}}}}

    \b
    Example:
      tourney series set club-2025 --best 10 --min-events 6
    """
    engine = open_db(db_url)
    with transaction(engine) as session:
        row = actions.get_series(session, slug)
        changes = actions.change_series(session, row, name=name, best=best,
                                        min_events=min_events, scoring=scoring,
                                        placing=placing, handicap=handicap, seed=seed,
                                        unset=unset)
        kept = actions.kept_placing(row)
        # handicaps turned on in a series with events of another game: said, as
        # `series add` says it of such an event added
        warning = (actions.no_handicap_warning(row, actions.series_events(session, row))
                   if changes.get("handicap", (None, False))[1] else None)
    if changes:
        summary = f"{slug}: " + "; ".join(f"{k.replace('_', ' ')}: {_value(a)} (was {_value(b)})"
                                          for k, (b, a) in changes.items())
        if changes.get("scoring", (None, None))[1] == "points" and kept:
            summary += (f"; its placing points ({_value(kept)}) are kept for placing "
                        "scoring")
    else:
        summary = f"{slug}: nothing changed (it has these settings already)"
    report_change("series.set", bool(changes), summary, as_json, series=slug,
                  changes={k: {"before": b, "after": a} for k, (b, a) in changes.items()},
                  warnings=[warning.to_json()] if warning else [])
    if warning:
        message(f"warning: {warning.text}")


def _value(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ",".join(number_text(v) for v in value)
    return str(value)


@series.command("delete")
@click.argument("slug")
@yes_option
@json_option
@db_option
def delete(slug, yes, as_json, db_url):
    """Delete a series with its handicaps and declared teams (its events stay).

    \b
    Example:
      tourney series delete club-2025 --yes
    """
    engine = open_db(db_url)
    with reading(engine) as session:
        actions.get_series(session, slug)
    confirm(f"Delete series {slug}?", yes)
    with transaction(engine) as session:
        report = actions.delete_series(session, actions.get_series(session, slug))
    report_change("series.delete", True,
                  f"deleted series {slug} ({count_text(len(report['events']), 'event')} "
                  "stay); `tourney log` keeps its settings", as_json, **report)


@series.command("add")
@click.argument("slug")
@click.argument("events", nargs=-1, required=True, metavar="EVENT...",
                shell_complete=complete_event)
@json_option
@db_option
def add(slug, events, as_json, db_url):
    """Add events to a series: each is a column of its standings, in the order added.

    \b
    Example:
      tourney series add club-2025 club-01 club-02
    """
    engine = open_db(db_url)
    with transaction(engine) as session:
        report = actions.add_events(session, actions.get_series(session, slug), events)
    summary = (f"{slug}: added {', '.join(report.changed)}" if report.changed
               else f"{slug}: nothing changed")
    if report.unchanged:
        summary += f" ({', '.join(report.unchanged)} already in)"
    report_change("series.add", bool(report.changed), summary, as_json, **report.to_json())
    series_warnings(report)


@series.command("remove")
@click.argument("slug")
@click.argument("events", nargs=-1, required=True, metavar="EVENT...",
                shell_complete=complete_event)
@json_option
@db_option
def remove(slug, events, as_json, db_url):
    """Take events out of a series (the events themselves stay).

    \b
    Example:
      tourney series remove club-2025 club-03
    """
    engine = open_db(db_url)
    with transaction(engine) as session:
        report = actions.remove_events(session, actions.get_series(session, slug), events)
    summary = (f"{slug}: removed {', '.join(report.changed)}" if report.changed
               else f"{slug}: nothing changed")
    if report.unchanged:
        summary += f" ({', '.join(report.unchanged)} not in it)"
    report_change("series.remove", bool(report.changed), summary, as_json, **report.to_json())
    series_warnings(report)


def series_warnings(report) -> None:
    """A series change's warnings (:class:`tourney.tournament.series.SeriesWarning`),
    one a line on standard error (in --json too: under ``warnings``)."""
    for warning in report.warnings:
        message(f"warning: {warning.text}")


@series.command("list")
@delimited_flags
@json_option
@db_option
def list_(as_json, db_url):
    """List the series: settings and number of events.

    \b
    Example:
      tourney series list
    """
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        rows = actions.list_series(session)
    if as_json:
        emit_json(rows)
        return
    emit_table(["slug", "name", "events", "scoring", "best", "min events", "handicap"],
               [[r["slug"], r["name"], r["events"], r["scoring"], r["best"] or "all",
                 r["min_events"], "yes" if r["handicap"] else "no"] for r in rows])


@series.command("show")
@click.argument("slug")
@json_option
@db_option
def show(slug, as_json, db_url):
    """Show a series: its settings, events, handicaps and declared teams.

    \b
    Example:
      tourney series show club-2025 --json
    """
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        data = actions.describe_series(session, actions.get_series(session, slug))
    if as_json:
        emit_json(data)
        return
    echo(f"{data['name']} ({data['slug']})")
    echo(settings_text(data))
    echo(f"events: {len(data['events'])}")
    for event in data["events"]:
        echo(f"  {event['slug']}: {event['name']}, {event['variant']}"
             + (f", {event['date']}" if event["date"] else ""))
    if data["handicaps"]:
        echo("handicaps:")
        for row in data["handicaps"]:
            echo(f"  {row['player']}: {number_text(row['handicap'])} ({row['source']})")
    if data["teams"]:
        echo("teams: " + ", ".join(f"{t['team']} ({t['players']})" for t in data["teams"]))


@series.command("handicap", context_settings={"ignore_unknown_options": True})
@click.argument("slug")
@click.argument("player", required=False, shell_complete=complete_player)
@click.argument("value", required=False)
@click.option("--undo", is_flag=True, help="Take PLAYER's handicap back.")
# --remove ID takes an adjustment back in `result adjust` (now --cancel ID)
@deprecated_option("--remove", "--undo", "old_undo", is_flag=True)
@click.option("--from-rating", is_flag=True,
              help="Derive every entrant's handicap from their rating (the rule above).")
@click.option("--variant", metavar="ID",
              help="With --from-rating: the rating pool; only the series' game (its "
                   "first event's), which is the default.")
@click.option("--factor", type=float, metavar="X",
              help=f"With --from-rating: points per rating point (default "
                   f"{actions.DEFAULT_FACTOR:g}).")
@delimited_flags
@json_option
@db_option
def handicap(slug, player, value, undo, old_undo, from_rating, variant, factor, as_json,
             db_url):
    """Set a player's handicap in a series, derive them from the ratings, or list them.

    A handicap is points added to each event counted of the series' game (its
    first event's; an event of another game counts without it): net = gross +
    handicap x those events counted. A series ranks by net with --handicap
    (`series create`, `series set`). With no PLAYER the handicaps are listed.

    --from-rating sets each entrant's handicap to FACTOR x (best rating - the
    player's rating), rounded to 2 decimals: a rating is the displayed one (`tourney
    rating show`) in the pool of the series' game, "best" the highest among the
    series' rated entrants (who gets 0). Unrated entrants keep theirs. A handicap
    set by hand afterwards wins until the next --from-rating.

    \b
    Examples:
      tourney series handicap club-2025 "Anna Berg" 1.5
      tourney series handicap club-2025 "Anna Berg" --undo
      tourney series handicap club-2025 --from-rating --factor 0.2
      tourney series handicap club-2025 --json
    """
    from tourney.errors import InvalidValue, UsageError

    undo = undo or old_undo
    refuse_delimited_unless(not from_rating, "name no PLAYER and no --from-rating")
    if from_rating:
        if player or value or undo:
            raise UsageError("--from-rating sets every entrant's handicap: name no player")
        engine = open_db(db_url)
        with transaction(engine) as session:
            report = actions.derive_handicaps(session, actions.get_series(session, slug),
                                              variant=variant, factor=factor)
        unrated = (f"; unrated (kept as they were): {', '.join(report.unrated)}"
                   if report.unrated else "")
        report_change("series.handicap", bool(report.changes),
                      f"{slug}: {count_text(len(report.handicaps), 'handicap')} from the "
                      f"{report.variant} ratings (factor {report.factor:g}), "
                      f"{len(report.changes)} changed{unrated}",
                      as_json, **report.to_json())
        return
    if variant is not None or factor is not None:
        raise UsageError("--variant and --factor go with --from-rating")
    refuse_delimited_unless(player is None, "name no PLAYER")
    if player is None:
        if undo:
            raise UsageError("--undo needs the PLAYER whose handicap to take back")
        engine = open_db(db_url, read_only=True)
        with reading(engine) as session:
            rows = actions.handicap_list(session, actions.get_series(session, slug))
        if as_json:
            emit_json(rows)
            return
        emit_table(["player", "handicap", "set by"],
                   [[r["player"], number_text(r["handicap"]), r["source"]] for r in rows])
        return
    if undo == (value is not None):
        raise UsageError("give the handicap VALUE, or --undo" if not undo
                         else "--undo takes no VALUE")
    number = None
    if value is not None:
        try:
            number = float(value)
        except ValueError:
            raise UsageError(f"a handicap is a number of points, not {quoted(value).english()}") from None
    engine = open_db(db_url)
    try:
        with transaction(engine) as session:
            changes = actions.set_handicaps(session, actions.get_series(session, slug),
                                            {player: number})
    except InvalidValue as err:
        if err.field != "handicap":
            raise
        # the VALUE argument was wrong, not the series' --handicap flag
        raise UsageError(err.describe("the handicap VALUE")) from None
    if changes:
        name, (before, after) = next(iter(changes.items()))
        summary = (f"{slug}: {name}'s handicap removed (was {_value(before)})" if after is None
                   else f"{slug}: {name}'s handicap {_value(after)} (was {_value(before)})")
    else:
        summary = f"{slug}: nothing changed ({player} has this handicap already)"
    report_change("series.handicap", bool(changes), summary, as_json, series=slug,
                  changes={p: {"before": b, "after": a} for p, (b, a) in changes.items()})


@series.command("standings")
@click.argument("slug")
@teams_option
@count_option
@name_order_option
@table_format_option
@table_out_option
@replace_option
@delimited_flags
@json_option
@db_option
def standings(slug, teams, count, lang, format_, out, yes, as_json, db_url):
    """Show a series' standings: one column per event, dropped events in brackets.

    Each event gives a player who played it (a match or a bye) its points in the
    event's standings (scoring points) or the points of their place there
    (scoring placing). A player's best N events count (--best of the series);
    the others are dropped, shown in brackets ("-": not played). With handicaps
    the net total (gross + handicap for each event counted) ranks, gross beside
    it. Players short of --min-events are listed after the qualified ones,
    without a place. Order: total, then events played, then countback (best
    single result, then the second best...), then a drawing of lots.

    --teams club|declared gives the team standings (a player's series total
    counts for their team; --count N: a team's best N players). Teams level on
    total and countback share a place, listed by name as --lang sorts names
    (default: the terminal's language).

    \b
    Examples:
      tourney series standings club-2025
      tourney series standings club-2025 --json
      tourney series standings club-2025 --out club-2025.xlsx
      tourney series standings club-2025 --teams club --count 3
    """
    show_standings(slug, teams=teams, count=count, lang=lang, format_=format_, out=out,
                   yes=yes, as_json=as_json, db_url=db_url, kind="series")


def is_series(db_url, slug: str) -> bool:
    """Whether ``slug`` names a series (`tourney standings SLUG` shows it then)."""
    from tourney.tournament.series import find_series

    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        return find_series(session, slug) is not None


def show_standings(slug, *, teams, count, lang, format_, out, yes, as_json, db_url,
                   kind) -> None:
    """The series' standings (``kind`` series) or team standings of an event or
    series, on the terminal, as JSON or to a CSV/XLSX file; ties by name sorted as
    ``lang`` sorts names."""
    from tourney.errors import UsageError

    if count is not None and teams is None:
        raise UsageError("--count goes with --teams (a team's best N players count)")
    refuse_overwrites(db_url, {"--out": out}, replace=yes)
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        if teams is not None:
            table = actions.team_standings(session, slug, teams, count=count, lang=lang)
            if kind == "series" and table.kind != "series":
                actions.get_series(session, slug)  # names the unknown series
        else:
            table = actions.series_standings(session, actions.get_series(session, slug),
                                             lang=lang)
    if teams is not None:
        _emit_teams(table, format_=format_, out=out, as_json=as_json)
    else:
        _emit_series(table, format_=format_, out=out, as_json=as_json)


def _emit_series(table, *, format_, out, as_json) -> None:
    info, rows, slugs = table.series, table.rows, table.slugs
    to_file = bool(out and out != "-")
    if as_json and not to_file:
        emit_json(table.to_json())
        return
    net = info.handicap
    cells = [[row.cells[i] for row in rows] for i in range(len(slugs))]
    columns = {slug: [float(c.value) if c is not None else None for c in column]
               for slug, column in zip(slugs, cells)}
    totals = {"gross" if net else "total": [float(r.gross) for r in rows]}
    if net:
        totals["handicap"] = [float(r.handicap) for r in rows]
        totals["net"] = [float(r.net) for r in rows]
    # one precision for every points column (events, gross, handicap, net)
    decimals = dict.fromkeys([*columns, *totals], points_decimals(rows))
    if format_ or out:
        headers = ["place", "player", "qualified", "events played", "events counted",
                   *slugs, *totals, "dropped", "decided by"]
        with open_table(out, headers, format=format_, title=f"{info.slug} series",
                        widths=[7, 30, 10, 8, 8, *[10] * len(slugs), *[9] * len(totals), 24, 12],
                        decimals=[None] * 5 + [decimals[n] for n in [*slugs, *totals]]
                        + [None, None]) as writer:
            for index, row in enumerate(rows):
                writer.write([
                    row.place, row.player, "yes" if row.qualified else "no", row.played,
                    row.counted,
                    *[None if columns[s][index] is None else plain_number(columns[s][index])
                      for s in slugs],
                    *[plain_number(values[index]) for values in totals.values()],
                    ", ".join(s for s, c in zip(slugs, row.cells)
                              if c is not None and not c.counted),
                    row.decided_by or ""])
        report_written(out, len(rows), "player", as_json=as_json, action="series.standings",
                       format=table_format(out, format_), series=info.slug, players=len(rows))
        return

    def cell_text(slug, cell):
        if cell is None:
            return "-"
        text = fixed_text(cell.value, decimals[slug])
        return text if cell.counted else f"({text})"

    headers = ["place", "player", "events", *slugs, *totals, "decided by"]
    emit_table(headers, [
        [row.place if row.place is not None else "-", row.player, row.played,
         *[cell_text(s, c) for s, c in zip(slugs, row.cells)],
         *[fixed_text(values[i], decimals[name]) for name, values in totals.items()],
         row.decided_by or ""] for i, row in enumerate(rows)])
    message(f"{info.slug}: {series_summary(table)}")
    if any(c is not None and not c.counted for row in rows for c in row.cells):
        message("(x): a dropped event (not among the best counted); -: not played")
    if net:
        message("net = gross + handicap x events counted of the series' game; the net "
                "total ranks")
        if table.without_handicap:
            message(f"without a handicap: {', '.join(e.slug for e in table.without_handicap)} "
                    f"(not {table.handicap_game}, the game the handicaps are for)")
    if any(not row.qualified for row in rows):
        message(f"place -: not qualified (fewer than {count_text(info.min_events, 'event')} "
                "played)")
    message("order: " + "; then ".join(SERIES_ORDER))


def _emit_teams(table, *, format_, out, as_json) -> None:
    rows = table.rows
    to_file = bool(out and out != "-")
    if as_json and not to_file:
        emit_json(table.to_json())
        return
    totals = [float(r.total) for r in rows]
    # the totals and the players' points counted read with one number of decimals
    # (22.60 and 1.00, as the series' columns read), not each its own (22.6 and 1)
    decimals = counted_decimals = column_decimals(
        totals + [float(v) for r in rows for _, v in r.counted])

    def counted_text(row, sep: str) -> str:
        return sep.join(f"{p} {fixed_text(v, counted_decimals)}" for p, v in row.counted)

    if format_ or out:
        with open_table(out, ["place", "team", "total", "players", "counted", "shared",
                              "decided by"], format=format_, title=f"{table.scope} teams",
                        widths=[7, 30, 9, 8, 60, 8, 12],
                        decimals=[None, None, decimals, None, None, None, None]) as writer:
            for row in rows:
                writer.write([row.place, row.team, plain_number(row.total), row.players,
                              counted_text(row, "; "),
                              "yes" if row.shared else "", row.decided_by or ""])
        report_written(out, len(rows), "team", as_json=as_json, action="team.standings",
                       format=table_format(out, format_), scope=table.scope,
                       teams=table.teams, players_counted=table.count)
        return
    emit_table(["place", "team", "total", "players", "counted", "decided by"], [
        [place_text(row.place, row.shared), row.team,
         fixed_text(row.total, decimals), row.players,
         counted_text(row, ", "), row.decided_by or ""]
        for row in rows])
    message(f"{table.scope}: {teams_summary(table)}")


# ------------------------------------------------------------------------ teams

@click.group("team", cls=CommandGroup)
def team():
    """Declared teams of an event or a series (team standings: `tourney standings
    SLUG --teams declared`).

    \b
    Examples:
      tourney team add club-2025 "North" "Anna Berg" "Bo Ek"
      tourney team list club-2025
      tourney team remove club-2025 "North" "Bo Ek"
    """


@team.command("add")
@click.argument("slug")
@click.argument("team_name", metavar="TEAM")
@click.argument("players", nargs=-1, required=True, metavar="PLAYER...",
                shell_complete=complete_player)
@json_option
@db_option
def team_add(slug, team_name, players, as_json, db_url):
    """Add players to a declared team of an event or series (made on first use).

    A player plays for one team of an event or series.

    \b
    Example:
      tourney team add club-2025 "North" "Anna Berg" "Bo Ek"
    """
    engine = open_db(db_url)
    with transaction(engine) as session:
        report = actions.add_members(session, slug, team_name, players)
    summary = (f"{slug}: {report['team']}: added {', '.join(report['added'])}"
               if report["added"] else f"{slug}: {report['team']}: nothing changed")
    if report["already"]:
        summary += f" ({', '.join(report['already'])} in it already)"
    report_change("team.add", bool(report["added"]), summary, as_json, **report)


@team.command("remove")
@click.argument("slug")
@click.argument("team_name", metavar="TEAM")
@click.argument("players", nargs=-1, metavar="[PLAYER]...", shell_complete=complete_player)
@name_order_option
@json_option
@db_option
def team_remove(slug, team_name, players, lang, as_json, db_url):
    """Take players out of a declared team, or remove the team (no PLAYER).

    \b
    Examples:
      tourney team remove club-2025 "North" "Bo Ek"
      tourney team remove club-2025 "North"
    """
    engine = open_db(db_url)
    with transaction(engine) as session:
        report = actions.remove_members(session, slug, team_name, players, lang=lang)
    summary = (f"{slug}: removed team {team_name}" if report["team_removed"]
               else f"{slug}: {team_name}: removed {', '.join(report['removed'])}")
    report_change("team.remove", True, summary, as_json, **report)


@team.command("list")
@click.argument("slug")
@name_order_option
@delimited_flags
@json_option
@db_option
def team_list(slug, lang, as_json, db_url):
    """List the declared teams of an event or series with their players.

    \b
    Example:
      tourney team list club-2025
    """
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        rows = actions.list_teams(session, slug, lang=lang)
    if as_json:
        emit_json(rows)
        return
    emit_table(["team", "players", "names"],
               [[r["team"], len(r["players"]), ", ".join(r["players"])] for r in rows])


def register(group: click.Group) -> None:
    group.add_command(series)
    group.add_command(team)
