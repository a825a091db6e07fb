"""An event's standings: match points, then the event's tie-breaks.

Standings are summed from the places of the current version of every match of the
event (:class:`~tourney.storage.models.MatchPlace`, whose match points follow the
event's points system, :mod:`.scoring`), plus the points of the byes seated. Every
entered player has a row, with or without matches. Players equal on points and on
every tie-break share a place (competition places: 1, 2, 2, 4).

Tie-breaks (``Event.tiebreaks_json``, a list of ids, in order; empty means
:data:`DEFAULT_TIEBREAKS`):

- ``score``: the player's deal scores relative to their tables: for each match the
  player's total minus the mean total of the table, summed. Lower is better in the
  card games (scores are penalties), higher in dam-brade (game points).
- ``opponents``: the opponents' strength: the average, over the opponents met
  (each counted once per match played against them), of that opponent's average
  share per match in the event (the share of a place: :func:`.scoring.place_shares`,
  whatever the points system). An average, not a sum, so meeting more opponents
  at bigger tables does not raise it.
- ``buchholz``: the sum of the match points of the opponents met (each opponent
  counted once per match played against them; their points in the whole event).
  It grows with the number of opponents, so it favours players seated at big
  tables; kept for events that ask for it.
- ``wins``: the number of first places (a shared first place counts).
- ``share``: the average share per match played (the points per match under
  ``share`` points): separates a player who missed a round from one who did not.
- ``matches``: matches played; more ranks higher.
- ``lot``: a drawing of lots, seeded by the event's seed and the player: reproducible,
  and a player's draw does not change when others enter or withdraw.

Decisions (the specs are silent):

- A bye gives the event's bye points (:func:`.scoring.event_bye_points`, by default
  a win's worth) once the round is seated; byes count in ``points`` but not in
  ``matches``, ``wins`` or the per-match averages. The number of byes is reported
  on each row.
- The arbiter's forfeits and adjustments (:mod:`.forfeits`) count in ``points``
  only: a forfeit gives the absent player 0 and the table's others a bye's
  points (``forfeits``, ``forfeit_wins`` on each row); an adjustment adds its
  points (``adjustments``, with the reason). Neither counts as a match played or
  in a tie-break.
- ``matches``: more matches played ranks higher (the player who played every round
  ahead of one who missed some, at equal points).
- ``decided_by`` names what separated a player from the player just above: ``points``
  or a tie-break id; ``shared`` when nothing did (the two share a place); ``None``
  for the leader (nobody above). So the first player of a group sharing a place
  still says what put the group below the player above it. ``shared`` (the flag)
  marks every player of such a group, the first one too.
- The relative score is computed exactly (fractions), so players whose scores are
  equal are never separated by a rounding error. Values are kept as they are (JSON
  has them in full); where they are shown, :func:`standing_decimals` says with how
  many decimals, enough that a difference which decided a place shows.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Sequence

from sqlalchemy import func, select
from sqlmodel import Session

from ..engines import get_game
from ..errors import UsageError, no_round
from ..numbers import column_decimals, fixed_text, plain_number
from ..ordering import name_order
from ..storage.models import (
    Adjustment,
    Entry,
    Event,
    Forfeit,
    Match,
    MatchPlace,
    Player,
    Round,
    Seat,
)
from .scoring import event_bye_points
from .settings import event_settings

TIEBREAKS: dict[str, str] = {
    "opponents": "opponents' strength: the average of the opponents' average share "
                 "per match (not a sum, so big tables do not raise it)",
    "score": "deal scores relative to the table mean (card games: lower is better; "
             "dam-brade: higher)",
    "share": "average share of the table beaten per match played",
    "buchholz": "sum of the opponents' match points (grows with the tables' sizes)",
    "buchholz-cut1": "Buchholz without the opponent with the fewest match points (FIDE)",
    "median-buchholz": "Buchholz without the opponents with the most and the fewest match "
                       "points (FIDE)",
    "sonneborn-berger": "each opponent's match points, counted whole for an opponent "
                        "placed below at the table, half for a shared place (FIDE, for "
                        "tables of any size)",
    "progressive": "the sum of the player's running match points after each round (FIDE)",
    "wins": "number of first places",
    "matches": "matches played (more ranks higher)",
    "lot": "by lot, seeded by the event seed",
}
HALF = Fraction(1, 2)
DEFAULT_TIEBREAKS: tuple[str, ...] = ("opponents", "score", "wins")


def check_tiebreaks(ids: Sequence[str]) -> list[str]:
    """The tie-break ids as given, checked: known ids, none twice (the one check,
    for ``event create --tiebreaks`` and for what an event stores)."""
    ids = [str(i).strip() for i in ids]
    for tiebreak in ids:
        if tiebreak not in TIEBREAKS:
            raise UsageError(f"unknown tie-break {tiebreak!r} (tie-breaks: "
                             f"{', '.join(TIEBREAKS)})")
    if len(set(ids)) != len(ids):
        raise UsageError("a tie-break is named twice")
    return ids


def event_tiebreaks(event: Event) -> list[str]:
    """The event's tie-breaks in order, the default order when it names none."""
    return tiebreaks_in_force(event_settings(event).tiebreaks)


def tiebreaks_in_force(ids) -> list[str]:
    """The tie-breaks an event's stored ones put in force: the default order when
    it names none (what every report of an event shows)."""
    return check_tiebreaks(list(ids)) if ids else list(DEFAULT_TIEBREAKS)


@dataclass
class StandingRow:
    player_id: int
    player: str
    place: int
    points: float
    tiebreaks: dict[str, float]  # in the event's tie-break order
    decided_by: str | None
    matches: int = 0
    wins: int = 0
    byes: int = 0
    withdrawn_after: int | None = None
    shared: bool = False  # another player has the same place (equal on everything)
    sort_key: tuple = field(default=(), repr=False, compare=False)
    # the arbiter's (tourney.tournament.forfeits): tables this player forfeited (0
    # points), tables forfeited against them (a bye's points each), and the point
    # adjustments ({"id", "points", "reason", "round"}) counted in ``points``
    forfeits: int = 0
    forfeit_wins: int = 0
    adjustments: list = field(default_factory=list)

    @property
    def rank(self) -> int:
        return self.place

    def to_json(self) -> dict:
        # the numbers as they are: a rounded copy would hide the differences
        # that decided places (0.41358 and 0.40741 both read 0.41)
        return {"place": self.place, "shared": self.shared, "player": self.player,
                "points": plain_number(self.points),
                "tiebreaks": {k: plain_number(v) for k, v in self.tiebreaks.items()},
                "decided_by": self.decided_by, "matches": self.matches, "byes": self.byes,
                "withdrawn_after": self.withdrawn_after, "forfeits": self.forfeits,
                "forfeit_wins": self.forfeit_wins,
                "adjustments": [dict(a, points=plain_number(a["points"]))
                                for a in self.adjustments]}


@dataclass
class _Tally:
    points: Fraction = Fraction(0)  # exact: shares such as 1/3 must add up exactly
    score: Fraction = Fraction(0)
    shares: Fraction = Fraction(0)  # sum of the per-match shares
    wins: int = 0
    matches: int = 0
    opponents: list[int] = field(default_factory=list)
    # (opponent, 1 / 1/2 / 0 as placed above, level with, or below them): the
    # Sonneborn-Berger weights, the FIDE rule for two players, pairwise at a table
    beaten: list[tuple[int, Fraction]] = field(default_factory=list)
    by_round: dict[int, Fraction] = field(default_factory=dict)  # match points per round
    average: Fraction | None = None  # average_share, once the tally is complete

    def average_share(self) -> Fraction:
        """The average share per match; asked for once the tally is complete (every
        opponent asks for it: computed once)."""
        if self.average is None:
            self.average = self.shares / self.matches if self.matches else Fraction(0)
        return self.average


@lru_cache(maxsize=4096)
def _exact(points: float) -> Fraction:
    """A stored match-point value as the fraction it stands for (thirds, quarters...);
    an event has few distinct values, each worked out once."""
    return Fraction(points).limit_denominator(10_000)


@lru_cache(maxsize=4096)
def _exact_shares(places: tuple[int, ...]) -> list[Fraction]:
    """:func:`.scoring.place_shares` as fractions: averages of them never drift.
    Cached by the table's places (a tuple; the list returned is never changed)."""
    n = len(places)
    if n < 2:
        return [Fraction(1)] * n
    return [Fraction(2 * sum(p > place for p in places)
                     + sum(p == place for p in places) - 1, 2 * (n - 1)) for place in places]


def lot_draw(seed: int, player_id: int) -> float:
    """A player's lot in an event: reproducible, independent of the other players."""
    return random.Random(f"tourney-lot:{seed}:{player_id}").random()


def check_round_number(session: Session, event: Event, number: int) -> None:
    """:class:`UsageError` unless ``number`` is a round the event has seated: the
    standings after a round that does not exist are not the final table."""
    seated = max(
        session.execute(select(func.max(Round.number)).where(Round.event_id == event.id))
        .scalar() or 0,
        session.execute(select(func.max(Match.round_number)).where(Match.event_id == event.id))
        .scalar() or 0)
    if not 1 <= number <= seated:
        raise no_round(event.slug, number, seated)


def standings_table(session: Session, event: Event, *, up_to_round: int | None = None,
                    lang: str | None = None) -> list[StandingRow]:
    """The standings of an event, best first (after ``up_to_round`` when given: a
    round the event has seated); players sharing a place by name, as the event's
    language sorts names (``lang`` for an event without one)."""
    if up_to_round is not None:
        check_round_number(session, event, up_to_round)
    tiebreaks = event_tiebreaks(event)
    higher_is_better = get_game(event.variant).higher_is_better

    entries = session.execute(
        select(Entry.player_id, Player.name, Entry.withdrawn_after)
        .join(Player, Player.id == Entry.player_id).where(Entry.event_id == event.id)).all()
    names = {pid: name for pid, name, _ in entries}
    withdrawn = {pid: w for pid, _, w in entries}
    tallies: dict[int, _Tally] = {pid: _Tally() for pid in names}

    query = (select(Match.id, MatchPlace.player_id, MatchPlace.place, MatchPlace.total,
                    MatchPlace.match_points, Match.round_number)
             .join(MatchPlace, MatchPlace.version_id == Match.current_version_id)
             .where(Match.event_id == event.id).order_by(Match.id))
    if up_to_round is not None:
        query = query.where(Match.round_number <= up_to_round)
    tables: dict[int, list[tuple[int, int, float, float]]] = {}
    round_of: dict[int, int] = {}
    for match_id, player_id, place, total, points, number in session.execute(query):
        tables.setdefault(match_id, []).append((player_id, place, total, points))
        round_of[match_id] = number

    for match_id, seats in tables.items():
        mean = sum(Fraction(total) for _, _, total, _ in seats) / len(seats)
        shares = _exact_shares(tuple(place for _, place, _, _ in seats))
        for (player_id, place, total, points), share in zip(seats, shares):
            tally = tallies.get(player_id)
            if tally is None:  # a result for a player no longer entered
                tally = tallies[player_id] = _Tally()
            tally.points += _exact(points)
            tally.shares += share
            tally.score += Fraction(total) - mean
            tally.wins += place == 1
            tally.matches += 1
            tally.opponents.extend(p for p, _, _, _ in seats if p != player_id)
            tally.beaten.extend((p, HALF if q == place else Fraction(int(q > place)))
                                for p, q, _, _ in seats if p != player_id)
            number = round_of[match_id]
            tally.by_round[number] = tally.by_round.get(number, Fraction(0)) + _exact(points)
    missing = [pid for pid in tallies if pid not in names]
    if missing:
        names.update(dict(session.execute(
            select(Player.id, Player.name).where(Player.id.in_(missing))).all()))

    bye_query = (select(Seat.player_id, Round.number).join(Round, Round.id == Seat.round_id)
                 .where(Round.event_id == event.id, Seat.table.is_(None)))
    if up_to_round is not None:
        bye_query = bye_query.where(Round.number <= up_to_round)
    byes: dict[int, int] = {}
    per_bye = _exact(event_bye_points(event))
    for player_id, number in session.execute(bye_query):
        byes[player_id] = byes.get(player_id, 0) + 1
        if player_id in tallies:
            tally = tallies[player_id]
            tally.points += per_bye
            tally.by_round[number] = tally.by_round.get(number, Fraction(0)) + per_bye

    forfeits, forfeit_wins = _forfeits(session, event, up_to_round)
    for player_id, count in forfeit_wins.items():
        if player_id in tallies:
            tallies[player_id].points += count * per_bye
    adjusted = _adjustments(session, event, up_to_round)
    for player_id, items in adjusted.items():
        if player_id in tallies:
            tallies[player_id].points += sum((_exact(a["points"]) for a in items), Fraction(0))

    score_sign = -1 if higher_is_better else 1
    rows = []
    for player_id, tally in tallies.items():
        met = [tallies[o].average_share() for o in tally.opponents if o in tallies]
        theirs = sorted(tallies[o].points for o in tally.opponents if o in tallies)
        running, progressive = Fraction(0), Fraction(0)
        for number in sorted(tally.by_round):
            running += tally.by_round[number]
            progressive += running
        values = {
            "opponents": sum(met, Fraction(0)) / len(met) if met else Fraction(0),
            "share": tally.average_share(),
            "score": tally.score,
            "buchholz": sum(theirs, Fraction(0)),
            "buchholz-cut1": sum(theirs[1:], Fraction(0)),
            "median-buchholz": sum(theirs[1:-1], Fraction(0)),
            "sonneborn-berger": sum((weight * tallies[o].points for o, weight in tally.beaten
                                     if o in tallies), Fraction(0)),
            "progressive": progressive,
            "wins": tally.wins,
            "matches": tally.matches,
            "lot": lot_draw(event.seed, player_id),
        }
        # Sort keys: smaller is better.
        keys = {"opponents": -values["opponents"], "share": -values["share"],
                "score": score_sign * values["score"], "buchholz": -values["buchholz"],
                "buchholz-cut1": -values["buchholz-cut1"],
                "median-buchholz": -values["median-buchholz"],
                "sonneborn-berger": -values["sonneborn-berger"],
                "progressive": -values["progressive"],
                "wins": -values["wins"], "matches": -values["matches"], "lot": values["lot"]}
        sort_key = (-tally.points,) + tuple(keys[t] for t in tiebreaks)
        rows.append(StandingRow(
            player_id=player_id, player=names.get(player_id, f"#{player_id}"), place=0,
            points=float(tally.points), tiebreaks={t: values[t] for t in tiebreaks},
            decided_by=None, matches=tally.matches, wins=tally.wins,
            byes=byes.get(player_id, 0), withdrawn_after=withdrawn.get(player_id),
            sort_key=sort_key, forfeits=forfeits.get(player_id, 0),
            forfeit_wins=forfeit_wins.get(player_id, 0),
            adjustments=adjusted.get(player_id, [])))
    order = name_order(event.lang or lang)
    rows.sort(key=lambda r: (r.sort_key, order(r.player)))
    _assign_places(rows, tiebreaks)
    _show_lots(rows)
    return rows


def _forfeits(session: Session, event: Event, up_to_round: int | None
              ) -> tuple[dict[int, int], dict[int, int]]:
    """Player id -> tables they forfeited, and -> tables forfeited against them
    (the table's other players), in the rounds counted."""
    query = select(Forfeit.round_number, Forfeit.table, Forfeit.player_id).where(
        Forfeit.event_id == event.id)
    if up_to_round is not None:
        query = query.where(Forfeit.round_number <= up_to_round)
    rows = session.execute(query).all()
    if not rows:
        return {}, {}
    lost: dict[int, int] = {}
    gone = {(number, table, pid) for number, table, pid in rows}
    for _, _, pid in gone:
        lost[pid] = lost.get(pid, 0) + 1
    tables = {(number, table) for number, table, _ in rows}
    won: dict[int, int] = {}
    for number, table, pid in session.execute(
            select(Round.number, Seat.table, Seat.player_id).join(Round, Round.id == Seat.round_id)
            .where(Round.event_id == event.id, Round.number.in_({n for n, _ in tables}),
                   Seat.table.in_({t for _, t in tables}))):
        if (number, table) in tables and (number, table, pid) not in gone:
            won[pid] = won.get(pid, 0) + 1
    return lost, won


def _adjustments(session: Session, event: Event, up_to_round: int | None
                 ) -> dict[int, list[dict]]:
    """Player id -> the adjustments counted (one of a later round than
    ``up_to_round`` is not), oldest first."""
    query = (select(Adjustment.id, Adjustment.player_id, Adjustment.points,
                    Adjustment.reason, Adjustment.round_number)
             .where(Adjustment.event_id == event.id).order_by(Adjustment.id))
    out: dict[int, list[dict]] = {}
    for adjustment_id, player_id, points, reason, number in session.execute(query):
        if up_to_round is not None and number is not None and number > up_to_round:
            continue
        out.setdefault(player_id, []).append(
            {"id": adjustment_id, "points": points, "reason": reason, "round": number})
    return out


def _assign_places(rows: list[StandingRow], tiebreaks: list[str]) -> None:
    assign_places(rows, ["points"] + list(tiebreaks))


def assign_places(rows: Sequence, criteria: Sequence[str]) -> None:
    """Places of rows sorted best first by their ``sort_key`` (one value per
    criterion): equal keys share the place of the first (``shared`` on each), and
    ``decided_by`` names the criterion that put a row below the one above
    (``"shared"`` when none did). One rule for players', series' and teams' tables."""
    for index, row in enumerate(rows):
        above = rows[index - 1] if index else None
        below = rows[index + 1] if index + 1 < len(rows) else None
        equal_above = above is not None and above.sort_key == row.sort_key
        row.shared = equal_above or (below is not None and below.sort_key == row.sort_key)
        row.place = above.place if equal_above else index + 1
        if equal_above:
            row.decided_by = "shared"
        elif above is not None:
            row.decided_by = next(c for c, a, b in zip(criteria, above.sort_key, row.sort_key)
                                  if a != b)


# The most decimals a standings column is widened to so that the difference that
# decided a place shows; exact values this close apart are beyond what a float
# tells apart anyway.
MOST_DECIMALS = 12


def standing_decimals(rows: Sequence[StandingRow]) -> dict[str, int]:
    """The decimals each number column of the standings is shown with, by
    ``points`` and tie-break id: the column's own (:func:`~tourney.numbers.column_decimals`:
    the fewest, up to two, that show each value), more where a place was decided
    by that column and its value would otherwise read the same as the one above
    (0.41358 and 0.40741: 0.414 and 0.407, not 0.41 twice). The one rule for the
    terminal, CSV and XLSX files and the site's pages."""
    columns = {"points": [float(row.points) for row in rows]}
    for tiebreak in (rows[0].tiebreaks if rows else ()):
        columns[tiebreak] = [float(row.tiebreaks[tiebreak]) for row in rows]
    decimals = {}
    for name, values in columns.items():
        decided = [(values[i - 1], values[i]) for i, row in enumerate(rows)
                   if i and row.decided_by == name]
        shown = column_decimals(values)
        while shown < MOST_DECIMALS and any(fixed_text(above, shown) == fixed_text(value, shown)
                                            for above, value in decided):
            shown += 1
        decimals[name] = shown
    return decimals


def _show_lots(rows: list[StandingRow]) -> None:
    """Show a lot as the player's position in the drawing (1 = best), not the raw draw."""
    if not rows or "lot" not in rows[0].tiebreaks:
        return
    order = sorted(rows, key=lambda r: r.tiebreaks["lot"])
    for position, row in enumerate(order, 1):
        row.tiebreaks["lot"] = position
