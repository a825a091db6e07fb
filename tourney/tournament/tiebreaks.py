"""The tie-breaks, defined once: what each is called, what it means, how it is
computed and which way is better.

Every reader of tie-breaks reads :data:`TIEBREAKS`: the standings (which compute
only the tie-breaks an event uses), ``event create --tiebreaks`` (the ids it takes),
the terminal's explanation under ``tourney standings``, the pages' column headings and
notes (``label`` and ``note`` are catalogue messages, translated where they are
shown), the JSON (the ids) and the guide (a test checks that it lists every id).
The words name no game: where a direction depends on the game (``score``: scores
are penalties in the card games, game points in checkers), the engine's
``higher_is_better`` picks the note.

A tie-break's value is computed from the players' tallies (:class:`Tally`, summed
from the event's matches by :func:`.standings.standings_table`). Values are exact
(fractions) so equal values are never told apart by a rounding error. ``needs``
names the tally parts beyond the basic ones that only some tie-breaks read, so a
tally collects them only for an event that uses one of those.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Mapping

from ..engines.presentation import N_


@dataclass
class Tally:
    """One player's sums over the event's matches."""

    points: Fraction = Fraction(0)  # exact: shares such as 1/3 must add up exactly
    score: Fraction = Fraction(0)
    shares: Fraction = Fraction(0)  # sum of the per-match shares
    shares_n: int = 0  # the same in counts of 1/Field.scale
    wins: int = 0
    matches: int = 0
    opponents: list[int] = field(default_factory=list)
    # (opponent, 1 / 1/2 / 0 as placed above, level with, or below them): the
    # Sonneborn-Berger weights, the FIDE rule for two players, pairwise at a table
    # (collected only when a tie-break needs "beaten")
    beaten: list[tuple[int, Fraction]] = field(default_factory=list)
    # match points per round (collected only when a tie-break needs "by_round")
    by_round: dict[int, Fraction] = field(default_factory=dict)
    average: Fraction | None = None  # average_share, once the tally is complete

    def average_share(self) -> Fraction:
        """The average share per match; asked for once the tally is complete (every
        opponent asks for it: computed once)."""
        if self.average is None:
            self.average = self.shares / self.matches if self.matches else Fraction(0)
        return self.average


@dataclass(slots=True)
class Field:
    """What a tie-break's value is computed from: the player, their tally, every
    player's tally (opponents' values), and the event's seed (a lot). The
    standings move one Field from player to player (one object, not thousands)."""

    player_id: int
    tally: Tally
    tallies: Mapping[int, Tally]
    seed: int
    scale: int = 1  # the denominator of every tally's shares_n
    matches_lcm: int = 1  # a multiple of every tally's matches

    def opponents_points(self) -> list[Fraction]:
        """The match points of each opponent met (once per match against them), fewest first."""
        tallies = self.tallies
        return sorted(tallies[o].points for o in self.tally.opponents if o in tallies)


@dataclass(frozen=True)
class Tiebreak:
    id: str
    label: str  # the column heading (a catalogue message)
    note: str  # one sentence saying what it measures (a catalogue message)
    value: Callable[[Field], object]
    # "higher" or "lower" is better; "game": as the game's scores (higher_is_better)
    better: str = "higher"
    needs: frozenset = frozenset()  # tally parts only this tie-break reads
    # the note where the game's scores are better higher (for better == "game")
    note_higher: str | None = None
    # a tie-break among the players equal on everything before it (direct
    # encounter): (their ids, every tally) -> each one's value; ``value`` is then
    # the value of a player nobody is equal with
    among_equals: Callable[[list[int], Mapping[int, Tally]], dict[int, object]] | None = None

    def key_sign(self, higher_is_better: bool) -> int:
        """-1 where a higher value is better, else 1: ``sign * value`` sorts best first."""
        higher = self.better == "higher" or (self.better == "game" and higher_is_better)
        return -1 if higher else 1

    def note_for(self, higher_is_better: bool) -> str:
        return self.note_higher if (self.note_higher and higher_is_better) else self.note


def lot_draw(seed: int, player_id: int) -> float:
    """A player's lot in an event: reproducible, independent of the other players."""
    return random.Random(f"tourney-lot:{seed}:{player_id}").random()


def _total(values) -> Fraction:
    return sum(values, Fraction(0))


def _opponents(f: Field) -> Fraction:
    # the average of averages summed as integers over one denominator (each
    # opponent's shares_n / matches, scaled by matches_lcm): exact, and the
    # default tie-break of every event of a season's standings
    tallies, common = f.tallies, f.matches_lcm
    met = [tallies[o].shares_n * (common // tallies[o].matches)
           for o in f.tally.opponents if o in tallies]
    return Fraction(sum(met), f.scale * common * len(met)) if met else Fraction(0)


def _sonneborn_berger(f: Field) -> Fraction:
    tallies = f.tallies
    return _total(weight * tallies[o].points for o, weight in f.tally.beaten if o in tallies)


def _direct_encounter(group: list[int], tallies: Mapping[int, Tally]) -> dict[int, Fraction]:
    """Each player's results against the others of ``group`` (1 for each placed
    above, 1/2 for a shared place), summed; all 0 unless every two of them have met
    (FIDE: a direct encounter separates only players who all played each other)."""
    members = set(group)
    scores = dict.fromkeys(group, Fraction(0))
    met = set()
    for player_id in group:
        for opponent, weight in tallies[player_id].beaten:
            if opponent in members:
                scores[player_id] += weight
                met.add((player_id, opponent))
    every_pair = all((a, b) in met for a in group for b in group if a != b)
    return scores if every_pair else dict.fromkeys(group, Fraction(0))


def _progressive(f: Field) -> Fraction:
    by_round = f.tally.by_round
    running, progressive = Fraction(0), Fraction(0)
    for number in sorted(by_round):
        running += by_round[number]
        progressive += running
    return progressive


_DEFINED = (
    Tiebreak("opponents", N_("Opponents' strength"),
             N_("Opponents' strength: the average share per match of the opponents met "
                "(each counted once per match against them); an average, not a sum, so "
                "meeting more opponents at bigger tables does not raise it."),
             _opponents),
    Tiebreak("score", N_("Relative score"),
             N_("Relative score: the player's deal scores against the mean of their "
                "tables, summed (the scores are penalties: lower is better)."),
             lambda f: f.tally.score, better="game",
             note_higher=N_("Relative score: the player's game points against the mean of "
                            "their tables, summed (higher is better).")),
    Tiebreak("share", N_("Average share"),
             N_("Average share: the player's points per match played, as a share of the "
                "table beaten."),
             lambda f: f.tally.average_share()),
    Tiebreak("buchholz", N_("Buchholz"),
             N_("Buchholz: the match points of the opponents met, summed (more opponents "
                "at bigger tables raise it)."),
             lambda f: _total(f.opponents_points())),
    Tiebreak("buchholz-cut1", N_("Buchholz cut 1"),
             N_("Buchholz cut 1: Buchholz without the opponent with the fewest match "
                "points (FIDE)."),
             lambda f: _total(f.opponents_points()[1:])),
    Tiebreak("median-buchholz", N_("Median Buchholz"),
             N_("Median Buchholz: Buchholz without the opponents with the most and the "
                "fewest match points (FIDE)."),
             lambda f: _total(f.opponents_points()[1:-1])),
    Tiebreak("sonneborn-berger", N_("Sonneborn-Berger"),
             N_("Sonneborn-Berger: each opponent's match points, counted whole for an "
                "opponent placed below at the table and half for a shared place (FIDE; "
                "at bigger tables, pair by pair)."),
             _sonneborn_berger, needs=frozenset({"beaten"})),
    Tiebreak("direct-encounter", N_("Direct encounter"),
             N_("Direct encounter: among players equal on everything before it, the "
                "results of their matches against each other (1 for each placed above, "
                "half for a shared place), when every two of them have met (FIDE)."),
             lambda f: Fraction(0), needs=frozenset({"beaten"}),
             among_equals=_direct_encounter),
    Tiebreak("progressive", N_("Progressive score"),
             N_("Progressive score: the player's running match points after each round, "
                "summed (FIDE; a bye counts in its round)."),
             _progressive, needs=frozenset({"by_round"})),
    Tiebreak("wins", N_("Wins"), N_("Wins: the number of first places."),
             lambda f: f.tally.wins),
    Tiebreak("matches", N_("Matches played"), N_("Matches played: more ranks higher."),
             lambda f: f.tally.matches),
    Tiebreak("lot", N_("Lot"), N_("Lot: a drawing of lots, seeded by the event."),
             lambda f: lot_draw(f.seed, f.player_id), better="lower"),
)

TIEBREAKS: dict[str, Tiebreak] = {t.id: t for t in _DEFINED}
DEFAULT_TIEBREAKS: tuple[str, ...] = ("opponents", "score", "wins")


def needs_of(ids) -> set[str]:
    """The tally parts the tie-breaks ``ids`` read beyond the basic ones."""
    return set().union(*(TIEBREAKS[i].needs for i in ids))
