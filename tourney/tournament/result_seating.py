"""Stage two of a result import, the seating: deal 1 of a match against the
round's seating (the seated players in seat order, seat 0 dealing, none
withdrawn, the table not forfeited), the names of players merged since the seating
was printed, and an invalid match's errors put in the seating's light.

Decisions: see :mod:`tourney.tournament.results` (a match must belong to a seated
table; a merged player's old name is accepted as the kept player).
"""
from __future__ import annotations

from sqlalchemy import select
from sqlmodel import Session

from ..engines.match import MatchRanking
from ..engines.presentation import N_, Message, did_you_mean, seat_words
from ..errors import RecordError, Remedy, TourneyError
from ..errors.words import quoted
from ..ordering import natural_key
from ..person_names import suggested_names
from ..records.csv_format import DealRecord
from ..records.validation import GROUPING_RULES, MatchCheck, match_problems
from ..storage.merges import follow, merge_links
from ..storage.models import Player
from .settings import not_entered
from .stored_rounds import EventContext, EventContexts

# What the seating says of deal 1 (check_seating), and the match errors that may
# follow from it, checked again with deal 1 as seated.
_DEAL_ONE_RULES = ("not-entered", "not-seated", "seat-order", "first-dealer")
_FOLLOW_ON_RULES = ("dealer-rotation", "same-players", "colours-alternate")


def check_seating(session: Session, ctx: EventContext, record: DealRecord, *,
                  players: bool = True, dealer: bool = True
                  ) -> tuple[list[tuple[int, str]] | None, dict[str, str],
                             list[RecordError]]:
    """Deal 1 against the seating: the seated players in seat order, seat 0
    dealing, none withdrawn. Returns the table's seats (None: no such seated
    table), the record's names of merged duplicates (old name -> seated name)
    and every error found, each on deal 1's line; ``players`` and ``dealer``
    False leave out a check of the cell deal 1's own row was refused for."""
    slug = ctx.event.slug
    info = ctx.round(record.round)
    table = info.table(record.table)
    if not info.seated:
        return None, {}, [RecordError(
            Message(N_("round %(round)s of %(event)s has not been seated"),
                    {"round": record.round, "event": slug}),
            rule="round-not-seated", column="round", line=record.line,
            remedy=Remedy("seat-round", event=slug))]
    seats = table.seats
    if seats is None:
        labels = ", ".join(sorted(info.labels(), key=natural_key))
        where = {"round": record.round, "event": slug, "table": quoted(record.table)}
        return None, {}, [RecordError(
            Message(N_("round %(round)s of %(event)s has no table %(table)s (its tables: "
                       "%(tables)s)"), {**where, "tables": labels}) if labels else
            Message(N_("round %(round)s of %(event)s has no table %(table)s (its tables: "
                       "none)"), where), rule="unknown-table", column="table",
            line=record.line)]
    if table.forfeited:
        return None, {}, [RecordError(
            Message(N_("round %(round)s, table %(table)s of %(event)s was forfeited: its "
                       "result is the forfeit's until that is taken back"),
                    {"round": record.round, "table": record.table, "event": slug}),
            rule="forfeited",
            column="table", line=record.line,
            remedy=Remedy("undo-forfeit", event=slug, round=record.round,
                          table=record.table))]
    names = [name for _, name in seats]
    aliases = {}
    errors = []
    strangers = ()
    if record.players != names:
        aliases = merged_aliases(session, record.players, seats)
    if players and [aliases.get(p, p) for p in record.players] != names:
        seated = ";".join(names)
        strangers = [p for p in record.players if aliases.get(p, p) not in names]
        # A name of no player entered in the event (a typo, most often) is said as
        # `validate --event` says it (not_entered), with the table's names to
        # suggest; one entered but seated elsewhere, as not seated here.
        entered = ctx.entered_names() if strangers else {}
        outsiders = [p for p in strangers if p not in entered]
        elsewhere = [p for p in strangers if p in entered]
        if outsiders:
            error = not_entered(outsiders, slug, names, record.players)
            error.line = record.line
            errors.append(error)
        if elsewhere:
            hint = did_you_mean(suggested_names(elsewhere, names))
            words = {"players": ", ".join(elsewhere), "round": record.round,
                     "table": record.table, "seated": seated, "first": seat_words(0)}
            errors.append(RecordError(
                Message(N_("%(players)s not seated at round %(round)s, table %(table)s, which "
                           "seats %(seated)s (%(first)s first)"), words) if hint is None else
                Message(N_("%(players)s not seated at round %(round)s, table %(table)s, which "
                           "seats %(seated)s (%(first)s first) (%(hint)s)"), {**words, "hint": hint}),
                rule="not-seated", column="players", line=record.line,
                seat=record.players.index(elsewhere[0]), player=elsewhere[0]))
        if not strangers:
            # the first seat that differs, and who is seated there; or, when every
            # name given sits where it should, who is missing
            seat = next((i for i, p in enumerate(record.players)
                         if aliases.get(p, p) != names[i]), None)
            missing = [n for n in names if n not in
                       {aliases.get(p, p) for p in record.players}]
            which = (Message(N_("%(player)s is %(seat)s"),
                             {"player": names[seat], "seat": seat_words(seat)})
                     if seat is not None else
                     Message(N_("%(players)s missing"), {"players": list(missing)}))
            errors.append(RecordError(
                Message(N_("the players of deal 1 must sit as seated: round %(round)s, table "
                           "%(table)s seats %(seated)s (%(first)s first): %(which)s"),
                        {"round": record.round, "table": record.table, "seated": seated,
                         "first": seat_words(0), "which": which}),
                rule="seat-order", column="players", line=record.line, seat=seat,
                player=record.players[seat] if seat is not None else None))
    # A dealer who is one of the names not seated is that name's slip, said once.
    if (dealer and ctx.game.uses_dealer and record.dealer not in strangers
            and aliases.get(record.dealer, record.dealer) != names[0]):
        errors.append(RecordError(
            Message(N_("%(dealer)s deals deal 1, but %(first)s (%(seat)s) deals first at a "
                       "seated table"),
                    {"dealer": record.dealer, "first": names[0], "seat": seat_words(0)}),
            rule="first-dealer", column="dealer", line=record.line))
    for player_id, name in seats:
        last = info.withdrawn.get(player_id)
        if last is not None and last < record.round:
            errors.append(RecordError(
                Message(N_("%(player)s withdrew after round %(last)s and cannot play round "
                           "%(round)s; if the withdrawal was a mistake, entering %(player)s "
                           "again takes it back"),
                        {"player": name, "last": last, "round": record.round}),
                rule="withdrawn", column="players",
                line=record.line, remedy=Remedy("enter-players", event=slug, players=(name,))))
    return seats, aliases, errors


def seating_first(session: Session, contexts: EventContexts, match: MatchCheck,
                  errors: list[RecordError]) -> list[RecordError]:
    """An invalid match's ``errors`` with what the seating says of its deal 1
    put first: the root cause of much else (a table that wrote its players in
    another order, or let another seat deal first, breaks the dealer rule in
    the file's order).

    A dealer or players error is then judged again with the match as seated
    (:func:`match_problems` with ``seated``): one the seating explains (the
    match as seated has none of its rule) is a follow-on and left out, one it
    does not is said as it is as seated (who should deal at the table as
    seated), and none is added (a table that began with the wrong dealer and
    went on from there made one mistake, said by the seating). Only the
    database says this: the rows themselves were checked where the file was
    read (another process with ``--jobs``), and an invalid match keeps its
    deal checks for it."""
    first = next((c for c in match.deals if c.record is not None and c.record.deal == 1),
                 None)
    if (first is None or match.event is None or first.record.event != match.event
            or any(c.error is not None and c.error.rule in GROUPING_RULES
                   for c in match.deals)):
        return errors
    column = first.error.column if first.error is not None else None
    if column in ("event", "variant"):
        return errors
    try:
        ctx = contexts.context(match.event)
    except TourneyError:  # the event's rules unreadable: said on its rows
        return errors
    if ctx is None:
        return errors
    seats, aliases, seating = check_seating(
        session, ctx, first.record, players=column != "players", dealer=column != "dealer")
    if not seating:
        return errors
    if seats is not None and any(e.rule in ("not-entered", "not-seated") for e in seating):
        # a dealer seated at the table but missing from the players as written is
        # the players' slip, said by the seating: not a dealer error of its own, on
        # deal 1's row or on any later row that repeats the slip
        seated_names = {name for _, name in seats}
        slips = {c.line for c in match.deals if c.record is not None
                 and c.record.dealer in seated_names
                 and any(aliases.get(p, p) not in seated_names for p in c.record.players)}
        errors = [e for e in errors if not (e.rule == "dealer" and e.line in slips)]
    if seats is not None and any(e.rule in _DEAL_ONE_RULES for e in seating):
        follow_on = {e.rule for e in errors if e.rule in _FOLLOW_ON_RULES}
        if follow_on:
            as_seated = [e for e in match_problems(
                match.deals, ctx.rules, seated=([n for _, n in seats], aliases))
                if e.rule in follow_on]
            errors = [e for e in errors if e.rule not in follow_on] + as_seated
            errors.sort(key=lambda err: (err.line is None, err.line or 0))
    return seating + errors


def merged_aliases(session: Session, players: list[str],
                   seats: list[tuple[int, str]]) -> dict[str, str]:
    """Names in a record that belong to duplicates merged into a seated player
    (the seat list was printed before the merge): old name -> seated name."""
    seated = {player_id: name for player_id, name in seats}
    unknown = [p for p in players if p not in seated.values()]
    rows = session.execute(select(Player.name, Player.id).where(
        Player.name.in_(unknown), Player.merged_into_id.is_not(None))).all()
    if not rows:
        return {}
    links = merge_links(session)
    aliases = {}
    for name, player_id in rows:
        kept = follow(links, player_id)
        if kept in seated:
            aliases[name] = seated[kept]
    return aliases


def rename(rows: list[tuple[str, ...]], result: MatchRanking,
           aliases: dict[str, str]) -> list[tuple[str, ...]]:
    """Store the seated (kept) names, not a merged duplicate's: the rows
    with their players and dealer renamed (the result is renamed in place)."""
    result.ranking = [(aliases.get(n, n), place) for n, place in result.ranking]
    result.totals = {aliases.get(n, n): t for n, t in result.totals.items()}
    return [(row[0], ";".join(aliases.get(p, p) for p in row[1].split(";")),
             aliases.get(row[2], row[2])) + row[3:] for row in rows]
