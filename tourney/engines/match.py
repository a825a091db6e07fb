"""Match rules, common to every game: numbering, players, dealer, end rule, ranking.

A match is the deals one table plays in one round. Each game describes its match
with a :class:`~tourney.engines.base.MatchRules`; this module checks a sequence of
checked deals against it and ranks the players. It works on player names, not
seats, because in ``dam-brade`` the colours (and so the seat order) alternate.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from ..errors import RecordError
from .base import MatchRules
from .presentation import N_, Message


@dataclass
class PlayedDeal:
    """What the match rules need to know of one deal (already checked)."""

    line: int | None
    number: int
    players: list[str]
    dealer: str | None
    scores: list


@dataclass
class MatchRanking:
    totals: dict[str, float]
    ranking: list[tuple[str, int]]  # (player, place) best first; shared places repeat
    deals: int = 0
    lost: dict[str, int] = field(default_factory=dict)


def rank_totals(totals: dict[str, float], higher_is_better: bool,
                order: Sequence[str] | None = None) -> list[tuple[str, int]]:
    """Competition ranking (1, 2, 2, 4) of players by total; ties keep ``order``."""
    names = list(order or totals)
    sign = -1 if higher_is_better else 1
    keyed = {n: sign * totals[n] for n in names}
    ranked = sorted(names, key=lambda n: keyed[n])  # stable: seat order breaks display ties
    return [(n, 1 + sum(1 for m in names if keyed[m] < keyed[n])) for n in ranked]


def _error(message: Message, deal: PlayedDeal | None, rule: str, column: str | None = None) -> RecordError:
    return RecordError(message, rule=rule, line=deal.line if deal else None, column=column)


# The match rules' errors in words, one home for the fast check (check_match) and
# the careful one (match_errors).

def _numbering_error(deal: PlayedDeal, expected: int) -> RecordError:
    return _error(Message(N_("deal %(number)s where deal %(expected)s was due: deals are "
                             "numbered 1, 2, 3... without gaps"),
                          {"number": deal.number, "expected": expected}),
                  deal, "deal-numbering", "deal")


def _colours_error(deal: PlayedDeal, due: list[str]) -> RecordError:
    """Colours alternate: ``due`` is the players this game must have."""
    return _error(Message(N_("colours alternate: this game's players must be the previous "
                             "game's reversed (%(players)s)"), {"players": ";".join(due)}),
                  deal, "colours-alternate", "players")


def _players_error(deal: PlayedDeal, reference: PlayedDeal) -> RecordError:
    """``deal``'s players are not ``reference``'s (another player, or another order)."""
    had = {"number": reference.number, "players": ";".join(reference.players)}
    if set(deal.players) != set(reference.players):
        return _error(Message(N_("the players change within the match (a match is one "
                                 "table's deals; deal %(number)s has %(players)s)"), had),
                      deal, "same-players", "players")
    return _error(Message(N_("the seat order changes within the match (deal %(number)s has "
                             "%(players)s)"), had), deal, "same-players", "players")


def check_match(rules: MatchRules, deals: Sequence[PlayedDeal]) -> MatchRanking:
    """Check a match's deals against its rules; :class:`RecordError` on the first
    broken rule (with the line of the deal that breaks it), else the ranking."""
    if not deals:
        raise RecordError(Message(N_("a match needs at least one deal")), rule="match-empty")
    first = deals[0]
    tally = MatchTally(first.players)
    finished_at: int | None = None  # index of the deal that ended the match
    # The common rules without a call per deal (the same tests as _check_dealer,
    # MatchTally.add and match_is_over, inlined; anything else asks them).
    rotate = rules.dealer == "rotate"
    deals_rule = rules.deals
    add, totals, lost = tally.add, tally.totals, tally.lost

    for index, deal in enumerate(deals):
        expected = index + 1
        if deal.number != expected:
            raise _numbering_error(deal, expected)
        if finished_at is not None:
            raise _error(_finished_text(rules, finished_at + 1), deal, "match-too-long", "deal")
        if index and rules.alternate_colours:
            due = list(reversed(deals[index - 1].players))
            if deal.players != due:
                raise _colours_error(deal, due)
        elif deal.players != first.players:
            raise _players_error(deal, first)
        if index:
            previous = deals[index - 1]
            if not rotate or previous.dealer is None or deal.dealer is None:
                _check_dealer(rules, previous, deal)
            else:
                players = previous.players
                if deal.dealer != players[(players.index(previous.dealer) + 1) % len(players)]:
                    _check_dealer(rules, previous, deal)  # says who should deal

        if deals_rule is None:
            add(deal.players, deal.scores)
            if tally.is_over(rules):
                finished_at = index
        else:  # MatchTally.add, and over once `deals` deals are played
            players, scores = deal.players, deal.scores
            tally.played += 1
            for player, score in zip(players, scores):
                totals[player] += score
            worst = max(scores)
            if worst > 0:
                for player, score in zip(players, scores):
                    if score == worst:
                        lost[player] += 1
            if tally.played >= deals_rule:
                finished_at = index

    if finished_at is None and has_end_rule(rules):
        raise _error(_unfinished_text(rules, tally.totals, tally.lost, len(deals)), deals[-1],
                     "match-incomplete", "deal")
    ranking = rank_totals(tally.totals, rules.higher_is_better, first.players)
    return MatchRanking(totals=tally.totals, ranking=ranking, deals=len(deals), lost=tally.lost)


def match_errors(rules: MatchRules | None, deals: Sequence[PlayedDeal], *,
                 numbered: bool = True) -> list[RecordError]:
    """Every problem of a match that can be told apart from the others, by line.

    The careful path, for a match :func:`check_match` refused or one with a refused
    deal (a valid match never comes here). ``deals``: the match's deals of distinct
    numbers, in number order; a deal whose ``scores`` are None was refused (its
    scores are not known), one whose ``players`` (``dealer``) are None had them
    refused on its own row. ``numbered``: the deal number of every row of the match
    is known (else a gap may be an unreadable row's number, and is not said).
    ``rules`` None: the game is not known, only the numbering is checked.

    A problem that may follow from one already found is not said (a follow-on is
    no second mistake): each gap in the numbering is one; the players are
    compared with the first deal's, and only the first deal that differs is said;
    the dealer is compared only between consecutive deals whose players and dealer
    are sound, and only the first broken turn is said (the next dealer follows
    the wrong one or the right one, and either may be what the table did); the end
    rule is checked only when every deal, its number and its players are sound
    (a fixed number of deals: when the numbering is), and no dealer is judged
    after the deal that ended the match.
    """
    errors: list[RecordError] = []
    if not deals:
        return errors
    numbering_sound = numbered
    if numbered:
        expected = 1
        for deal in deals:
            if deal.number != expected:
                errors.append(_numbering_error(deal, expected))
                numbering_sound = False
            expected = deal.number + 1
    if rules is None:
        return errors

    # The players: each deal's as the first deal with sound players has them.
    reference = next((d for d in deals if d.players is not None), None)
    sound = [d.players is not None for d in deals]  # players as the reference says
    roster_sound = reference is not None and all(sound)
    if reference is not None:
        roster = set(reference.players)
        reversed_players = list(reversed(reference.players))
        said = False
        for index, deal in enumerate(deals):
            if deal.players is None or deal is reference:
                continue
            if rules.alternate_colours:
                due = (reference.players if (deal.number - reference.number) % 2 == 0
                       else reversed_players)
            else:
                due = reference.players
            if deal.players == due:
                continue
            sound[index] = False
            if set(deal.players) != roster:
                roster_sound = False
            if said:
                continue
            said = True
            errors.append(_colours_error(deal, due) if rules.alternate_colours
                          else _players_error(deal, reference))

    # The end rule, where everything it counts is sound; `last`: the deal that
    # ended the match (no dealer is judged after it).
    last: int | None = None
    if (numbering_sound and roster_sound and has_end_rule(rules)
            and all(d.scores is not None for d in deals)):
        tally = MatchTally(reference.players)
        for index, deal in enumerate(deals):
            if last is not None:
                errors.append(_error(_finished_text(rules, last + 1), deal,
                                     "match-too-long", "deal"))
                break
            tally.add(deal.players, deal.scores)
            if tally.is_over(rules):
                last = index
        else:
            if last is None:
                errors.append(_error(_unfinished_text(rules, tally.totals, tally.lost,
                                                     len(deals)), deals[-1],
                                     "match-incomplete", "deal"))
    elif numbering_sound and rules.deals is not None:
        if len(deals) > rules.deals:
            last = rules.deals - 1
            errors.append(_error(_finished_text(rules, rules.deals), deals[rules.deals],
                                 "match-too-long", "deal"))
        elif len(deals) < rules.deals:
            errors.append(_error(_unfinished_text(rules, {}, {}, len(deals)), deals[-1],
                                 "match-incomplete", "deal"))

    if rules.dealer in ("rotate", "loser-deals"):
        end = len(deals) if last is None else last + 1
        for index in range(1, end):
            previous, deal = deals[index - 1], deals[index]
            if (deal.number != previous.number + 1 or not (sound[index - 1] and sound[index])
                    or previous.dealer is None or deal.dealer is None
                    or (rules.dealer == "loser-deals" and previous.scores is None)):
                continue
            try:
                _check_dealer(rules, previous, deal)
            except RecordError as err:
                errors.append(err)
                break
    errors.sort(key=lambda err: (err.line is None, err.line or 0))
    return errors


class MatchTally:
    """Running totals and lost-deal counts of a match, by player name."""

    def __init__(self, players: Sequence[str]):
        self.totals = {p: 0 for p in players}
        self.lost = {p: 0 for p in players}
        self.played = 0

    def add(self, players: Sequence[str], scores: Sequence) -> None:
        self.played += 1
        for player, score in zip(players, scores):
            self.totals[player] += score
        # A lost deal (svarta-maja's `losses` rule): the seat with the worst score,
        # where the worst is a penalty at all.
        worst = max(scores)
        if worst > 0:
            for player, score in zip(players, scores):
                if score == worst:
                    self.lost[player] += 1

    def is_over(self, rules: MatchRules) -> bool:
        return match_is_over(rules, self.totals, self.lost, self.played)


def has_end_rule(rules: MatchRules) -> bool:
    return rules.deals is not None or rules.target is not None or rules.losses is not None


def match_is_over(rules: MatchRules, totals: dict, lost: dict, played: int) -> bool:
    if rules.deals is not None:
        return played >= rules.deals
    if rules.losses is not None:
        return max(lost.values()) >= rules.losses
    if rules.target is not None:
        if max(totals.values()) < rules.target:
            return False
        if rules.tie_extra:
            best = min(totals.values())
            return sum(1 for t in totals.values() if t == best) == 1
        return True
    return False


def _deals(count: int, lost: bool = False) -> Message:
    """``1 deal``, ``3 deals``, ``1 lost deal``."""
    if lost:
        return Message(N_("%(n)s lost deal") if count == 1 else N_("%(n)s lost deals"),
                       {"n": count})
    return Message(N_("%(n)s deal") if count == 1 else N_("%(n)s deals"), {"n": count})


def _finished_text(rules: MatchRules, ended: int) -> Message:
    if rules.deals is not None:
        return Message(N_("the match is %(deals)s; this deal is one too many"),
                       {"deals": _deals(rules.deals)})
    if rules.losses is not None:
        return Message(N_("the match ended after deal %(ended)s, when a player reached "
                          "%(lost)s; the record goes on"),
                       {"ended": ended, "lost": _deals(rules.losses, lost=True)})
    if rules.tie_extra:
        return Message(N_("the match ended after deal %(ended)s, when a total reached the "
                          "target %(target)s and the lowest total was not shared; the "
                          "record goes on"), {"ended": ended, "target": rules.target})
    return Message(N_("the match ended after deal %(ended)s, when a total reached the "
                      "target %(target)s; the record goes on"),
                   {"ended": ended, "target": rules.target})


def _unfinished_text(rules: MatchRules, totals: dict, lost: dict, played: int) -> Message:
    if rules.deals is not None:
        return Message(N_("the match is %(deals)s; the record has %(played)s"),
                       {"deals": _deals(rules.deals), "played": played})
    if rules.losses is not None:
        return Message(N_("the match ends when a player has lost %(lost)s; after %(played)s "
                          "the most is %(most)s"),
                       {"lost": _deals(rules.losses), "played": _deals(played),
                        "most": max(lost.values())})
    if rules.tie_extra and max(totals.values()) >= rules.target:
        return Message(N_("the target %(target)s is reached but the lowest total is shared: "
                          "extra deals are played until one player alone has it"),
                       {"target": rules.target})
    return Message(N_("the match ends when a total reaches the target %(target)s; after "
                      "%(played)s the highest is %(highest)s"),
                   {"target": rules.target, "played": _deals(played),
                    "highest": max(totals.values())})


def _check_dealer(rules: MatchRules, previous: PlayedDeal, deal: PlayedDeal) -> None:
    if rules.dealer in (None, "free"):
        return
    players = previous.players
    if previous.dealer is None or deal.dealer is None or previous.dealer not in players:
        return  # a missing dealer, or one not at the table, is reported on the deal itself
    if rules.dealer == "rotate":
        expected = players[(players.index(previous.dealer) + 1) % len(players)]
        why = N_("the dealer moves clockwise: the previous dealer's left neighbour deals")
    elif rules.dealer == "loser-deals":
        worst = max(previous.scores)
        expected = players[previous.scores.index(worst)]
        why = N_("the loser of the previous deal deals (dealer=loser-deals)")
    else:  # pragma: no cover - a game declared an unknown dealer rule
        raise ValueError(rules.dealer)
    if deal.dealer != expected:
        raise _error(Message(N_("%(dealer)s deals, but %(expected)s should: %(why)s"),
                             {"dealer": deal.dealer, "expected": expected,
                              "why": Message(why)}), deal,
                     "dealer-rotation", "dealer")
