"""`tourney rating ...`: OpenSkill ratings per variant (show, history, predict,
recompute, pool settings)."""
from __future__ import annotations

import click

from tourney.app.ratings import (
    configure_pool,
    pool_settings,
    predict_names,
    rating_history,
    rating_list,
    recompute_changes,
)
from tourney.errors.counts import count_text
from tourney.numbers import signed_text
from tourney.ratings.models import MODEL_NAMES, ModelSpec, param_text
from tourney.storage.db import reading, transaction
from tourney.tournament.standings import place_text

from .completion import complete_player, complete_variant
from .database import db_option, open_db
from .output import (
    MAX_COUNT,
    CommandGroup,
    confirm,
    delimited_flags,
    delimited_format,
    echo,
    emit_json,
    emit_table,
    json_option,
    message,
    parse_assignments,
    report_change,
    yes_option,
)


def _num(value: float, digits: int = 2) -> str:
    return f"{value:.{digits}f}"


@click.group("rating", cls=CommandGroup)
def rating():
    """OpenSkill ratings: one pool per variant, updated as results are imported.

    Every match with a current result is rated in order of event date, event,
    round and table; the ranking's shared places are ties. The displayed rating is
    the ordinal, mu - 3 sigma. Each pool has its model (PlackettLuce by default,
    openskill's default parameters); `tourney rating pool` shows or changes it.

    \b
    Examples:
      tourney rating show --variant spardame
      tourney rating history "Kari Nordmann"
      tourney rating predict --variant spardame Anna Bo Cilla Dag
    """


@rating.command("show")
@click.option("--variant", shell_complete=complete_variant, help="Only this variant's pool.")
@click.option("--provisional", type=click.IntRange(min=0, max=MAX_COUNT), metavar="N",
              help="Also mark players with fewer than N rated matches as provisional "
                   "(default: the pool's setting, 0 unless changed).")
@db_option
@delimited_flags
@json_option
def show(variant, provisional, db_url, as_json):
    """List the ratings of a variant's pool (or every pool), best first.

    Columns: rank, player, mu, sigma, ordinal (mu - 3 sigma, the rating shown and
    sorted by) and rated matches. Every player is ranked; provisional ones are
    marked `*` after their rank (--csv and --tsv: the rank, and `yes` in a
    provisional column; --json: "rank" and "provisional" true): sigma still above 95% of the pool's starting
    sigma (above 7.92 with the default model, which starts at 8.33), or fewer
    rated matches than the pool's minimum (`rating pool --provisional N`,
    default 0). Sigma decides, not a count of matches: each match lowers it by
    what it tells the model, so a player stays provisional longer at small tables
    and while their results surprise the model.

    \b
    Examples:
      tourney rating show --variant dam-stick
      tourney rating show --json | jq '.[] | select(.provisional | not)'
    """
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        entries = rating_list(session, variant, provisional)
    variants = sorted({e.variant for e in entries})
    ranked = {name: list(enumerate([e for e in entries if e.variant == name], 1))
              for name in variants}
    if as_json:  # the rank a number and provisional a flag, as --csv has them
        emit_json([{"rank": rank, **entry.to_json()}
                   for pool in ranked.values() for rank, entry in pool])
        return
    if delimited_format():  # one table, the pool a column; the rank a number and
        # provisional a column of its own, as a spreadsheet or sqlite-utils reads them
        emit_table(["variant", "rank", "player", "mu", "sigma", "ordinal", "matches",
                    "provisional"],
                   [[name, rank, entry.player, _num(entry.mu), _num(entry.sigma),
                     _num(entry.ordinal), entry.matches, "yes" if entry.provisional else ""]
                    for name, pool in ranked.items() for rank, entry in pool])
        return
    pools = {name: [[f"{rank}*" if entry.provisional else str(rank), entry.player,
                     _num(entry.mu), _num(entry.sigma), _num(entry.ordinal), entry.matches]
                    for rank, entry in pool]
             for name, pool in ranked.items()}
    if not entries:
        message("no ratings yet" + (f" for {variant}" if variant else ""))
        return
    for index, (name, rows) in enumerate(pools.items()):
        if len(variants) > 1 or not variant:
            if index:
                echo()
            echo(f"{name}:")
        emit_table(["#", "player", "mu", "sigma", "ordinal", "matches"], rows)
    if any(e.provisional for e in entries):
        message("* provisional: sigma still high (the model is unsure of the player)"
                + (f" or fewer than {provisional} rated matches" if provisional else ""))


@rating.command("history")
@click.argument("player", shell_complete=complete_player)
@click.option("--variant", shell_complete=complete_variant, help="Only this variant's pool.")
@db_option
@delimited_flags
@json_option
def history(player, variant, db_url, as_json):
    """Show a player's rated matches with the rating before and after each.

    One line per match, in rating order: variant, event, round, table, place
    (of how many; "1=/2" a place shared with another player, such as a drawn
    game), mu and sigma before and after. A merged duplicate's name shows the kept
    player.

    \b
    Example:
      tourney rating history "Anna Berg" --variant svarta-maja
    """
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        found, entries = rating_history(session, player, variant)
    if as_json:
        emit_json([dict(e.to_json(), player=found.name) for e in entries])
        return
    if not entries and not delimited_format():
        message(f"{found.name} has no rated matches" + (f" in {variant}" if variant else ""))
        return
    # "1=/2": a place shared with another player of the match (a drawn game)
    rows = [[e.variant, e.event_date.isoformat() if e.event_date else "", e.event, e.round,
             e.table, f"{place_text(e.place, e.shared)}/{e.players}",
             _num(e.mu_before), _num(e.sigma_before),
             _num(e.mu_after), _num(e.sigma_after), signed_text(e.mu_after - e.mu_before, 2)]
            for e in entries]
    emit_table(["variant", "date", "event", "round", "table", "place", "mu before",
                "sigma before", "mu after", "sigma after", "change"], rows)
    if any(e.shared for e in entries):
        message("= a shared place (a draw)")


@rating.command("recompute")
@click.option("--variant", shell_complete=complete_variant, help="Only this variant's pool (default: every pool).")
@db_option
@json_option
def recompute_command(variant, db_url, as_json):
    """Rate every match again from the start: one pool or all.

    Deletes the pool's rating history and replays every current result in rating
    order with the pool's model. The results import keeps pools up to date by
    itself; this is for after a change the import does not see, or to check. The
    numbers come out bit-identical to the incremental ones.

    \b
    Example:
      tourney rating recompute --variant spardame
    """
    engine = open_db(db_url)
    with transaction(engine) as session:
        pools = recompute_changes(session, variant)
    summary = ("; ".join(f"{name}: {count_text(count, 'match')} rated, "
                         + ("ratings changed" if changed else "ratings unchanged")
                         for name, (count, changed) in pools.items())
               or "no pools to recompute")
    report_change("rating.recompute", any(c for _, c in pools.values()), summary, as_json,
                  pools=[{"variant": v, "matches": n, "changed": c}
                         for v, (n, c) in pools.items()])


@rating.command("predict")
@click.option("--variant", shell_complete=complete_variant, required=True, help="The pool whose ratings to use.")
@click.argument("names", nargs=-1, required=True, metavar="PLAYER...",
                shell_complete=complete_player)
@db_option
@delimited_flags
@json_option
def predict_command(variant, names, db_url, as_json):
    """Predict a table: each player's chance to win and likely rank.

    Uses the pool's model (openskill's predict_win and predict_rank): win is the
    chance of finishing first, rank the predicted order (1 = favourite), and
    expected place the average place from each pairing's odds. Players without a
    rating in the pool count at the model's default (mu 25, sigma 8.33).

    \b
    Example:
      tourney rating predict --variant spardame Anna Bo Cilla Dag
    """
    engine = open_db(db_url, read_only=True)
    with reading(engine) as session:
        table = predict_names(session, variant, list(names))
    data = table.to_json()
    if as_json:
        emit_json(data)
        return
    rows = [[p["player"] + ("" if p["rated"] else " (unrated)"), _num(p["mu"]),
             _num(p["sigma"]), f"{100 * p['win_probability']:.1f}%", p["predicted_rank"],
             _num(p["expected_place"])] for p in data["players"]]
    emit_table(["player", "mu", "sigma", "win", "rank", "expected place"], rows)
    message(f"{variant}, {table.model}")


@rating.command("pool")
@click.argument("variant", shell_complete=complete_variant)
@click.option("--model", type=click.Choice(MODEL_NAMES, case_sensitive=False),
              help="The rating model (default PlackettLuce). A different model starts "
                   "from openskill's default parameters for it.")
@click.option("--param", "params", multiple=True, metavar="KEY=VALUE",
              help="A model parameter (mu, sigma, beta, kappa, tau, limit_sigma, balance; "
                   "epsilon for ThurstoneMosteller); repeatable.")
@click.option("--reset-params", is_flag=True, help="Back to openskill's default parameters.")
@click.option("--provisional", type=click.IntRange(min=0, max=MAX_COUNT), metavar="N",
              help="Players with fewer rated matches than N are provisional, besides "
                   "those whose sigma is still high (default 0: sigma alone).")
@yes_option
@db_option
@json_option
def pool_command(variant, model, params, reset_params, provisional, yes, db_url, as_json):
    """Show or change a variant's rating pool: model, parameters, provisional threshold.

    Without options it shows the pool. Changing the model or a parameter
    recomputes the pool's ratings with it; both are recorded with the pool (and
    in the audit log). With --json a change answers as every changing command
    does (action, changed, summary, details: the pool's settings).

    \b
    Examples:
      tourney rating pool spardame
      tourney rating pool spardame --model ThurstoneMostellerFull
      tourney rating pool spardame --param tau=0 --param beta=3
    """
    if model is not None or params or reset_params:
        confirm(f"Recompute every {variant} rating with the new model or parameters?", yes)
    engine = open_db(db_url)
    changing = model is not None or params or reset_params or provisional is not None
    with transaction(engine) as session:
        if changing:
            before = pool_settings(session, variant)
            settings = configure_pool(session, variant, model=model,
                                      params=parse_assignments(params, "--param"),
                                      reset_params=reset_params, provisional=provisional)
        else:
            settings = pool_settings(session, variant)
    if as_json and changing:
        summary = (f"{settings.variant}: recomputed, {count_text(settings.recomputed, 'match')} "
                   "rated" if settings.recomputed is not None else
                   f"{settings.variant}: provisional below "
                   f"{count_text(settings.provisional_matches, 'match')}")
        changed = settings.recomputed is not None or (
            (before.model, before.params, before.provisional_matches)
            != (settings.model, settings.params, settings.provisional_matches))
        report_change("rating.pool", changed, summary, as_json, **settings.to_json())
        return
    if as_json:
        emit_json(settings.to_json())
        return
    spec = ModelSpec.create(settings.model, settings.params)
    changed = spec.changed_params()
    echo(f"variant: {settings.variant}")
    echo(f"model: {settings.model}"
         + ("" if changed else " (openskill's default parameters)"))
    for key, value in settings.params.items():
        # as --param takes them; "changed" marks what differs from the defaults
        echo(f"  {key}: {param_text(value)}" + (" (changed)" if key in changed else ""))
    echo(f"provisional below: {count_text(settings.provisional_matches, 'match')}")
    echo(f"players: {settings.players}")
    echo(f"matches rated: {settings.matches}")
    if settings.recomputed is not None:
        message(f"{settings.variant}: recomputed, {count_text(settings.recomputed, 'match')} "
                "rated")


def register(group: click.Group) -> None:
    group.add_command(rating)
