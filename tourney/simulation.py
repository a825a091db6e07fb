"""Simulated matches: bots playing the real engines, written as deal records.

Feeds the examples, the tests and the benchmarks (``tourney simulate``), and the
ratings back-test, where each player's bot has its own skill. Also random results
for Swiss events played without engines (:func:`random_pair_results`).
"""
from __future__ import annotations

import random
from typing import Iterator, Mapping, Sequence

from .engines.base import Game
from .engines.match import MatchTally, has_end_rule
from .errors import UsageError
from .errors.words import N_, Message
from .records.csv_format import DealRecord

# A match with no end rule and no --deals plays this many deals.
DEFAULT_DEALS = 4
# A guard against an end rule that is never reached (e.g. a target no bot gets to).
MAX_DEALS_PER_MATCH = 200


def finish_deal(game: Game, state, rng: random.Random,
                skills: float | Sequence[float]) -> list[str]:
    """Bot moves from ``state`` (played on in place) to the end of its deal; their
    tokens. ``skills``: one skill for every seat, or a skill a seat."""
    tokens = []
    while not game.is_over(state):
        if isinstance(skills, (int, float)) or game.move_spans_seats:
            skill = skills
        else:
            seat = game.to_move(state)
            skill = skills[seat] if seat is not None else 1.0
        move = game.choose_move(state, rng, skill)
        tokens.append(game.format_move(move))
        game.play(state, move)
    return tokens


def play_deal(game: Game, setup, options: dict, rng: random.Random,
              skills: Sequence[float]) -> tuple[list[str], list]:
    """Play one deal with bots; the move tokens and the scores."""
    state = game.new_deal(setup, options)
    tokens = finish_deal(game, state, rng, skills)
    return tokens, game.outcome(state).scores


def simulate_match(game: Game, options: dict, players: Sequence[str], rng: random.Random,
                   *, event: str | None = None, round_number: int = 1, table: str = "1",
                   deals: int | None = None, skills: Mapping[str, float] | float = 1.0,
                   first_dealer: int = 0, with_scores: bool = True,
                   variant_column: bool = True) -> list[DealRecord]:
    """The records of one match played to its end rule (or ``deals`` deals)."""
    rules = game.match_rules(options)
    ends_by_rule = has_end_rule(rules)
    if deals is not None and ends_by_rule and rules.deals != deals:
        raise UsageError(Message(N_("%(variant)s matches here end by their own rule (%(rule)s); "
                                    "to play %(deals)s deals, set the rule %(deals_rule)s"),
                                 {"variant": game.id, "rule": _rule_text(rules), "deals": deals,
                                  "deals_rule": f"deals={deals}"}), setting="rule")
    wanted = deals if deals is not None else (None if ends_by_rule else DEFAULT_DEALS)
    seats = list(players)
    dealer = first_dealer if rules.dealer is not None else None
    tally = MatchTally(seats)
    records: list[DealRecord] = []
    number = 0
    while True:
        number += 1
        skill_of = [skills.get(p, 1.0) if isinstance(skills, Mapping) else skills for p in seats]
        setup = game.random_setup(len(seats), dealer, number, options, rng)
        tokens, scores = play_deal(game, setup, options, rng, skill_of)
        records.append(DealRecord(
            line=0, event=event, variant=game.id if variant_column else None,
            round=round_number, table=table, deal=number, players=list(seats),
            dealer=seats[dealer] if dealer is not None else None,
            hands=setup.hands, secrets=setup.secrets, stock=setup.stock, passes=setup.passes,
            play=tokens, scores=[game.format_score(s) for s in scores] if with_scores else None,
        ))
        tally.add(seats, scores)
        if wanted is not None:
            if number >= wanted:
                break
        elif tally.is_over(rules) or number >= MAX_DEALS_PER_MATCH:
            break
        if rules.alternate_colours:
            seats.reverse()
        if dealer is not None:
            if rules.dealer == "loser-deals":
                dealer = scores.index(max(scores))
            else:
                dealer = (dealer + 1) % len(seats)
    return records


def _rule_text(rules) -> str:
    if rules.target is not None:
        return f"target={rules.target}"
    if rules.losses is not None:
        return f"losses={rules.losses}"
    return f"deals={rules.deals}"


def simulate_rounds(game: Game, options: dict, nplayers: int, *, rounds: int = 1,
                    tables: int = 1, seed: int = 0, deals: int | None = None,
                    skill: float = 1.0, event: str | None = None,
                    names: Sequence[str] | None = None) -> Iterator[DealRecord]:
    """Standalone simulation: ``tables`` tables of ``nplayers`` for ``rounds`` rounds,
    players named P1, P2... (or ``names``), reseated at random each round."""
    rng = random.Random(seed)
    pool = list(names) if names else [f"P{i + 1}" for i in range(nplayers * tables)]
    if len(pool) < nplayers * tables:
        raise UsageError(Message(N_("%(names)s names for %(tables)s tables of %(players)s"),
                                 {"names": len(pool), "tables": tables, "players": nplayers}))
    for round_number in range(1, rounds + 1):
        order = pool[:]
        if round_number > 1:
            rng.shuffle(order)
        for t in range(tables):
            seats = order[t * nplayers:(t + 1) * nplayers]
            yield from simulate_match(game, options, seats, rng, event=event,
                                      round_number=round_number, table=str(t + 1),
                                      deals=deals, skills=skill)


def random_pair_results(seating, points: dict, byes: dict, rng: random.Random) -> None:
    """Random results of a round at two-player tables (a seating's ``tables`` and
    ``byes``), added to ``points``: the first seat wins 45 % of the time, the second
    45 %, a draw (half a point each) 10 %; a bye scores 1 and is counted in ``byes``.
    For Swiss events played without engines (the pairing tests and benchmark)."""
    for a, b in seating.tables:
        x = rng.random()
        if x < 0.45:
            points[a] += 1
        elif x < 0.9:
            points[b] += 1
        else:
            points[a] += 0.5
            points[b] += 0.5
    for key in seating.byes:
        points[key] += 1
        byes[key] += 1
