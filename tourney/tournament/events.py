"""Events: creating one, describing it, entering and withdrawing players.

An event plays one variant under its house rules (validated by the variant's
engine), at tables of ``table_min..table_max`` players preferring
``table_preferred``, over ``rounds`` rounds (or open-ended), seated by
``balanced``, ``swiss`` or ``random`` from ``seed``.

Entries carry the rounds a player can be seated in: from ``first_round`` through
``withdrawn_after`` (``None``: to the end).

Decisions:

- Slugs: lower-case ASCII letters, digits and single dashes inside, at most 100
  characters (they become URL paths of the site).
- Table sizes: ``--table-sizes 4`` is exactly 4; ``3-5`` a range. The default is the
  variant's player range. The preferred size is the variant's preferred count
  (4 when it names none), clamped into the range.
- Seating defaults to ``swiss`` when tables seat exactly two, else ``balanced``.
- The seed defaults to a number derived from the slug (CRC-32), so two events with
  the same field are not seated alike, and the same slug always seats the same way;
  ``event show`` prints it.
- A late entry (after round L is seated) starts at round L + 1. Entering a new
  player is refused once every round of the event is seated.
- Withdrawing takes effect from the next round to be seated: the player stays in
  every round already seated and keeps every result. A player withdrawn before
  being seated in any round is simply no longer entered (the entry is removed;
  the audit log keeps it). Entering a withdrawn player again lifts the
  withdrawal (it takes a mistaken withdrawal back): they play on in every round
  they are seated in, also when every round is seated. Only a round they are not
  seated in, none of whose results is in, is then to be reseated
  (``EnterReport.reseat``).
- Both can instead take effect from the latest seated round (``from_round``,
  ``--from-round``) while none of its results is in: for the player who arrives
  after the seat list was printed, or does not turn up. That round is then
  reseated (``tourney round reseat``); until then its seating stays as it was.
- Unknown names are refused with a hint to ``tourney player add`` unless
  ``add=True`` (``--add``), which registers them first. With ``all_players=True``
  every registered player not merged into another is entered.
"""
from __future__ import annotations

import datetime as dt
import json
import re
import zlib
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from sqlalchemy import func
from sqlmodel import Session, select

from ..engines import get_game
from ..engines.base import Game
from ..errors import TourneyError, InvalidValue, UnknownName, UsageError, unknown_name
from ..numbers import count_text
from ..storage.audit import record_change
from ..storage.models import Entry, Event, Match, Player, Round, Seat
from ..pairing.seating import METHODS, default_method
from .settings import event_settings
from .standings import check_tiebreaks
from .scoring import check_bye_points, check_points_system, event_bye_points
from ..names import normalize_name
from ..ordering import name_key
from .players import (add_players, clean_name, clean_title, player_by_name,
                      resolve_merged, unknown_player_error)

SLUG_PATTERN = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
MAX_SLUG = 100
MAX_ROUNDS = 1000  # `--rounds` shows and checks the same bound
SEATING_METHODS = METHODS  # the seating methods are the pairing package's
LANGUAGES = ("sv", "nb", "fi", "en")
SEED_RANGE = (-(2 ** 31), 2 ** 31 - 1)  # an INTEGER column on every backend


# ------------------------------------------------------------------- checking input

def check_slug(slug: str) -> str:
    slug = (slug or "").strip()
    if not SLUG_PATTERN.fullmatch(slug) or len(slug) > MAX_SLUG:
        raise UsageError(f"an event slug is lower-case letters, digits and dashes "
                         f"of at most {MAX_SLUG} characters (e.g. club-2024-03), "
                         f"not {slug[:60]!r}{'...' if len(slug) > 60 else ''}")
    return slug


def parse_date(text: str | None) -> dt.date | None:
    if text is None or text == "":
        return None
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()):
        raise UsageError(f"a date is written YYYY-MM-DD, not {text!r}")
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError as err:
        raise UsageError(f"not a date: {text!r} ({err})") from None


def preferred_size(game: Game, low: int, high: int) -> int:
    preferred = game.preferred_players or 4
    return max(low, min(high, preferred))


def parse_table_sizes(text: str | None, game: Game) -> tuple[int, int, int]:
    """``(min, max, preferred)`` from ``"4"`` or ``"3-5"`` (default: the variant's
    player range); a size the variant cannot be played by is refused."""
    if text is None or text.strip() == "":
        low, high = game.min_players, game.max_players
    else:
        match = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", text)
        if not match:
            raise InvalidValue("table_sizes", repr(text), "a size (4) or a range (3-5)")
        low = int(match.group(1))
        high = int(match.group(2) or low)
        if low > high:
            raise InvalidValue("table_sizes", repr(text), "a range with the smaller size first (3-5)")
        if low < game.min_players or high > game.max_players:
            allowed = (f"{game.min_players}" if game.min_players == game.max_players
                       else f"{game.min_players}-{game.max_players}")
            raise UsageError(f"{game.id} is played by {allowed} players; "
                             f"tables of {text.strip()} are not possible")
    return low, high, preferred_size(game, low, high)


def parse_tiebreaks(text: str | Sequence[str] | None) -> list[str]:
    """Tie-break ids from ``score,buchholz`` (or a list), checked by the standings."""
    if text is None:
        return []
    items = text.split(",") if isinstance(text, str) else list(text)
    return check_tiebreaks([t.strip() for t in items if t.strip()])


def default_seed(slug: str) -> int:
    return zlib.crc32(slug.encode()) & 0x7FFFFFFF


# ------------------------------------------------------------------------- the event

def get_event(session: Session, slug: str) -> Event:
    """The event named ``slug``; every command names an unknown event this way."""
    event = session.exec(select(Event).where(Event.slug == slug)).first()
    if event is None:
        raise unknown_event(slug, session.exec(select(Event.slug).order_by(Event.slug)))
    return event


def unknown_event(slug: str, known: Iterable[str]) -> UnknownName:
    """The error for an event that does not exist, with the closest slugs."""
    known = list(known)
    return unknown_name("event", slug, known,
                        otherwise="" if known else "there are no events yet",
                        operation=None if known else "event create")


def lock_event(session: Session, event: Event) -> None:
    """Serialise changes to one event's entries and rounds: on PostgreSQL the
    event's row is locked until the transaction ends, so two organizers seating
    at once do not both seat "the next round" (SQLite's write transaction
    already serialises everything)."""
    session.exec(select(Event.id).where(Event.id == event.id).with_for_update()).first()


@dataclass(frozen=True)
class EventInfo:
    """An event's settings as commands report them and the audit log keeps them."""

    slug: str
    name: str
    variant: str
    date: dt.date | None
    rules: dict
    table_sizes: tuple[int, int, int]
    rounds: int | None
    seating: str
    seed: int | None
    tiebreaks: tuple[str, ...]
    lang: str | None
    points: str
    bye_points: float | None

    @classmethod
    def of(cls, event: Event) -> "EventInfo":
        settings = event_settings(event)
        return cls(event.slug, event.name, event.variant, event.date, settings.rules,
                   (event.table_min, event.table_max, event.table_preferred), event.rounds,
                   event.seating, event.seed, tuple(settings.tiebreaks), event.lang,
                   event.points, event.bye_points)

    def to_json(self) -> dict:
        return {
            "slug": self.slug, "name": self.name, "variant": self.variant,
            "date": self.date.isoformat() if self.date else None,
            "rules": self.rules, "table_sizes": list(self.table_sizes),
            "rounds": self.rounds, "seating": self.seating, "seed": self.seed,
            "tiebreaks": list(self.tiebreaks), "lang": self.lang,
            "points": self.points, "bye_points": self.bye_points,
        }


def create_event(session: Session, slug: str, variant: str, *, name: str | None = None,
                 date: str | dt.date | None = None, rules: dict[str, str] | None = None,
                 table_sizes: str | None = None, rounds: int | None = None,
                 seating: str | None = None, seed: int | None = None,
                 tiebreaks: str | Sequence[str] | None = None,
                 lang: str | None = None, points: str | None = None,
                 bye_points: float | None = None) -> Event:
    """Create an event; every setting is checked before anything is written.

    ``points`` is the match-points system (:mod:`.scoring`, default ``share``);
    ``bye_points`` what a bye is worth (default: a win's worth)."""
    slug = check_slug(slug)
    game = get_game(variant)  # UsageError for an unknown variant
    rules = {k: str(v) for k, v in (rules or {}).items()}
    game.resolve_options(rules)  # OptionError (exit 2) for unknown keys or values
    low, high, preferred = parse_table_sizes(table_sizes, game)
    if rounds is not None and not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidValue("rounds", rounds, f"1 to {MAX_ROUNDS}")
    if seating is None:
        seating = default_method(low, high)
    if seating not in SEATING_METHODS:
        raise UsageError(f"unknown seating {seating!r} (use {', '.join(SEATING_METHODS)})")
    if seed is None:
        seed = default_seed(slug)
    elif not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        raise InvalidValue("seed", seed, f"a number from {SEED_RANGE[0]} to {SEED_RANGE[1]}")
    if lang is not None and lang not in LANGUAGES:
        raise UsageError(f"unknown language {lang!r} (use {', '.join(LANGUAGES)})")
    day = date if isinstance(date, dt.date) or date is None else parse_date(date)
    title = clean_title(name, "event name") if name is not None else slug
    tiebreak_list = parse_tiebreaks(tiebreaks)
    points = check_points_system(points)
    bye_points = check_bye_points(bye_points)
    if session.exec(select(Event).where(Event.slug == slug)).first() is not None:
        raise TourneyError(f"there is already an event {slug!r}")
    event = Event(slug=slug, name=title, variant=game.id, date=day,
                  rules_json=json.dumps(rules, ensure_ascii=False, sort_keys=True),
                  table_min=low, table_max=high, table_preferred=preferred,
                  rounds=rounds, seating=seating, seed=seed,
                  tiebreaks_json=json.dumps(tiebreak_list), lang=lang,
                  points=points, bye_points=bye_points)
    session.add(event)
    session.flush()
    record_change(session, "event.create", slug, None, EventInfo.of(event).to_json(),
                  event_id=event.id)
    return event


# ------------------------------------------------------------------------- rounds state

def last_seated_round(session: Session, event: Event) -> int:
    number = session.exec(select(func.max(Round.number)).where(Round.event_id == event.id)).one()
    return number or 0


def entry_active(entry: Entry, round_number: int) -> bool:
    return (entry.first_round <= round_number
            and (entry.withdrawn_after is None or entry.withdrawn_after >= round_number))


def entries(session: Session, event: Event) -> list[tuple[Entry, Player]]:
    """The event's entries with their players, by name."""
    rows = session.exec(
        select(Entry, Player).join(Player, Player.id == Entry.player_id)
        .where(Entry.event_id == event.id)).all()
    return sorted(((e, p) for e, p in rows), key=lambda row: name_key(row[1].name, event.lang))


def active_players(session: Session, event: Event, round_number: int) -> list[Player]:
    """The players who can be seated in a round: entered by then, not withdrawn
    before it, not merged into another player."""
    return [p for e, p in entries(session, event)
            if entry_active(e, round_number) and p.merged_into_id is None]


def results_by_round(session: Session, event: Event) -> dict[int, set[str]]:
    """Round number -> the tables whose match has a current result."""
    rows = session.exec(
        select(Match.round_number, Match.table)
        .where(Match.event_id == event.id, Match.current_version_id.is_not(None))).all()
    out: dict[int, set[str]] = {}
    for number, table in rows:
        out.setdefault(number, set()).add(table)
    return out


def round_tables_count(session: Session, event: Event) -> dict[int, tuple[int, int]]:
    """Round number -> (tables, byes) as seated."""
    rows = session.exec(
        select(Round.number, Seat.table, Seat.player_id).join(Seat, Seat.round_id == Round.id)
        .where(Round.event_id == event.id)).all()
    tables: dict[int, set[str]] = {}
    byes: dict[int, int] = {}
    for number, table, _ in rows:
        tables.setdefault(number, set())
        byes.setdefault(number, 0)
        if table is None:
            byes[number] += 1
        else:
            tables[number].add(table)
    for number in session.exec(select(Round.number).where(Round.event_id == event.id)):
        tables.setdefault(number, set())
        byes.setdefault(number, 0)
    return {n: (len(tables[n]), byes[n]) for n in tables}


# ------------------------------------------------------------------------- describing

def list_events(session: Session) -> list[dict]:
    events = session.exec(select(Event).order_by(Event.date.is_(None), Event.date,
                                                 Event.slug)).all()
    counts = dict(session.exec(
        select(Entry.event_id, func.count()).group_by(Entry.event_id)).all())
    seated = dict(session.exec(
        select(Round.event_id, func.max(Round.number)).group_by(Round.event_id)).all())
    return [{
        "slug": e.slug, "name": e.name, "variant": e.variant,
        "date": e.date.isoformat() if e.date else None,
        "entrants": counts.get(e.id, 0), "rounds_seated": seated.get(e.id) or 0,
        "rounds": e.rounds,
    } for e in events]


def describe_rules(event: Event) -> list[dict]:
    """Every option of the variant: key, value in force, default, doc, whether the
    event set it, and the value in force in one sentence (as the event's pages
    state it; ``None`` where the value states nothing, such as a bonus of 0)."""
    settings = event_settings(event)
    game = settings.game
    rows = []
    for spec in game.option_specs:
        value = settings.options[spec.key]
        sentence = game.option_sentence(spec.key, value)
        rows.append({"key": spec.key, "value": value, "default": spec.default,
                     "doc": spec.doc, "set": spec.key in settings.rules,
                     "sentence": sentence.english() if sentence is not None else None})
    return rows


def describe_event(session: Session, event: Event) -> dict:
    game = event_settings(event).game
    last = last_seated_round(session, event)
    results = results_by_round(session, event)
    counts = round_tables_count(session, event)
    entrants = []
    for entry, player in entries(session, event):
        entrants.append({
            "name": player.name, "first_round": entry.first_round,
            "withdrawn_after": entry.withdrawn_after,
            "active": entry_active(entry, last + 1) and player.merged_into_id is None,
        })
    rounds = [{"round": n, "tables": counts[n][0], "byes": counts[n][1],
               "results": len(results.get(n, ()))} for n in sorted(counts)]
    return {
        **EventInfo.of(event).to_json(),
        "variant_name": game.name,
        "rules": describe_rules(event),
        "table_sizes": {"min": event.table_min, "max": event.table_max,
                        "preferred": event.table_preferred},
        "bye_points_in_force": event_bye_points(event),
        "entrants": entrants,
        "rounds_seated": last,
        "round_status": rounds,
        "results_in": sum(r["results"] for r in rounds),
    }


# ------------------------------------------------------------------------- entering

@dataclass
class EnterReport:
    entered: list[str] = field(default_factory=list)
    already: list[str] = field(default_factory=list)
    reentered: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)  # registered on the way (--add)
    first_round: int = 1
    # the latest seated round, none of whose results is in, that the players
    # entered (or entered again) can play but are not seated in: to be reseated
    reseat: int | None = None
    unseated: list[str] = field(default_factory=list)
    # names registered on the way that look like a registered player's (Lookalike.to_json)
    warnings: list[dict] = field(default_factory=list)

    def to_json(self) -> dict:
        return dict(self.__dict__)


def check_from_round(session: Session, event: Event, from_round: int | None, *,
                     open_round_default: bool = False) -> int:
    """The round a change of entries takes effect in: the next round to be seated
    by default; the latest seated round only while none of its results is in (it
    is then to be reseated); never an earlier one. ``open_round_default``: by
    default the latest seated round while none of its results is in (a
    withdrawal), else the next one."""
    last = last_seated_round(session, event)
    if from_round is None:
        if open_round_default and last and not results_by_round(session, event).get(last):
            return last
        return last + 1
    if from_round < 1:
        raise UsageError(f"there is no round {from_round}")
    if event.rounds is not None and from_round > event.rounds:
        raise UsageError(f"{event.slug} has {count_text(event.rounds, 'round')}, "
                         f"so there is no round {from_round}")
    if from_round < last:
        raise TourneyError(f"round {from_round} of {event.slug} is over: round {last} is seated")
    if from_round == last and results_by_round(session, event).get(last):
        raise TourneyError(f"round {last} of {event.slug} has results in; "
                           f"changes can take effect from round {last + 1}")
    return from_round


def all_rounds_seated(event: Event) -> str:
    """The sentence for an event whose every round is seated ("all 3 rounds of cup
    are seated"; "the one round of cup is seated")."""
    if event.rounds == 1:
        return f"the one round of {event.slug} is seated"
    return f"all {event.rounds} rounds of {event.slug} are seated"


def enter_players(session: Session, event: Event, names: Sequence[str] = (), *,
                  all_players: bool = False, add: bool = False,
                  from_round: int | None = None) -> EnterReport:
    """Enter players in an event (see the module docstring for late entries).

    ``from_round``: the first round they can be seated in (default: the next round
    to be seated; the latest seated round is allowed while none of its results is
    in, and must then be reseated to include them).
    """
    if not names and not all_players:
        raise UsageError("name the players to enter, or enter them all", setting="all")
    lock_event(session, event)
    last = last_seated_round(session, event)
    all_seated = event.rounds is not None and last >= event.rounds and from_round is None
    if all_seated and all_players:
        raise TourneyError(f"{all_rounds_seated(event)}; no one can enter now")
    start = check_from_round(session, event, from_round)
    report = EnterReport(first_round=start)
    players: list[Player] = []
    unknown = []
    for raw in names:
        name = clean_name(raw)
        found = player_by_name(session, name)
        if found is None:
            unknown.append(name)
            continue
        players.append(resolve_merged(session, found))
    if unknown:
        if not add:
            if len(unknown) == 1:
                raise unknown_player_error(session, unknown[0],
                                           "; register it first, or have entering add it",
                                           setting="add", operation="player add")
            raise TourneyError("unknown players " + ", ".join(repr(u) for u in unknown)
                               + "; register them first, or have entering add them",
                               setting="add", operation="player add")
        found: list = []
        new = add_players(session, list(dict.fromkeys(unknown)), warnings=found)
        report.warnings = [w.to_json() for w in found]
        report.added = [p.name for p in new]
        players.extend(new)
    if all_players:
        players.extend(sorted(
            session.exec(select(Player).where(Player.merged_into_id.is_(None))).all(),
            key=lambda p: name_key(p.name)))
    current = {e.player_id: e for e in session.exec(
        select(Entry).where(Entry.event_id == event.id))}
    last_open = bool(last) and not results_by_round(session, event).get(last)
    seated_last = set(session.exec(
        select(Seat.player_id).join(Round, Round.id == Seat.round_id)
        .where(Round.event_id == event.id, Round.number == last))) if last else set()
    if all_seated:
        # Only a withdrawal can be lifted: a new entrant has no round left, nor
        # has a withdrawn player not seated in the last round once it is played.
        seated_after = set(session.exec(
            select(Seat.player_id, Round.number).join(Round, Round.id == Seat.round_id)
            .where(Round.event_id == event.id)).all())
        for player in players:
            entry = current.get(player.id)
            if entry is None:
                raise TourneyError(f"{all_rounds_seated(event)}; no one can enter now "
                                   f"({player.name} is not entered)")
            if entry.withdrawn_after is not None and not last_open and not any(
                    pid == player.id and number > entry.withdrawn_after
                    for pid, number in seated_after):
                raise TourneyError(f"{all_rounds_seated(event)} and played without "
                                   f"{player.name}: there is no round left to enter them in")
    done = set()
    for player in players:
        if player.id in done:
            continue
        done.add(player.id)
        entry = current.get(player.id)
        if entry is None:
            session.add(Entry(event_id=event.id, player_id=player.id, first_round=start))
            report.entered.append(player.name)
        elif entry.withdrawn_after is not None:
            before = {"first_round": entry.first_round, "withdrawn_after": entry.withdrawn_after}
            entry.withdrawn_after = None
            if entry.first_round > start:
                entry.first_round = start
            session.add(entry)
            record_change(session, "event.reenter", player.name, before,
                          {"first_round": entry.first_round, "withdrawn_after": None},
                          event_id=event.id)
            report.reentered.append(player.name)
        else:
            report.already.append(player.name)
        if (last_open and player.id not in seated_last
                and player.name in report.entered + report.reentered
                and min(start, current[player.id].first_round if player.id in current
                        else start) <= last):
            report.unseated.append(player.name)
    if report.unseated:
        report.reseat = last
    session.flush()
    if report.entered:
        record_change(session, "event.enter", ", ".join(report.entered)[:300], None,
                      {"players": report.entered, "first_round": start},
                      event_id=event.id)
    return report


@dataclass
class WithdrawReport:
    player: Player
    last_round: int | None  # the last round they are in; None: no longer entered
    reseat: int | None = None  # a seated round they are still seated in but left


def withdraw_player(session: Session, event: Event, name: str, *,
                    from_round: int | None = None) -> WithdrawReport:
    """Withdraw a player from the latest seated round while none of its results is
    in (it is then to be reseated), else from the next round on; or from
    ``from_round`` (see :func:`check_from_round`)."""
    player = player_by_name(session, clean_name(name))
    if player is None:
        raise unknown_player_error(session, normalize_name(name))
    player = resolve_merged(session, player)
    lock_event(session, event)
    entry = session.exec(select(Entry).where(
        Entry.event_id == event.id, Entry.player_id == player.id)).first()
    if entry is None:
        raise TourneyError(f"{player.name!r} is not entered in {event.slug}")
    if entry.withdrawn_after is not None:
        raise TourneyError(f"{player.name!r} already withdrew from {event.slug} "
                           f"after round {entry.withdrawn_after}")
    last_in = check_from_round(session, event, from_round, open_round_default=True) - 1
    if event.rounds is not None and last_in >= event.rounds:
        # Nothing left to miss: the site would say they withdrew after the last
        # round, though they played every one.
        raise UsageError(f"the last round of {event.slug} (round {event.rounds}) is "
                         f"played: {player.name!r} has no round left to withdraw from; "
                         f"their results stay in the standings")
    seated_rounds = set(session.exec(
        select(Round.number).join(Seat, Seat.round_id == Round.id)
        .where(Round.event_id == event.id, Seat.player_id == player.id)))
    before = {"first_round": entry.first_round, "withdrawn_after": None}
    report = WithdrawReport(player, last_in)
    if entry.first_round > last_in and not seated_rounds:
        session.delete(entry)
        after = None
        report.last_round = None
    else:
        entry.withdrawn_after = last_in
        session.add(entry)
        after = {"first_round": entry.first_round, "withdrawn_after": last_in}
    later = [n for n in seated_rounds if n > last_in]
    report.reseat = max(later) if later else None
    session.flush()
    record_change(session, "event.withdraw", player.name, before, after, event_id=event.id)
    return report
