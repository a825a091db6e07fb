"""`tourney event ...`: creating events, listing and showing them, entering players."""
from __future__ import annotations

import click

from tourney.app import events as actions
from tourney.errors.counts import count_text
from tourney.numbers import number_text
from tourney.storage.db import reading, transaction
from tourney.tournament import events as service
from tourney.tournament.scoring import (
    MAX_BYE_POINTS,
    POINTS_SYSTEMS,
    big_table_bias,
    event_bye_points,
)
from tourney.tournament.standings import DEFAULT_TIEBREAKS, TIEBREAKS

from .completion import complete_event, complete_player, complete_variant
from .database import db_option, open_db, starting_db
from .errors import lookalike_message
from .output import (
    ROUND_NUMBER,
    SEED,
    CommandGroup,
    confirm,
    delimited_flags,
    echo,
    emit_json,
    emit_table,
    json_option,
    message,
    parse_rules,
    report_change,
    rule_option,
    yes_option,
)

TIEBREAKS_HELP = ("The standings' tie-breaks, comma-separated, in order: "
                  + ", ".join(TIEBREAKS) + f" (default: {','.join(DEFAULT_TIEBREAKS)}; "
                  "the guide's scoring page says what each is).")

@click.group("event", cls=CommandGroup)
def event():
    """Create events and enter players in them.

    An event's settings change with `event set` while that is safe (its help
    says when), and an event created by mistake is removed with `event delete`
    while it has no results.

    \b
    Examples:
      tourney event create club-1 --variant spardame --rounds 4 --date 2024-03-02
      tourney event set club-1 --rule deals=4
      tourney event enter club-1 --all
      tourney event show club-1
      tourney event delete club-x --yes
    """


# What each points system (tourney.tournament.scoring.POINTS_SYSTEMS) is, as `event
# show` and `standings` say it
POINTS_SYSTEM_WORDS = {
    "share": "the share of the table's other players finished ahead of, a shared "
             "place counting half (0 to 1 per match at any table size)",
    "place": "n-1 points for first place at a table of n down to 0 for last",
}


@event.command("create")
@click.argument("slug", shell_complete=complete_event)
@click.option("--variant", shell_complete=complete_variant, required=True, metavar="ID",
              help="The variant played (`tourney variants` lists them).")
@click.option("--name", help="The event's title (default: the slug).")
@click.option("--date", metavar="YYYY-MM-DD", help="The day it is played.")
@rule_option
@click.option("--table-sizes", metavar="N|MIN-MAX",
              help="Players per table: 4, or a range such as 3-5 "
                   "(default: every count the variant allows).")
@click.option("--rounds", type=click.IntRange(1, service.MAX_ROUNDS),
              help=f"The number of rounds, 1 to {service.MAX_ROUNDS} (default: open-ended).")
@click.option("--seating", type=click.Choice(service.SEATING_METHODS),
              help="How rounds are seated (default: swiss for two-player tables, "
                   "else balanced).")
@click.option("--seed", type=SEED, help="Seed of the seating draws (default: from the slug).")
@click.option("--tiebreaks", metavar="LIST", help=TIEBREAKS_HELP)
@click.option("--lang", type=click.Choice(service.LANGUAGES),
              help="Language of the event's pages.")
@click.option("--points", type=click.Choice(list(POINTS_SYSTEMS)),
              help="Match points: share (default: the share of the table's other "
                   "players finished ahead of, 0 to 1 at any table size) or place "
                   "(n-1 for first at a table of n, 0 for last).")
@click.option("--bye-points", type=click.FloatRange(0, MAX_BYE_POINTS), metavar="X",
              help="What a bye is worth (default: a win's worth: 1 with share "
                   "points, n-1 at the preferred table size with place points).")
@json_option
@db_option
def create(slug, variant, name, date, rules, table_sizes, rounds, seating, seed,
           tiebreaks, lang, points, bye_points, as_json, db_url):
    """Create an event: a variant, its house rules, table sizes and rounds.

    SLUG names the event in commands and URLs: lower-case letters, digits and
    dashes. House rules (--rule) are checked by the variant's engine; an unknown
    option is a usage error.

    \b
    Examples:
      tourney event create club-1 --variant spardame --rounds 4 --rule pass=cycle
      tourney event create brade-cup --variant dam-brade --rounds 5 --date 2024-05-11
    """
    parsed_rules = parse_rules(rules)
    with starting_db(db_url) as engine, transaction(engine) as session:
        created = actions.create_event(
            session, slug, variant, name=name, date=date, rules=parsed_rules,
            table_sizes=table_sizes, rounds=rounds, seating=seating, seed=seed,
            tiebreaks=tiebreaks, lang=lang, points=points, bye_points=bye_points)
        data = service.EventInfo.of(created).to_json()
        biased = big_table_bias(created)
    sizes = setting_text("table_sizes", data["table_sizes"])
    rounds = count_text(created.rounds, "round") if created.rounds else "open-ended rounds"
    report_change("event.create", True,
                  f"created {created.slug}: {created.variant}, tables of {sizes}, "
                  f"{rounds}, {created.seating} seating, {created.points} points, "
                  f"a bye worth {number_text(event_bye_points(created))}", as_json, **data)
    warn_big_table_bias(biased, created)


def warn_big_table_bias(biased: list[str], event_row) -> None:
    """Warn that an event's scoring rewards the bigger of its mixed table sizes
    (:func:`~tourney.tournament.scoring.big_table_bias`), naming the fair choice."""
    sizes = f"{event_row.table_min}-{event_row.table_max}"
    for what in biased:
        if what == "place":
            message(f"warning: tables of {sizes} players: place points reward sitting at "
                    "the bigger tables (the winner of a table of n gets n-1); share points "
                    "are fair at every size (--points share)")
        else:
            message(f"warning: tables of {sizes} players: the {what} tie-break rewards "
                    "sitting at the bigger tables (it sums more opponents' points there); "
                    "opponents averages them (--tiebreaks opponents,...)")


@event.command("list")
@delimited_flags
@json_option
@db_option
def list_(as_json, db_url):
    """List the events: variant, date, entrants and rounds seated.

    \b
    Example:
      tourney event list --json
    """
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        rows = service.list_events(session)
    if as_json:
        emit_json(rows)
        return
    emit_table(["slug", "name", "variant", "date", "entrants", "rounds"], [
        [r["slug"], r["name"], r["variant"], r["date"], r["entrants"],
         f"{r['rounds_seated']}/{r['rounds'] or '-'}"] for r in rows])



def constraints_text(data: dict) -> list[str]:
    """The lines ``event show`` prints for the seating constraints
    (:func:`tourney.tournament.arbiter.constraints_json`'s data)."""
    lines = []
    if data["keep_apart_clubs"]:
        lines.append("players of one club kept apart")
    for a, b in data["keep_apart"]:
        lines.append(f"{a} and {b} kept apart")
    for fixed in data["fixed"]:
        lines.append(f"{fixed['player']} always at table {fixed['table']}")
    return lines

@event.command("show")
@click.argument("slug", shell_complete=complete_event)
@json_option
@db_option
def show(slug, as_json, db_url):
    """Show an event: its variant and rules in words, entrants, rounds and results.

    \b
    Example:
      tourney event show club-1 --json | jq .rules
    """
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        event_row = service.get_event(session, slug)
        data = service.describe_event(session, event_row)
        from tourney.tournament.evening import evening_json

        data["evening"] = evening_json(session, event_row)
        from tourney.tournament.arbiter import constraints_json

        data["constraints"] = constraints_json(session, event_row)
    if as_json:
        emit_json(data)
        return
    echo(f"{data['name']} ({data['slug']})")
    echo(f"variant: {data['variant']} ({data['variant_name']})")
    if data["date"]:
        echo(f"date: {data['date']}")
    sizes = data["table_sizes"]
    echo("tables: " + (f"{sizes['min']} players" if sizes["min"] == sizes["max"] else
                       f"{sizes['min']}-{sizes['max']} players, preferring {sizes['preferred']}"))
    echo(f"rounds: {data['rounds_seated']} seated of {data['rounds'] or 'open-ended'}; "
         f"seating {data['seating']}, seed {data['seed']}")
    echo(f"points: {data['points']} ({POINTS_SYSTEM_WORDS[data['points']]}); "
         f"a bye is worth {number_text(data['bye_points_in_force'])}"
         + ("" if data["bye_points"] is not None else " (a win's worth)"))
    if data["tiebreaks"]:
        echo("tiebreaks: " + ", ".join(data["tiebreaks"]))
    if data["lang"]:
        echo(f"language: {data['lang']}")
    evening = data["evening"]
    if evening["fee"] is not None:
        echo(f"entry fee: {number_text(evening['fee'])} ({len(evening['paid'])} of "
             f"{len(data['entrants'])} paid)")
    kept = constraints_text(data["constraints"])
    if kept:
        echo("seating constraints: " + "; ".join(kept))
    echo("rules:")
    for rule in data["rule_details"]:
        # One line each: the value in force in words (`tourney variants VARIANT`
        # and --json give every option's whole description).
        value = rule["text"]
        how = "" if rule["set"] else " (default)"
        said = f": {rule['sentence']}" if rule["sentence"] else ""
        echo(f"  {rule['key']} = {value}{how}{said}")
    active = sum(1 for e in data["entrants"] if e["active"])
    if data["current_round"] is not None:
        playing = f"{active} playing round {data['current_round']}"
    else:
        playing = f"{active} in round {data['rounds_seated']}, the last"
    echo(f"entrants: {len(data['entrants'])}" + (f" ({playing})" if data["entrants"] else ""))
    for entrant in data["entrants"]:
        notes = []
        if entrant["first_round"] > 1:
            notes.append(f"from round {entrant['first_round']}")
        if entrant["before_playing"]:
            # still entered only until the round they left is reseated
            notes.append("withdrew before playing" + "".join(
                f"; still seated in round {n}" for n in entrant["to_reseat"]))
        elif entrant["withdrawn_after"] is not None:
            notes.append(f"withdrew after round {entrant['withdrawn_after']}")
        echo(f"  {entrant['name']}" + (f" ({', '.join(notes)})" if notes else ""))
    for status in data["round_status"]:
        byes = f", {count_text(status['byes'], 'bye')}" if status["byes"] else ""
        echo(f"round {status['round']}: {count_text(status['tables'], 'table')}{byes}, "
             f"{count_text(status['results'], 'result')} in")


@event.command("enter")
@click.argument("slug", shell_complete=complete_event)
@click.argument("names", nargs=-1, metavar="[PLAYER]...", shell_complete=complete_player)
@click.option("--all", "all_players", is_flag=True, help="Enter every registered player.")
@click.option("--add", is_flag=True, help="Register names not registered yet.")
@click.option("--from-round", type=ROUND_NUMBER, metavar="N",
              help="The first round they can play (default: the next round to be "
                   "seated; the latest seated round may be named while none of its "
                   "results is in, and is then to be reseated).")
@json_option
@db_option
def enter(slug, names, all_players, add, from_round, as_json, db_url):
    """Enter players in an event.

    Players must be registered (`tourney player add`) unless --add is given.
    After a round has been seated, new entrants join from the next round;
    once every round is seated no one new can enter.
    Entering a player who withdrew lifts the withdrawal (also when every round
    is seated): they play on in the rounds they are seated in.

    \b
    Examples:
      tourney event enter club-1 "Anna Berg" "Bo Ek"
      tourney event enter club-1 --all
    """
    engine = open_db(db_url)
    with transaction(engine) as session:
        event_row = service.get_event(session, slug)
        report = actions.enter_players(session, event_row, names, all_players=all_players,
                                       add=add, from_round=from_round)
    if report.added:
        message("registered: " + ", ".join(report.added))
    for warning in report.warnings:
        message(lookalike_message(warning))
    if report.already and not all_players:
        message("already entered: " + ", ".join(report.already))
    when = f" from round {report.first_round}" if report.first_round > 1 else ""
    parts = []
    if report.entered or not report.reentered:
        parts.append(f"{len(report.entered)} entered{when}")
    if report.reentered:
        parts.append(f"withdrawal lifted: {', '.join(report.reentered)} "
                     f"{'plays' if len(report.reentered) == 1 else 'play'} on")
    summary = f"{slug}: " + "; ".join(parts)
    if all_players and not report.entered and not report.reentered and report.already:
        summary += (f" (every registered player is entered already: "
                    f"{count_text(len(report.already), 'player')})")
    report_change("event.enter", bool(report.entered or report.reentered or report.added),
                  summary, as_json, event=slug, **report.to_json())
    if report.reseat:
        message(f"round {report.reseat} is seated without "
                f"{', '.join(report.unseated)}: "
                f"`tourney round reseat {slug} {report.reseat}` seats it again")


@event.command("withdraw")
@click.argument("slug", shell_complete=complete_event)
@click.argument("name", metavar="PLAYER", shell_complete=complete_player)
@click.option("--from-round", type=ROUND_NUMBER, metavar="N",
              help="The first round they miss (default: the latest seated round "
                   "while none of its results is in, which is then to be reseated; "
                   "else the next round to be seated).")
@json_option
@db_option
def withdraw(slug, name, from_round, as_json, db_url):
    """Withdraw a player from the round not yet played on; results played stay.

    A seated round none of whose results is in counts as not played: they are
    withdrawn from it, and it is to be reseated (`tourney round reseat`).
    A player who withdraws before playing any round is no longer entered (as
    though never entered: no standings row), once the round they leave is
    reseated when it was seated.
    A withdrawal after the event's last round is played is refused (exit 1):
    there is no round left to miss, and the standings keep every result.

    \b
    Examples:
      tourney event withdraw club-1 "Bo Ek"
      tourney event withdraw club-1 "Bo Ek" --from-round 3 && tourney round reseat club-1 3
    """
    engine = open_db(db_url)
    with transaction(engine) as session:
        report = actions.withdraw_player(session, service.get_event(session, slug), name,
                                         from_round=from_round)
    name = report.player.name
    if report.last_round is None and report.reseat:
        summary = (f"{name} withdrew from {slug} before playing; no longer entered once "
                   f"round {report.reseat} is reseated")
    elif report.last_round is None:
        summary = f"{name} withdrew from {slug} before playing; no longer entered"
    else:
        summary = f"{name} withdrew from {slug}: not seated after round {report.last_round}"
    report_change("event.withdraw", True, summary, as_json, event=slug, player=name,
                  last_round=report.last_round, reseat=report.reseat)
    if report.reseat:
        message(f"round {report.reseat} is seated with them: "
                f"`tourney round reseat {slug} {report.reseat}` seats it again")


# `--unset` names as the options spell them -> the settings' names
UNSET_NAMES = {setting.replace("_", "-"): setting for setting in service.UNSETTABLE}
SETTING_LABELS = {"name": "name", "date": "date", "rules": "house rules",
                  "table_sizes": "table sizes", "rounds": "rounds", "seating": "seating",
                  "seed": "seed", "tiebreaks": "tie-breaks", "lang": "language",
                  "points": "points", "bye_points": "bye points",
                  "fee": "fee", "signup": "sign-up", "constraints": "seating constraints"}


def reseatable_round(session, event_row) -> int | None:
    """The latest seated round while none of its results is in (a reseat would
    seat it under settings changed now), else None."""
    last = service.last_seated_round(session, event_row)
    if last and not service.results_by_round(session, event_row).get(last):
        return last
    return None


def setting_text(setting: str, value) -> str:
    """A setting's value (as EventInfo.to_json spells it) the way `event show` words it."""
    if setting == "table_sizes":
        low, high, preferred = value["min"], value["max"], value["preferred"]
        return f"{low}" if low == high else f"{low}-{high} (preferring {preferred})"
    if setting == "rules":
        return ", ".join(f"{k}={v}" for k, v in sorted(value.items())) or "the defaults"
    if setting == "tiebreaks":
        return ", ".join(value) or "the default order"
    if value is None:
        return {"rounds": "open-ended", "bye_points": "a win's worth"}.get(setting, "none")
    if setting in ("bye_points", "fee"):  # a fee as the pages show it: 50, 12.5
        return number_text(value)
    if setting == "constraints":
        return "; ".join(constraints_text(value)) or "none"
    return str(value)


@event.command("set")
@click.argument("slug", shell_complete=complete_event)
@click.option("--name", help="The event's title.")
@click.option("--date", metavar="YYYY-MM-DD", help="The day it is played.")
@rule_option
@click.option("--unset-rule", "unset_rules", multiple=True, metavar="KEY",
              help="Take a house rule back to the variant's default; repeatable.")
@click.option("--table-sizes", metavar="N|MIN-MAX",
              help="Players per table: 4, or a range such as 3-5.")
@click.option("--rounds", type=click.IntRange(1, service.MAX_ROUNDS),
              help=f"The number of rounds, 1 to {service.MAX_ROUNDS}, no fewer than are "
                   "seated (`--unset rounds`: open-ended).")
@click.option("--seating", type=click.Choice(service.SEATING_METHODS),
              help="How rounds are seated (before round 1 is seated).")
@click.option("--seed", type=SEED, help="Seed of the seating draws (before round 1 is seated).")
@click.option("--tiebreaks", metavar="LIST", help=TIEBREAKS_HELP)
@click.option("--lang", type=click.Choice(service.LANGUAGES),
              help="Language of the event's pages.")
@click.option("--points", type=click.Choice(list(POINTS_SYSTEMS)),
              help="Match points: share or place (`event create --help` says what they are).")
@click.option("--bye-points", type=click.FloatRange(0, MAX_BYE_POINTS), metavar="X",
              help="What a bye is worth.")
@click.option("--unset", "unset", multiple=True, type=click.Choice(sorted(UNSET_NAMES)),
              help="Take a setting back to its default: no date, no language, "
                   "open-ended rounds, a bye worth a win, the default tiebreaks; "
                   "repeatable.")
@click.option("--fee", type=click.FloatRange(0), metavar="AMOUNT",
              help="The entry fee (`tourney event paid` notes who paid).")
@click.option("--signup", type=click.Choice(["open", "closed"]),
              help="Open or close sign-up.")
@click.option("--keep-apart", "keep_apart", multiple=True, metavar="club|NAME,NAME",
              help="Seat apart, while it can be avoided: `club` (players of one club), "
                   "or named players (\"Ann,Bo\"; every pair of a longer list); "
                   "repeatable.")
@click.option("--no-keep-apart", "clear_apart", is_flag=True,
              help="Drop every kept-apart constraint (before any --keep-apart given "
                   "with it).")
@click.option("--fix", "fix", multiple=True, metavar="NAME=TABLE",
              help="Seat a player always at one table (\"Ann=3\": wheelchair access, "
                   "a scorer); repeatable.")
@click.option("--unfix", "unfix", multiple=True, metavar="NAME",
              help="Take a player's fixed table back; repeatable.")
@json_option
@db_option
def set_(slug, name, date, rules, unset_rules, table_sizes, rounds, seating, seed,
         tiebreaks, lang, points, bye_points, unset, fee, signup, keep_apart, clear_apart,
         fix, unfix, as_json, db_url):
    """Change an event's settings; the variant never changes.

    What may change depends on how far the event is:

    \b
      at any time        --name, --date, --lang, --table-sizes (used from the
                         next seating or reseat on), --rounds (no fewer than
                         the rounds seated)
      before round 1 is seated
                         --seating, --seed
      while no result is stored
                         --rule, --unset-rule, --points, --tiebreaks (results
                         are checked and scored under them, ranked by them)
      while no round that gave a bye has a result in
                         --bye-points (the standings so far count byes);
                         also --table-sizes where a bye is worth a win
                         (place points: a win at the preferred size)

    A change that is not possible now is refused (exit 1) with the reason, and
    nothing is changed. Given only the values it has, nothing changes. A seated
    round without results keeps its seating: the command says when a reseat
    would seat it under the new table sizes, or when score sheets written before
    follow the old rules.

    \b
    JSON: {"action": "event.set", "changed", "summary", "details": {"event",
           "changes": {SETTING: {"before", "after"}}, "reseat": N or null,
           "sheets": [N], "settings": {every setting, as `event create`}}}

    \b
    Examples:
      tourney event set club-1 --rule deals=4
      tourney event set club-1 --table-sizes 3-4 && tourney round reseat club-1 1
      tourney event set club-1 --name "Club night, May" --unset date
    """
    parsed_rules = parse_rules(rules)
    engine = open_db(db_url)
    with transaction(engine) as session:
        event_row = service.get_event(session, slug)
        others = (name, date, table_sizes, rounds, seating, seed, tiebreaks, lang, points,
                  bye_points)
        constraints = bool(keep_apart or clear_apart or fix or unfix)
        if (fee is not None or signup is not None or constraints) and not (
                parsed_rules or unset_rules or unset or any(v is not None for v in others)):
            report = service.EventChange(event_row)  # only the evening's settings
        else:
            report = actions.change_event(
                session, event_row, name=name, date=date, rules=parsed_rules,
                unset_rules=unset_rules, table_sizes=table_sizes, rounds=rounds,
                seating=seating, seed=seed, tiebreaks=tiebreaks, lang=lang, points=points,
                bye_points=bye_points, unset=[UNSET_NAMES[u] for u in unset])
        data = report.to_json()
        biased = big_table_bias(event_row)
        from tourney.tournament.evening import set_evening

        evening = set_evening(session, event_row, fee=fee, signup=signup)
        if constraints:
            from tourney.app.events import set_constraints

            evening.update(set_constraints(session, event_row, keep_apart=keep_apart,
                                           fix=fix, clear_apart=clear_apart, unfix=unfix))
            if "constraints" in evening:
                report.reseat = report.reseat or reseatable_round(session, event_row)
                data["reseat"] = report.reseat
    if evening:
        report.changed.update(evening)
        data["changes"] = {**data.get("changes", {}),
                           **{k: {"before": b, "after": a} for k, (b, a) in evening.items()}}
    if report.changed:
        summary = f"{slug}: " + "; ".join(
            f"{SETTING_LABELS[k]}: {setting_text(k, after)} (was {setting_text(k, before)})"
            for k, (before, after) in report.changed.items())
    else:
        summary = f"{slug}: nothing changed (it has these settings already)"
    report_change("event.set", bool(report.changed), summary, as_json, event=slug, **data)
    if {"points", "tiebreaks", "table_sizes"} & set(report.changed):
        warn_big_table_bias(biased, event_row)
    if report.reseat and "table_sizes" in report.changed:
        message(f"round {report.reseat} is seated at the old table sizes: "
                f"`tourney round reseat {slug} {report.reseat}` seats it at the new ones")
    elif report.reseat:
        message(f"round {report.reseat} is seated under the old seating constraints: "
                f"`tourney round reseat {slug} {report.reseat}` seats it under the new ones")
    for number in report.sheets:
        message(f"score sheets of round {number} written before follow the old rules: "
                f"`tourney round sheet {slug} {number} --out FILE` writes them again")


@event.command("delete")
@click.argument("slug", shell_complete=complete_event)
@yes_option
@json_option
@db_option
def delete(slug, yes, as_json, db_url):
    """Delete an event created by mistake (one without results).

    Its entries, seated rounds and table links go with it, and the next
    `tourney publish` leaves it off the site. An event
    with any stored result cannot be deleted (exit 1): its results are part of
    the players' ratings and histories. The audit log (`tourney log`) keeps the
    event's settings and everything done to it. On a terminal it asks first.

    \b
    JSON: {"action": "event.delete", "changed": true, "summary", "details":
           {"event", "entrants": [names], "rounds": N seated, "links": N}}

    \b
    Example:
      tourney event delete club-x --yes
    """
    engine = open_db(db_url)
    with reading(engine) as session:
        data = service.describe_event(session, service.get_event(session, slug))
    confirm(f"Delete event {slug} with its {count_text(len(data['entrants']), 'entrant')} "
            f"and {count_text(data['rounds_seated'], 'seated round')}?", yes)
    with transaction(engine) as session:
        report = actions.delete_event(session, service.get_event(session, slug))
    summary = (f"deleted {slug} ({count_text(len(report.entrants), 'entrant')}, "
               f"{count_text(report.rounds, 'seated round')}); `tourney log` keeps its history")
    report_change("event.delete", True, summary, as_json, **report.to_json())


def register(group: click.Group) -> None:
    from .evening import add_commands

    add_commands(event)
    group.add_command(event)
