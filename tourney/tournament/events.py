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
  every round already seated and keeps every result. A player who withdraws
  before playing any round is simply no longer entered (the entry is removed;
  the audit log keeps it), whether or not the round they leave was seated: when
  it was, the entry stays, withdrawn, until that round is reseated without them
  (so the import refuses a sheet of the old seating with them at a table), and
  the reseat removes it (:func:`drop_withdrawn_unseated`). Entering a withdrawn
  player again lifts the
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
  every registered player not merged into another is entered (refused when no
  player is registered: entering no one is not what was meant).
- Changing an event's settings (:func:`change_event`, ``tourney event set``):
  what only names or shows the event (name, date, language) changes at any time;
  table sizes and the number of rounds change what is seated next (the number of
  rounds never below the rounds seated); the seating method and seed only before
  round 1 is seated (they draw every round, a perfect schedule round by round);
  house rules, the points system and tie-breaks only while no result is stored
  (results were checked and scored under them, and their places ranked by them);
  a bye's points while no round that gave a bye has a result in. The variant
  never changes.
- Deleting an event (:func:`delete_event`, ``tourney event delete``) is refused
  while it has any stored result (results are part of the players' ratings and
  histories) or a result sent from a table that waits for the organizer; its
  entries, seated rounds and table links go with it, the audit log keeps its
  rows. On SQLite a new event never gets an id the audit log already names (a
  deleted event's), so ``tourney log --event`` never mixes the two.
"""
from __future__ import annotations

import datetime as dt
import json
import re
import zlib
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from sqlalchemy import delete, func
from sqlmodel import Session, select

from ..engines import get_game
from ..engines.base import Game
from ..engines.presentation import N_, Message
from ..errors import (
    InvalidValue,
    Remedy,
    SettingWay,
    TourneyError,
    UnknownName,
    UsageError,
    unknown_name,
)
from ..errors.words import quoted, then_words
from ..ordering import name_key
from ..pairing.methods import METHODS, default_method
from ..person_names import normalize_name
from ..storage.audit import record_change
from ..storage.bulk import BulkInsert
from ..storage.models import (
    CONFLICT,
    SUBMITTED,
    Absence,
    Adjustment,
    AuditLog,
    Entry,
    EntryStatus,
    Event,
    EventOptions,
    Forfeit,
    Match,
    Notification,
    Player,
    PlayerLink,
    Round,
    Seat,
    SeatingRule,
    Series,
    SeriesEvent,
    SignupRequest,
    Submission,
    TableLink,
    Team,
    TeamMember,
    utcnow,
)
from .players import (
    add_players,
    clean_name,
    clean_title,
    player_by_name,
    resolve_merged,
    unknown_player_error,
)
from .scoring import bye_points as bye_points_of
from .scoring import check_bye_points, check_points_system, event_bye_points
from .settings import event_settings, table_sizes_json
from .snapshots import forget_snapshot
from .standings import check_tiebreaks, results_by_round, tiebreaks_in_force

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
        raise UsageError(Message(N_("an event slug is lower-case letters, digits and dashes "
                                    "of at most %(most)s characters (e.g. club-2024-03), not "
                                    "%(slug)s"),
                                 {"most": MAX_SLUG,
                                  "slug": quoted(slug[:60] + ('...' if len(slug) > 60 else ''))}))
    return slug


def parse_date(text: str | None) -> dt.date | None:
    if text is None or text == "":
        return None
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", text.strip()):
        raise UsageError(Message(N_("a date is written YYYY-MM-DD, not %(text)s"),
                                 {"text": quoted(text)}))
    try:
        return dt.date.fromisoformat(text.strip())
    except ValueError as err:
        raise UsageError(Message(N_("not a date: %(text)s (%(reason)s)"),
                                 {"text": quoted(text), "reason": str(err)})) from None


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
            raise InvalidValue("table_sizes", quoted(text), Message(N_("a size (4) or a range (3-5)")))
        low = int(match.group(1))
        high = int(match.group(2) or low)
        if low > high:
            raise InvalidValue("table_sizes", quoted(text),
                               Message(N_("a range with the smaller size first (3-5)")))
        if low < game.min_players or high > game.max_players:
            allowed = (f"{game.min_players}" if game.min_players == game.max_players
                       else f"{game.min_players}-{game.max_players}")
            raise UsageError(Message(N_("%(variant)s is played by %(allowed)s players; tables "
                                        "of %(sizes)s are not possible"),
                                     {"variant": game.id, "allowed": allowed,
                                      "sizes": text.strip()}))
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
        # a series' slug is never an event's: said so, not as a look-alike event
        if session.exec(select(Series.id).where(Series.slug == slug)).first() is not None:
            raise UnknownName(Message(N_("%(slug)s is a series, not an event"),
                                      {"slug": quoted(slug)}))
        raise unknown_event(slug, session.exec(select(Event.slug).order_by(Event.slug)))
    return event


def unknown_event(slug: str, known: Iterable[str]) -> UnknownName:
    """The error for an event that does not exist, with the closest slugs."""
    known = list(known)
    return unknown_name("event", slug, known,
                        otherwise=None if known else Message(N_("there are no events yet")),
                        remedy=None if known else Remedy("create-event"))


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
            "rules": self.rules, "table_sizes": table_sizes_json(*self.table_sizes),
            "rounds": self.rounds, "seating": self.seating, "seed": self.seed,
            "tiebreaks": tiebreaks_in_force(self.tiebreaks), "lang": self.lang,
            "points": self.points, "bye_points": self.bye_points,
        }


# The checks of a setting's value, one home for creating and changing an event.

def check_rounds(rounds: int) -> int:
    if not 1 <= rounds <= MAX_ROUNDS:
        raise InvalidValue("rounds", rounds, Message(N_("%(least)s to %(most)s"),
                                                     {"least": 1, "most": MAX_ROUNDS}))
    return rounds


def check_seating(seating: str) -> str:
    if seating not in SEATING_METHODS:
        raise UsageError(Message(N_("unknown seating %(name)s (use %(known)s)"),
                                 {"name": quoted(seating), "known": list(SEATING_METHODS)}))
    return seating


def check_seed(seed: int) -> int:
    if not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        raise InvalidValue("seed", seed, Message(N_("a number from %(least)s to %(most)s"),
                                                 {"least": SEED_RANGE[0], "most": SEED_RANGE[1]}))
    return seed


def check_lang(lang: str) -> str:
    if lang not in LANGUAGES:
        raise UsageError(Message(N_("unknown language %(name)s (use %(known)s)"),
                                 {"name": quoted(lang), "known": list(LANGUAGES)}))
    return lang


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
    if rounds is not None:
        check_rounds(rounds)
    seating = check_seating(seating if seating is not None else default_method(low, high))
    seed = default_seed(slug) if seed is None else check_seed(seed)
    if lang is not None:
        check_lang(lang)
    day = date if isinstance(date, dt.date) or date is None else parse_date(date)
    title = clean_title(name, "event name") if name is not None else slug
    tiebreak_list = parse_tiebreaks(tiebreaks)
    points = check_points_system(points)
    bye_points = check_bye_points(bye_points)
    if session.exec(select(Event).where(Event.slug == slug)).first() is not None:
        raise TourneyError(Message(N_("there is already an event %(slug)s"),
                                   {"slug": quoted(slug)}))
    if session.exec(select(Series.id).where(Series.slug == slug)).first() is not None:
        raise TourneyError(Message(N_("%(slug)s is a series' slug; an event needs a slug of "
                                      "its own"), {"slug": quoted(slug)}))
    event = Event(id=_unused_event_id(session), slug=slug, name=title, variant=game.id, date=day,
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


def _unused_event_id(session: Session) -> int | None:
    """The id for a new event on SQLite, which gives a new row the highest id + 1:
    once the newest event is deleted its id would come back to the next one, and
    the audit log's rows of the deleted event would read as the new event's. So
    the id is one no event and no audit row has had. ``None`` (the database's own
    choice) elsewhere: PostgreSQL's sequence never gives an id twice."""
    if session.get_bind().dialect.name != "sqlite":
        return None
    highest = max(session.exec(select(func.max(Event.id))).one() or 0,
                  session.exec(select(func.max(AuditLog.event_id))).one() or 0)
    return highest + 1


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
    """Every option of the variant: key, value in force (and as ``--rule`` writes
    it: ``text``), default, doc, whether the
    event set it, and the value in force in one sentence (as the event's pages
    state it; ``None`` where the value states nothing, such as a bonus of 0)."""
    settings = event_settings(event)
    game = settings.game
    rows = []
    for spec in game.option_specs:
        value = settings.options[spec.key]
        sentence = game.option_sentence(spec.key, value)
        rows.append({"key": spec.key, "value": value, "text": spec.format(value),
                     "default": spec.default, "doc": spec.doc, "set": spec.key in settings.rules,
                     "sentence": sentence.english() if sentence is not None else None})
    return rows


def current_round(session: Session, event: Event) -> int | None:
    """The round the event's players are playing or play next: the latest seated
    round while none of its results is in, else the next round; ``None`` once
    every round is seated and the last one has results in."""
    last = last_seated_round(session, event)
    if last and not results_by_round(session, event).get(last):
        return last
    if event.rounds is not None and last >= event.rounds:
        return None
    return last + 1


def describe_event(session: Session, event: Event) -> dict:
    """The event as ``event show`` reports it. ``current_round``: see
    :func:`current_round`; an entrant is ``active`` when they can play it (once the
    event is over: the last round); ``before_playing``: withdrew before playing any
    round (no longer entered once the round they left, ``to_reseat``, is reseated)."""
    game = event_settings(event).game
    last = last_seated_round(session, event)
    results = results_by_round(session, event)
    counts = round_tables_count(session, event)
    current = current_round(session, event)
    seated_in: dict[int, list[int]] = {}
    for player_id, number in session.exec(
            select(Seat.player_id, Round.number).join(Round, Round.id == Seat.round_id)
            .where(Round.event_id == event.id).order_by(Round.number)):
        seated_in.setdefault(player_id, []).append(number)
    entrants = []
    for entry, player in entries(session, event):
        before_playing = (entry.withdrawn_after is not None
                          and entry.withdrawn_after < entry.first_round)
        entrants.append({
            "name": player.name, "first_round": entry.first_round,
            "withdrawn_after": entry.withdrawn_after,
            "before_playing": before_playing,
            # the seated rounds they left and are still on the seat list of
            "to_reseat": seated_in.get(player.id, []) if before_playing else [],
            "active": (entry_active(entry, current or last)
                       and player.merged_into_id is None),
        })
    rounds = [{"round": n, "tables": counts[n][0], "byes": counts[n][1],
               "results": len(results.get(n, ()))} for n in sorted(counts)]
    return {
        **EventInfo.of(event).to_json(),
        "variant_name": game.name,
        "rule_details": describe_rules(event),
        "bye_points_in_force": event_bye_points(event),
        "entrants": entrants,
        "rounds_seated": last,
        "current_round": current,
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
        raise UsageError(Message(N_("there is no round %(round)s"), {"round": from_round}))
    if event.rounds is not None and from_round > event.rounds:
        raise UsageError(Message(N_("%(event)s has 1 round, so there is no round %(round)s")
                                 if event.rounds == 1 else
                                 N_("%(event)s has %(count)s rounds, so there is no round "
                                    "%(round)s"),
                                 {"event": event.slug, "count": event.rounds,
                                  "round": from_round}))
    if from_round < last:
        raise TourneyError(Message(N_("round %(round)s of %(event)s is over: round %(last)s is "
                                      "seated"),
                                   {"round": from_round, "event": event.slug, "last": last}))
    if from_round == last and results_by_round(session, event).get(last):
        raise TourneyError(Message(N_("round %(round)s of %(event)s has results in; changes "
                                      "can take effect from round %(next)s"),
                                   {"round": last, "event": event.slug, "next": last + 1}))
    return from_round


def all_rounds_seated(event: Event) -> Message:
    """The sentence for an event whose every round is seated ("all 3 rounds of cup
    are seated"; "the one round of cup is seated"), as words (its ``str`` is the
    English)."""
    if event.rounds == 1:
        return Message(N_("the one round of %(event)s is seated"), {"event": event.slug})
    return Message(N_("all %(rounds)s rounds of %(event)s are seated"),
                   {"rounds": event.rounds, "event": event.slug})


def enter_players(session: Session, event: Event, names: Sequence[str] = (), *,
                  all_players: bool = False, add: bool = False,
                  from_round: int | None = None) -> EnterReport:
    """Enter players in an event (see the module docstring for late entries).

    ``from_round``: the first round they can be seated in (default: the next round
    to be seated; the latest seated round is allowed while none of its results is
    in, and must then be reseated to include them).
    """
    if not names and not all_players:
        raise UsageError(Message(N_("name the players to enter, or enter them all")),
                         setting="all")
    lock_event(session, event)
    last = last_seated_round(session, event)
    all_seated = event.rounds is not None and last >= event.rounds and from_round is None
    if all_seated and all_players:
        raise TourneyError(Message(N_("%(seated)s; no one can enter now"),
                                   {"seated": all_rounds_seated(event)}))
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
                                           Message(N_("register it first")), setting="add",
                                           remedy=Remedy("add-player"),
                                           setting_way=SettingWay("add-unknown",
                                                                  players=(unknown[0],)))
            raise UnknownName(Message(N_("unknown players %(names)s; register them first"),
                                      {"names": [quoted(u) for u in unknown]}),
                              kind="player", names=unknown, setting="add",
                              remedy=Remedy("add-player"),
                              setting_way=SettingWay("add-unknown", players=tuple(unknown)))
        found: list = []
        new = add_players(session, list(dict.fromkeys(unknown)), warnings=found)
        report.warnings = [w.to_json() for w in found]
        report.added = [p.name for p in new]
        players.extend(new)
    if all_players:
        registered = session.exec(select(Player).where(Player.merged_into_id.is_(None))).all()
        if not registered and not players:
            raise TourneyError(Message(N_("no player is registered yet, so entering every "
                                          "registered player enters no one in %(event)s; "
                                          "register them first"), {"event": event.slug}),
                               remedy=Remedy("import-players"))
        players.extend(sorted(registered, key=lambda p: name_key(p.name)))
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
                raise TourneyError(Message(N_("%(seated)s; no one can enter now (%(player)s is "
                                              "not entered)"),
                                           {"seated": all_rounds_seated(event),
                                            "player": player.name}))
            if entry.withdrawn_after is not None and not last_open and not any(
                    pid == player.id and number > entry.withdrawn_after
                    for pid, number in seated_after):
                raise TourneyError(Message(N_("%(seated)s and played without %(player)s: there "
                                              "is no round left to enter them in"),
                                           {"seated": all_rounds_seated(event),
                                            "player": player.name}))
    done = set()
    # New entries written in bulk: the ORM's flush sent one INSERT an entry on
    # SQLite (issue 34: ``enter --all`` of a national league).
    writer = BulkInsert(session, Entry.__table__,
                        ("event_id", "player_id", "first_round", "created_at"))
    now = writer.bound("created_at", utcnow())
    new_entries = []
    for player in players:
        if player.id in done:
            continue
        done.add(player.id)
        entry = current.get(player.id)
        if entry is None:
            new_entries.append((event.id, player.id, start, now))
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
            continue
        # entered or re-entered now
        if (last_open and player.id not in seated_last
                and min(start, entry.first_round if entry is not None else start) <= last):
            report.unseated.append(player.name)
    if report.unseated:
        report.reseat = last
    session.flush()
    writer.write(new_entries)
    if report.entered:
        record_change(session, "event.enter", ", ".join(report.entered)[:300], None,
                      {"players": report.entered, "first_round": start},
                      event_id=event.id)
    return report


@dataclass
class WithdrawReport:
    player: Player
    # the last round they are in; None: they withdrew before playing any round, and
    # are no longer entered (once ``reseat`` is reseated, when it is set)
    last_round: int | None
    reseat: int | None = None  # a seated round they are still seated in but left


def withdraw_player(session: Session, event: Event, name: str, *,
                    from_round: int | None = None) -> WithdrawReport:
    """Withdraw a player from the latest seated round while none of its results is
    in (it is then to be reseated), else from the next round on; or from
    ``from_round`` (see :func:`check_from_round`). A player seated in no round
    before the one they leave has played nothing: the entry goes (see the module
    docstring; while a round to be reseated seats them, at its reseat)."""
    player = player_by_name(session, clean_name(name))
    if player is None:
        raise unknown_player_error(session, normalize_name(name))
    player = resolve_merged(session, player)
    lock_event(session, event)
    entry = session.exec(select(Entry).where(
        Entry.event_id == event.id, Entry.player_id == player.id)).first()
    if entry is None:
        raise TourneyError(Message(N_("%(player)s is not entered in %(event)s"),
                                   {"player": quoted(player.name), "event": event.slug}))
    if entry.withdrawn_after is not None:
        raise TourneyError(Message(N_("%(player)s already withdrew from %(event)s before "
                                      "playing")
                                   if entry.withdrawn_after < entry.first_round else
                                   N_("%(player)s already withdrew from %(event)s after round "
                                      "%(round)s"),
                                   {"player": quoted(player.name), "event": event.slug,
                                    "round": entry.withdrawn_after}))
    last_in = check_from_round(session, event, from_round, open_round_default=True) - 1
    if event.rounds is not None and last_in >= event.rounds:
        # Nothing left to miss: the site would say they withdrew after the last
        # round, though they played every one.
        raise TourneyError(Message(N_("the last round of %(event)s (round %(round)s) is "
                                      "played: %(player)s has no round left to withdraw from; "
                                      "their results stay in the standings"),
                                   {"event": event.slug, "round": event.rounds,
                                    "player": quoted(player.name)}))
    seated_rounds = set(session.exec(
        select(Round.number).join(Seat, Seat.round_id == Round.id)
        .where(Round.event_id == event.id, Seat.player_id == player.id)))
    before = {"first_round": entry.first_round, "withdrawn_after": None}
    later = [n for n in seated_rounds if n > last_in]
    report = WithdrawReport(player, last_in, reseat=max(later) if later else None)
    played = any(n <= last_in for n in seated_rounds)
    if not played and not later:
        session.delete(entry)
        after = None
        report.last_round = None
    else:
        # Seated in a round they leave: withdrawn until that round is reseated, so
        # that a result of the old seating with them is refused.
        entry.withdrawn_after = last_in
        session.add(entry)
        after = {"first_round": entry.first_round, "withdrawn_after": last_in}
        if not played:
            report.last_round = None
            after["no_longer_entered_once_reseated"] = report.reseat
    session.flush()
    record_change(session, "event.withdraw", player.name, before, after, event_id=event.id)
    return report


def drop_withdrawn_unseated(session: Session, event: Event) -> list[str]:
    """Remove the entries of players who withdrew and are seated in no round of the
    event (they withdrew before playing, and the round they left has been reseated
    without them): they are then as though never entered, like a player who
    withdraws before round 1 is seated. Their names, by name."""
    seated = set(session.exec(
        select(Seat.player_id).join(Round, Round.id == Seat.round_id)
        .where(Round.event_id == event.id)))
    dropped = []
    for entry, player in entries(session, event):
        if entry.withdrawn_after is not None and entry.player_id not in seated:
            session.delete(entry)
            dropped.append(player.name)
    session.flush()
    return dropped


# ------------------------------------------------------------------------- changing

# The settings `change_event` can take back to their default (as create_event
# leaves them when not given): no date, no language, open-ended rounds, a bye
# worth a win, the default tie-breaks.
UNSETTABLE = ("date", "lang", "rounds", "bye_points", "tiebreaks")


@dataclass
class EventChange:
    """What :func:`change_event` changed: setting -> (before, after), as
    :meth:`EventInfo.to_json` spells them (empty: the event had these settings)."""

    event: Event
    changed: dict[str, tuple] = field(default_factory=dict)
    # the latest seated round, none of whose results is in, seated under the old
    # table sizes: a reseat seats it under the new ones
    reseat: int | None = None
    # the seated rounds without results whose score sheets, written before, follow
    # the old house rules
    sheets: list[int] = field(default_factory=list)

    def to_json(self) -> dict:
        return {"changes": {k: {"before": b, "after": a} for k, (b, a) in self.changed.items()},
                "reseat": self.reseat, "sheets": list(self.sheets),
                "settings": EventInfo.of(self.event).to_json()}


def change_event(session: Session, event: Event, *, name: str | None = None,
                 date: str | dt.date | None = None, rules: dict[str, str] | None = None,
                 unset_rules: Sequence[str] = (), table_sizes: str | None = None,
                 rounds: int | None = None, seating: str | None = None,
                 seed: int | None = None, tiebreaks: str | Sequence[str] | None = None,
                 lang: str | None = None, points: str | None = None,
                 bye_points: float | None = None,
                 unset: Sequence[str] = ()) -> EventChange:
    """Change an event's settings (the module docstring says which can change
    when); a setting given as ``None`` is kept. ``rules`` are set on top of the
    event's house rules and ``unset_rules`` (option keys) go back to the variant's
    default; ``unset`` takes settings of :data:`UNSETTABLE` back to their default.
    Every value and every refusal is checked before anything is written; a
    setting given its present value is no change."""
    if not any(v is not None for v in (name, date, table_sizes, rounds, seating, seed,
                                       tiebreaks, lang, points, bye_points)) \
            and not (rules or unset_rules or unset):
        raise UsageError(Message(N_("name a setting of %(event)s to change"),
                                 {"event": event.slug}))
    settings = event_settings(event)
    game = settings.game
    unknown = [u for u in unset if u not in UNSETTABLE]
    if unknown:
        raise UsageError(Message(N_("%(setting)s cannot be unset (these can: %(known)s)"),
                                 {"setting": quoted(unknown[0]), "known": list(UNSETTABLE)}))
    given = {"date": date, "lang": lang, "rounds": rounds, "bye_points": bye_points,
             "tiebreaks": tiebreaks}
    both = [u for u in unset if given[u] is not None]
    if both:
        raise UsageError(Message(N_("%(setting)s is both given and unset; give one of them"),
                                 {"setting": both[0]}), setting=both[0])
    before = EventInfo.of(event).to_json()
    after = dict(before)
    if name is not None:
        after["name"] = clean_title(name, "event name")
    if date is not None:
        day = date if isinstance(date, dt.date) else parse_date(date)
        if day is None:
            raise UsageError(Message(N_("a date is written YYYY-MM-DD; unsetting the date "
                                        "removes it")), setting="unset")
        after["date"] = day.isoformat()
    if rules or unset_rules:
        merged = dict(settings.rules)
        merged.update({k: str(v) for k, v in (rules or {}).items()})
        keys = {spec.key for spec in game.option_specs}
        for key in unset_rules:
            if key not in keys:
                said = {"variant": game.id, "key": quoted(key), "keys": ", ".join(sorted(keys))}
                raise UsageError(Message(N_("%(variant)s has no house rule %(key)s (it has "
                                            "%(keys)s)") if keys else
                                         N_("%(variant)s has no house rule %(key)s (it has "
                                            "none)"), said),
                                 remedy=Remedy("list-house-rules", variant=game.id))
            merged.pop(key, None)
        game.resolve_options(merged)  # OptionError (a usage error) for a bad key or value
        after["rules"] = merged
    if table_sizes is not None:
        after["table_sizes"] = table_sizes_json(*parse_table_sizes(table_sizes, game))
    if rounds is not None:
        after["rounds"] = check_rounds(rounds)
    if seating is not None:
        after["seating"] = check_seating(seating)
    if seed is not None:
        after["seed"] = check_seed(seed)
    if tiebreaks is not None:
        after["tiebreaks"] = tiebreaks_in_force(parse_tiebreaks(tiebreaks))
    if lang is not None:
        after["lang"] = check_lang(lang)
    if points is not None:
        after["points"] = check_points_system(points)
    if bye_points is not None:
        after["bye_points"] = check_bye_points(bye_points)
    for setting in unset:
        after[setting] = tiebreaks_in_force(()) if setting == "tiebreaks" else None
    changed = {k: (before[k], after[k]) for k in before if before[k] != after[k]}
    lock_event(session, event)
    refusals = change_refusals(session, event, after)
    if refusals:
        why = refusals[0]
        for then in refusals[1:]:
            why = then_words(why, then)
        raise TourneyError(Message(N_("%(subject)s: %(problem)s"),
                                   {"subject": event.slug, "problem": why}))
    report = EventChange(event, changed)
    if not changed:
        return report

    for key in ("name", "rounds", "seating", "seed", "lang", "points", "bye_points"):
        if key in changed:
            setattr(event, key, after[key])
    if "date" in changed:
        event.date = dt.date.fromisoformat(after["date"]) if after["date"] else None
    if "rules" in changed:
        event.rules_json = json.dumps(after["rules"], ensure_ascii=False, sort_keys=True)
    if "tiebreaks" in changed:
        event.tiebreaks_json = json.dumps(after["tiebreaks"])
    if "table_sizes" in changed:
        sizes = after["table_sizes"]
        event.table_min, event.table_max, event.table_preferred = (
            sizes["min"], sizes["max"], sizes["preferred"])
    session.add(event)
    session.flush()
    open_rounds = _rounds_without_results(session, event)
    last = last_seated_round(session, event)
    if "table_sizes" in changed and last in open_rounds:
        report.reseat = last
    if "rules" in changed:
        report.sheets = open_rounds
    record_change(session, "event.set", event.slug,
                  {k: b for k, (b, _) in changed.items()},
                  {k: a for k, (_, a) in changed.items()}, event_id=event.id)
    return report


def _rounds_without_results(session: Session, event: Event) -> list[int]:
    results = results_by_round(session, event)
    return sorted(n for n in round_tables_count(session, event) if not results.get(n))


def change_refusals(session: Session, event: Event, changes: dict) -> list[Message]:
    """Why the settings ``changes`` gives new values cannot change now (empty:
    they all can; see the module docstring). ``changes``: setting -> value, keyed
    and spelled as :meth:`EventInfo.to_json` (``{"bye_points": 0.5}``)."""
    before = EventInfo.of(event).to_json()
    after = {**before, **changes}
    changed = {k: (before[k], after[k]) for k in before if before[k] != after[k]}
    results = results_by_round(session, event)
    stored = sum(len(tables) for tables in results.values())
    last = last_seated_round(session, event)
    why = []
    if "rules" in changed and stored:
        why.append(Message(N_("its house rules cannot change: 1 result is stored, checked "
                              "and scored under them") if stored == 1 else
                           N_("its house rules cannot change: %(count)s results are stored, "
                              "checked and scored under them"), {"count": stored}))
    if "points" in changed and stored:
        why.append(Message(N_("its points system cannot change: the match points of the 1 "
                              "stored result are %(points)s points") if stored == 1 else
                           N_("its points system cannot change: the match points of the "
                              "%(count)s stored results are %(points)s points"),
                           {"count": stored, "points": event.points}))
    if "tiebreaks" in changed and stored:
        why.append(Message(N_("its tie-breaks cannot change: the standings of the 1 stored "
                              "result are ranked by them") if stored == 1 else
                           N_("its tie-breaks cannot change: the standings of the %(count)s "
                              "stored results are ranked by them"), {"count": stored}))
    def bye_worth(info: dict) -> float:
        return bye_points_of(info["points"], info["bye_points"],
                             info["table_sizes"]["preferred"])

    # (a bye worth a win at place points is worth the preferred table size's win;
    # a change of the points system is refused above once results are in)
    if bye_worth(before) != bye_worth(after) and ({"bye_points", "table_sizes"} & set(changed)):
        counts = round_tables_count(session, event)
        played = [n for n in sorted(counts) if counts[n][1] and results.get(n)]
        if played:
            what = (Message(N_("what a bye is worth")) if "bye_points" in changed else
                    Message(N_("the table sizes, and with them what a bye is worth (a win at "
                               "the preferred size),")))
            why.append(Message(N_("%(what)s cannot change: round %(rounds)s gave byes and has "
                                  "results in, and the standings so far count them")
                               if len(played) == 1 else
                               N_("%(what)s cannot change: rounds %(rounds)s gave byes and "
                                  "have results in, and the standings so far count them"),
                               {"what": what, "rounds": list(played)}))
    if ("seating" in changed or "seed" in changed) and last:
        what = tuple(k for k in ("seating", "seed") if k in changed)
        why.append(Message({
            ("seating",): N_("its seating cannot change once round 1 is seated: it draws "
                             "every round of the event (a reseat can draw the latest round "
                             "with another seed)"),
            ("seed",): N_("its seed cannot change once round 1 is seated: it draws every "
                          "round of the event (a reseat can draw the latest round with "
                          "another seed)"),
            ("seating", "seed"): N_("its seating and seed cannot change once round 1 is "
                                    "seated: they draw every round of the event (a reseat "
                                    "can draw the latest round with another seed)"),
        }[what]))
    if "rounds" in changed and changed["rounds"][1] is not None and changed["rounds"][1] < last:
        # (fewer than 1 round is no number of rounds: ``last`` is 2 or more here)
        why.append(Message(N_("it cannot have fewer than %(last)s rounds: round %(last)s is "
                              "seated"), {"last": last}))
    return why


# ------------------------------------------------------------------------- deleting

@dataclass
class DeleteReport:
    """What :func:`delete_event` removed with the event."""

    slug: str
    entrants: list[str]
    rounds: int  # rounds seated
    links: int  # table links made (``tourney round links``)

    def to_json(self) -> dict:
        return {"event": self.slug, "entrants": list(self.entrants), "rounds": self.rounds,
                "links": self.links}


def delete_event(session: Session, event: Event) -> DeleteReport:
    """Delete an event with no stored result: its entries, seated rounds and table
    links go with it (the audit log keeps what it had). Refused while it has a
    stored result or a result sent from a table waiting for the organizer."""
    lock_event(session, event)
    matches = session.exec(select(Match.round_number, Match.table)
                           .where(Match.event_id == event.id)).all()
    if matches:
        rounds = sorted({number for number, _ in matches})
        stored = (Message(N_("1 stored result")) if len(matches) == 1 else
                  Message(N_("%(count)s stored results"), {"count": len(matches)}))
        shown = (Message(N_("round %(round)s"), {"round": rounds[0]}) if len(rounds) == 1 else
                 Message(N_("rounds %(rounds)s"), {"rounds": list(rounds)}))
        raise TourneyError(Message(
            N_("%(event)s cannot be deleted: it has %(stored)s (%(rounds)s), and results are "
               "kept: they are part of the players' ratings and histories (only an event "
               "without results can be deleted)"),
            {"event": event.slug, "stored": stored, "rounds": shown}))
    links = session.exec(select(TableLink).where(TableLink.event_id == event.id)).all()
    sent = session.exec(select(Submission).where(
        Submission.link_id.in_([link.id for link in links]))).all() if links else []
    waiting = [s for s in sent if s.state in (SUBMITTED, CONFLICT)]
    if waiting:
        raise TourneyError(Message(
            N_("%(event)s cannot be deleted: 1 result sent from the tables waits for the "
               "organizer (accept or reject it on the organizer's pages of the venue server "
               "first)") if len(waiting) == 1 else
            N_("%(event)s cannot be deleted: %(count)s results sent from the tables wait for "
               "the organizer (accept or reject them on the organizer's pages of the venue "
               "server first)"), {"event": event.slug, "count": len(waiting)}))
    names = [player.name for _, player in entries(session, event)]
    report = DeleteReport(event.slug, names, last_seated_round(session, event), len(links))
    before = {**EventInfo.of(event).to_json(), "entrants": names,
              "rounds_seated": report.rounds, "table_links": len(links)}
    event_id = event.id
    for row in sent:
        session.delete(row)
    session.flush()
    for link in links:
        session.delete(link)
    # the players' evening: private links, check-in and fee, sign-ups, e-mails sent
    # and the arbiter's: constraints, absences, forfeits, adjustments
    for model in (PlayerLink, EntryStatus, EventOptions, SignupRequest, Notification,
                  SeatingRule, Absence, Forfeit, Adjustment):
        for row in session.exec(select(model).where(model.event_id == event.id)):
            session.delete(row)
    _forget_in_series(session, event)  # out of every series, its declared teams gone
    rounds = session.exec(select(Round).where(Round.event_id == event_id)).all()
    for round_row in rounds:
        for seat in session.exec(select(Seat).where(Seat.round_id == round_row.id)):
            session.delete(seat)
    session.flush()
    for round_row in rounds:
        session.delete(round_row)
    for entry in session.exec(select(Entry).where(Entry.event_id == event_id)):
        session.delete(entry)
    session.flush()
    session.delete(event)
    session.flush()
    record_change(session, "event.delete", report.slug, before, None, event_id=event_id)
    return report


def _forget_in_series(session: Session, event: Event) -> None:
    """Take a deleted event out of every series and drop its declared teams (the
    series keep no row of an event that is gone)."""
    session.execute(delete(SeriesEvent).where(SeriesEvent.event_id == event.id))
    forget_snapshot(session, event.id)
    teams = list(session.execute(select(Team.id).where(Team.event_id == event.id)).scalars())
    if teams:
        session.execute(delete(TeamMember).where(TeamMember.team_id.in_(teams)))
        session.execute(delete(Team).where(Team.id.in_(teams)))
