"""The arbiter's hand: seating constraints, changes to a seated round, absences,
forfeits, point adjustments and the round clock (issue 31).

The seating and the results stay the engines' and the algorithms' (:mod:`tourney.pairing`
seats, honouring the constraints while it can); the arbiter decides, and every
decision is written to the audit log with who and why.

Decisions:

- Constraints (``tourney event set --keep-apart`` / ``--fix``) are the event's and
  apply from the next seating or reseat on; a round already seated keeps its seats,
  and what it breaks of them is said whenever it is shown (:func:`unmet_report`).
  ``club`` keeps the players of one club (the same club name, case and surrounding
  spaces aside) apart; a named group ``Ann,Bo,Cy`` keeps every pair of it apart;
  ``Ann=3`` fixes Ann to table 3. A player fixed to another table is moved there
  (fixing a player twice keeps the last).
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, replace
from typing import Sequence

from sqlmodel import Session, select

from ..errors import Remedy, TourneyError, UsageError
from ..errors.words import N_, Message, quoted
from ..ordering import table_order
from ..pairing.constraints import SeatingConstraints, parting_swap, unmet_constraints
from ..person_names import normalize_name
from ..storage.audit import record_change
from ..storage.models import Absence, Entry, Event, Player, SeatingRule
from .events import lock_event
from .players import find_player

CLUB = "club"  # the word that keeps each club's players apart
# The longest reason the arbiter gives for a decision (a forfeit, an adjustment, a
# swap, a move, a substitute, an absence); the organizer's page's boxes take as much.
MAX_REASON = 500


def optional_reason(reason: str | None, most: int = MAX_REASON) -> str | None:
    """``reason`` on one line (None when it says nothing); refused when longer than
    ``most`` characters (MAX_REASON; a note kept with the organizer's decision on a
    table's result has its own, shorter limit)."""
    text = " ".join((reason or "").split())
    if len(text) > most:
        raise UsageError(Message(N_("a reason is at most %(most)s characters"),
                                 {"most": most}), setting="reason")
    return text or None


# ------------------------------------------------------------------- players

def entered_player(session: Session, event: Event, name: str) -> Player:
    """The player ``name`` finds, who must be entered in ``event``."""
    player = find_player(session, name)
    entry = session.exec(select(Entry).where(Entry.event_id == event.id,
                                             Entry.player_id == player.id)).first()
    if entry is None:
        raise TourneyError(Message(N_("%(player)s is not entered in %(event)s"),
                                   {"player": player.name, "event": event.slug}),
                           remedy=Remedy("enter-players", event=event.slug))
    return player


def _names(session: Session, ids) -> dict[int, str]:
    ids = {i for i in ids if i is not None}
    if not ids:
        return {}
    return {p.id: p.name for p in session.exec(select(Player).where(Player.id.in_(ids)))}


def absent_players(session: Session, event: Event, number: int) -> set[int]:
    """The ids of the players marked absent from round ``number``
    (``tourney round absent``): not seated in it."""
    return set(session.exec(select(Absence.player_id).where(
        Absence.event_id == event.id, Absence.round_number == number)).all())


def absences(session: Session, event: Event, from_round: int = 1) -> list[tuple[int, str]]:
    """(round, player name) of each absence marked from round ``from_round`` on,
    in round order then by name."""
    rows = session.exec(select(Absence.round_number, Absence.player_id).where(
        Absence.event_id == event.id, Absence.round_number >= from_round)).all()
    names = _names(session, [pid for _, pid in rows])
    return sorted(((number, names[pid]) for number, pid in rows),
                  key=lambda row: (row[0], row[1].casefold()))


# ------------------------------------------------------------------- constraints

def _rules(session: Session, event: Event) -> list[SeatingRule]:
    return list(session.exec(select(SeatingRule).where(SeatingRule.event_id == event.id)
                             .order_by(SeatingRule.id)))


def constraints_json(session: Session, event: Event) -> dict:
    """The event's constraints as ``event show --json`` has them: ``keep_apart_clubs``,
    ``keep_apart`` (pairs of names, each pair and the list in name order) and
    ``fixed`` ([{"player", "table"}], by table then name)."""
    rules = _rules(session, event)
    names = _names(session, [i for r in rules for i in (r.player_id, r.other_id)])
    pairs = sorted(sorted([names[r.player_id], names[r.other_id]])
                   for r in rules if r.kind == "apart")
    fixed = sorted(({"player": names[r.player_id], "table": r.table_number}
                    for r in rules if r.kind == "fixed"),
                   key=lambda f: (f["table"], f["player"]))
    return {"keep_apart_clubs": any(r.kind == CLUB for r in rules),
            "keep_apart": pairs, "fixed": fixed}


def parse_fix(text: str) -> tuple[str, int]:
    """``"Ann=3"`` -> ``("Ann", 3)``."""
    name, eq, table = text.rpartition("=")
    name = normalize_name(name)
    if not eq or not name or not table.strip().isdigit() or int(table) < 1:
        raise UsageError(Message(N_("a fixed seat is NAME=TABLE (Ann=3, tables from 1), not "
                                    "%(text)s"), {"text": quoted(text)}),
                         setting="fix")
    return name, int(table)


def parse_apart(text: str) -> list[str] | None:
    """``"club"`` -> None (each club apart); ``"Ann,Bo"`` -> the names (two or more)."""
    if text.strip().casefold() == CLUB:
        return None
    names = [normalize_name(n) for n in text.split(",")]
    if len(names) < 2 or any(not n for n in names):
        raise UsageError(Message(N_("keep apart takes %(club)s or two or more names separated "
                                    "by commas (\"Ann,Bo\"), not %(text)s"),
                                 {"club": quoted(CLUB), "text": quoted(text)}),
                         setting="keep_apart")
    return names


def set_constraints(session: Session, event: Event, *, keep_apart: Sequence[str] = (),
                    fix: Sequence[str] = (), clear_apart: bool = False,
                    unfix: Sequence[str] = ()) -> dict:
    """Change the event's seating constraints: ``clear_apart`` first drops every
    kept-apart rule, then ``keep_apart`` items (``club`` or ``"Ann,Bo"``) are added,
    ``unfix`` names lose their fixed table and ``fix`` items (``"Ann=3"``) are set.
    Returns ``{"constraints": (before, after)}`` when anything changed, else ``{}``."""
    lock_event(session, event)
    before = constraints_json(session, event)
    rules = _rules(session, event)
    wanted_apart: list[tuple[int, int]] = []
    wanted_club = False
    for item in keep_apart:
        names = parse_apart(item)
        if names is None:
            wanted_club = True
            continue
        players = [entered_player(session, event, n) for n in names]
        ids = sorted({p.id for p in players})
        if len(ids) < 2:
            raise UsageError(Message(N_("%(player)s cannot be kept apart from themselves"),
                                     {"player": names[0]}),
                             setting="keep_apart")
        wanted_apart += list(itertools.combinations(ids, 2))
    fixes: dict[int, int] = {}
    for item in fix:
        name, table = parse_fix(item)
        fixes[entered_player(session, event, name).id] = table
    unfixed = {entered_player(session, event, name).id for name in unfix}
    both = unfixed & set(fixes)
    if both:
        name = _names(session, both)[min(both)]
        raise UsageError(Message(N_("%(player)s is both fixed and unfixed; give one of them"),
                                 {"player": name}), setting="fix")
    missing = [name for name, pid in ((n, entered_player(session, event, n).id) for n in unfix)
               if not any(r.kind == "fixed" and r.player_id == pid for r in rules)]
    if missing:
        said = {"players": ", ".join(missing), "event": event.slug}
        raise TourneyError(Message(N_("%(players)s is not fixed to a table in %(event)s"), said)
                           if len(missing) == 1 else
                           Message(N_("%(players)s are not fixed to a table in %(event)s"),
                                   said))
    for rule in rules:
        drop = ((clear_apart and rule.kind in ("apart", CLUB))
                or (rule.kind == "fixed" and (rule.player_id in unfixed
                                              or rule.player_id in fixes)))
        if drop:
            session.delete(rule)
    session.flush()
    kept = _rules(session, event)
    have_pairs = {(r.player_id, r.other_id) for r in kept if r.kind == "apart"}
    if wanted_club and not any(r.kind == CLUB for r in kept):
        session.add(SeatingRule(event_id=event.id, kind=CLUB))
    for a, b in dict.fromkeys(wanted_apart):
        if (a, b) not in have_pairs:
            session.add(SeatingRule(event_id=event.id, kind="apart", player_id=a, other_id=b))
    for pid, table in fixes.items():
        session.add(SeatingRule(event_id=event.id, kind="fixed", player_id=pid,
                                table_number=table))
    session.flush()
    after = constraints_json(session, event)
    if after == before:
        return {}
    record_change(session, "event.set", event.slug, {"constraints": before},
                  {"constraints": after}, event_id=event.id)
    return {"constraints": (before, after)}


def _club_key(club: str | None) -> str | None:
    key = (club or "").strip().casefold()
    return key or None


@dataclass
class EventConstraints:
    """An event's constraints by player id: the pairs kept apart (with the club
    that keeps each apart, None for a named pair) and the fixed tables (from 1)."""

    apart: dict[tuple[int, int], str | None]
    fixed: dict[int, int]

    def __bool__(self) -> bool:
        return bool(self.apart or self.fixed)

    def for_seating(self, labels: Sequence[str] | None = None) -> SeatingConstraints:
        """As :mod:`tourney.pairing.constraints` takes them: fixed tables as indexes
        into ``labels`` (the round's table labels in order; default "1", "2", ...);
        a table the round does not have gets an index past its last."""
        if labels is None:
            index = {pid: table - 1 for pid, table in self.fixed.items()}
        else:
            where = {label: i for i, label in enumerate(labels)}
            index = {pid: where.get(str(table), len(labels) + table)
                     for pid, table in self.fixed.items()}
        return SeatingConstraints.build(apart=list(self.apart), fixed=index)


def event_constraints(session: Session, event: Event) -> EventConstraints:
    """The event's constraints over its entered players."""
    rules = _rules(session, event)
    apart: dict[tuple[int, int], str | None] = {}
    if any(r.kind == CLUB for r in rules):
        players = session.exec(select(Player).join(Entry, Entry.player_id == Player.id)
                               .where(Entry.event_id == event.id)).all()
        by_club: dict[str, list[Player]] = {}
        for player in players:
            key = _club_key(player.club)
            if key is not None:
                by_club.setdefault(key, []).append(player)
        for members in by_club.values():
            ids = sorted(p.id for p in members)
            for pair in itertools.combinations(ids, 2):
                apart[pair] = members[0].club.strip()
    for rule in rules:
        if rule.kind == "apart":
            apart[(rule.player_id, rule.other_id)] = None  # named: said as named
    fixed = {r.player_id: r.table_number for r in rules if r.kind == "fixed"}
    return EventConstraints(apart, fixed)


def unmet_report(session: Session, event: Event, tables: dict[str, list[int]],
                 byes: Sequence[int]) -> list[dict]:
    """What a seated round (table label -> player ids, and the byes) breaks of the
    event's constraints, each with the reason: ``{"kind": "apart" | "fixed",
    "players": [names], "table": label or the fixed table, "reason", "club"
    (apart: the club keeping them apart, null for a named pair), "message"}``, the
    message the English of :func:`unmet_words` (a page words the data itself)."""
    constraints = event_constraints(session, event)
    if not constraints:
        return []
    labels = list(tables)
    present = [pid for keys in tables.values() for pid in keys] + list(byes)
    seating_constraints = constraints.for_seating(labels)
    found = unmet_constraints(list(tables.values()), list(byes), seating_constraints,
                              present=present)
    members = _club_members(constraints, tables)
    # a pair that a trade of two players would part: the seating was given or changed
    # by hand (the search makes such trades); asked only of pairs not unavoidable, so
    # a big club's many shared tables cost no search
    for i, unmet in enumerate(found):
        if unmet.kind == "apart" and not _unavoidable(constraints, members, unmet, labels):
            swap = parting_swap(list(tables.values()), seating_constraints, *unmet.players)
            if swap:
                found[i] = replace(unmet, reason="partable", swap=swap)
    names = _names(session, [pid for u in found for pid in (*u.players, *(u.swap or ()))])
    out = []
    for unmet in found:
        who = [names[pid] for pid in unmet.players]
        if unmet.kind == "apart":
            label = labels[unmet.table]
            club = constraints.apart.get(tuple(sorted(unmet.players)))
            reason = unmet.reason
            if _unavoidable(constraints, members, unmet, labels):
                reason = "unavoidable"
            swap = None
            if reason == "partable":
                mover, other = unmet.swap
                swap = {"player": names[mover], "other": names[other],
                        "table": next(label for label, keys in tables.items()
                                      if other in keys)}
            words = unmet_words("apart", reason, who, label, club=club,
                                members=len(members.get(club, ())), tables=len(labels),
                                swap=swap)
            out.append({"kind": "apart", "players": who, "table": label,
                        "reason": reason, "club": club, "swap": swap,
                        "message": str(words)})
            continue
        want = constraints.fixed[unmet.players[0]]
        seated_at = next((label for label, keys in tables.items()
                          if unmet.players[0] in keys), None)
        words = unmet_words("fixed", unmet.reason, who, str(want), seated_at=seated_at,
                            tables=len(labels))
        out.append({"kind": "fixed", "players": who, "table": str(want),
                    "reason": unmet.reason, "club": None, "swap": None,
                    "message": str(words)})
    return out


def _club_members(constraints, tables: dict[str, list[int]]) -> dict[str, set[int]]:
    """The players of each club kept apart who are seated in the round."""
    members: dict[str, set[int]] = {}
    seated = {pid for keys in tables.values() for pid in keys}
    for (a, b), club in constraints.apart.items():
        if club is not None:
            members.setdefault(club, set()).update(p for p in (a, b) if p in seated)
    return members


def _unavoidable(constraints, members: dict[str, set[int]], unmet, labels) -> bool:
    """A club's pair sharing a table when the club has more players in the round than
    there are tables: some must share one (the pigeonhole: no seating meets every
    pair)."""
    club = constraints.apart.get(tuple(sorted(unmet.players)))
    return bool(club) and len(members.get(club, ())) > len(labels)


def unmet_words(kind: str, reason: str, who: list[str], table: str, *, club=None,
                members: int = 0, tables: int = 0, seated_at=None,
                swap: dict | None = None) -> Message:
    """A constraint a round breaks (:func:`unmet_report`'s), as words: ``kind``
    ``apart`` (``who`` two players sharing ``table``; ``club`` the club keeping
    them apart, with ``members`` of it in a round of ``tables`` tables when the
    ``reason`` is ``unavoidable``; ``swap`` the trade that parts them when it is
    ``partable``) or ``fixed`` (``who`` the player fixed to ``table``, ``seated_at``
    where they sit)."""
    if kind == "apart":
        if reason == "unavoidable":
            how = Message(N_("club %(club)s has %(count)s players in the round at 1 table, "
                             "so some share one") if tables == 1 else
                          N_("club %(club)s has %(count)s players in the round at "
                             "%(tables)s tables, so some share one"),
                          {"club": club, "count": members, "tables": tables})
        elif reason == "partable":
            how = Message(N_("the round's seating puts them together; swapping %(player)s "
                             "and %(other)s (table %(table)s) parts them"), swap)
        else:
            how = Message(N_("no seating found kept them apart with every table's size "
                             "kept"))
        said = {"first": who[0], "second": who[1], "table": table, "club": club, "how": how}
        return Message(N_("%(first)s and %(second)s (both of club %(club)s) share table "
                          "%(table)s: %(how)s") if club else
                       N_("%(first)s and %(second)s (kept apart) share table %(table)s: "
                          "%(how)s"), said)
    said = {"player": who[0], "table": table, "seated_at": seated_at, "count": tables}
    if reason == "no-such-table":
        return Message(N_("%(player)s is fixed to table %(table)s, but the round has "
                          "%(count)s table") if tables == 1 else
                       N_("%(player)s is fixed to table %(table)s, but the round has "
                          "%(count)s tables"), said)
    if reason == "bye":
        return Message(N_("%(player)s is fixed to table %(table)s, but has a bye"), said)
    if reason == "table-full":
        return Message(N_("%(player)s is fixed to table %(table)s, but sits at table "
                          "%(seated_at)s: every seat at table %(table)s is held by a player "
                          "fixed there"), said)
    return Message(N_("%(player)s is fixed to table %(table)s, but the round's seating puts "
                      "them at table %(seated_at)s"), said)


def sorted_labels(labels) -> list[str]:
    return sorted(labels, key=table_order)
