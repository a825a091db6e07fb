"""``dam-stick``: Dam, the Swedish queens trick game (docs/guide/rules.md, "Dam, the
queens trick game"; seed ``001_``).

3 to 6 players, no trumps, follow suit if able. Every queen taken in a trick is a
penalty: QH, QD, QC 5 each, QS 10, so a deal gives 25 unless queens are among the
``52 mod n`` cards set aside. The first trick is led by the dealer's right-hand
neighbour (seat ``dealer - 1``).

Decisions where the rules (docs/guide/rules.md) are silent:

- A card played by the wrong seat on move 1 breaks ``first-leader``; a card no
  seat holds (set aside) is ``card-not-held``.
- ``no_queen_first_trick``: "nothing else" means nothing but queens: a seat void
  in the suit led that holds any non-queen must discard one of those.
- Options: ``deals`` replaces the default ``target`` of 100; giving both
  explicitly is an error.
- Score sheets: a row may leave ``stock`` empty; with 3, 5 or 6 players the check
  then allows any queens (up to ``52 mod n`` of them) to have been set aside. With
  the stock given, the total must be exactly 25 minus the queens in it.
- Bots: the heuristic uses only its own hand and the cards on the table.
"""
from __future__ import annotations

import random
from itertools import combinations

from ..cards import CARD_NAMES, QS, QUEEN, cards_of, make_card
from ..errors import IllegalMove, RecordError
from ..errors.seats import seat_text
from .base import (
    DealEvent,
    DealOutcome,
    DealSetup,
    LazyEventsOutcome,
    MatchRules,
    OptionSpec,
    deal_option,
    dealer_option,
    places_from_scores,
)
from .presentation import (
    N_,
    Cards,
    Message,
    Note,
    flag_sentence,
    or_words,
    seat_words,
    target_tie_extra_sentence,
)
from .trick_play import (
    TrickGame,
    TrickState,
    by_rank,
    check_seats,
    deal_masks,
    duck_or_shed,
    highest,
    names,
    places_low_best,
)

QUEEN_CARDS = tuple(make_card(QUEEN, suit) for suit in range(4))
QUEENS_MASK = sum(1 << q for q in QUEEN_CARDS)
QS_BIT = 1 << QS
FIVE_QUEENS_MASK = QUEENS_MASK ^ QS_BIT  # QH, QD, QC: 5 each
QUEEN_VALUE = {q: (10 if q == QS else 5) for q in QUEEN_CARDS}
DEAL_POINTS = 25


def _set_aside_words(n: int) -> Message:
    aside = 52 % n
    return Message(N_("with %(n)s players %(aside)s card is set aside (52 mod %(n)s)") if aside == 1
                   else N_("with %(n)s players %(aside)s cards are set aside (52 mod %(n)s)"),
                   {"n": n, "aside": aside})


def queen_points(mask: int) -> int:
    """The penalty of a set of cards: the queens in it."""
    return (10 if mask & QS_BIT else 0) + 5 * (mask & FIVE_QUEENS_MASK).bit_count()


# QUEEN_POINTS[mask & QUEENS_MASK]: queen_points as one lookup (16 entries).
QUEEN_POINTS = {
    sum(1 << q for q in combo): queen_points(sum(1 << q for q in combo))
    for k in range(5) for combo in combinations(QUEEN_CARDS, k)
}


def _deal_events(state: TrickState) -> list[DealEvent]:
    """The events of a finished deal (built only when read: see LazyEventsOutcome)."""
    events: list[DealEvent] = []
    aside = state.out_of_play & QUEENS_MASK
    if aside:
        events.append(DealEvent(
            0, None, "queens-set-aside",
            f"{names(aside)} set aside: this deal gives {DEAL_POINTS - queen_points(aside)} points",
        ))
    n = state.nplayers
    for trick, (mask, seat) in enumerate(zip(state.trick_masks, state.winners), 1):
        if mask & QUEENS_MASK:
            for queen in cards_of(mask & QUEENS_MASK):
                events.append(DealEvent(
                    trick * n, seat, "queen-taken",
                    f"{seat_text(seat)} takes {CARD_NAMES[queen]} in trick {trick} ({QUEEN_VALUE[queen]} points)",
                ))
    return events


class DamStick(TrickGame):
    """The rule book of ``dam-stick``; states are :class:`TrickState`."""

    id = "dam-stick"
    name = "Dam (queens trick game)"
    summary = (
        "A trick game without trumps. All cards are dealt (52 mod players set aside "
        "unseen); the player to the dealer's right leads the first trick. Follow suit if "
        "able, otherwise play any card; the highest card of the suit led wins the trick "
        "and leads next. Queens taken score penalties: hearts, diamonds and clubs 5 each, "
        "spades 10. The match ends after the deal in which someone reaches the target "
        "(100), with extra deals while the lowest total is shared; lowest total wins.")
    title = N_("Dam, the queens trick game")
    tagline = N_("A trick game without trumps in which the queens are penalties; "
                 "the lowest total wins.")
    min_players = 3
    max_players = 6
    preferred_players = 4
    option_specs = (
        OptionSpec("no_queen_first_trick", "bool", False,
                   "house rule: no queen may be discarded on the first trick unless the hand holds nothing else",
                   sentence=flag_sentence(
                       N_("No queen may be discarded on the first trick unless the hand holds "
                          "nothing else."),
                       N_("Queens may be discarded on the first trick."))),
        dealer_option(("rotate", "free"), "the dealer rotates clockwise (rotate) or is chosen freely (free)"),
        OptionSpec("target", "int", 100,
                   "the deal in which some seat's total reaches this is the last, unless the lowest total is shared",
                   minimum=1, sentence=target_tie_extra_sentence),
        deal_option("deals", "a fixed number of deals instead of the target (no extra deals on a tie)"),
    )

    queens_noted = frozenset(QUEEN_CARDS)

    # ---- presentation

    def counting_cards(self, cards) -> list[int]:
        return [c for c in cards if c % 13 == QUEEN]

    def note(self, event: DealEvent, steps, options: dict) -> Note:
        if event.kind == "queens-set-aside":
            aside = Cards(c for c in self.counting_cards(steps.stock or ()))
            return Note(event.move, event.seat, event.kind,
                        Message(N_("Set aside unseen: %(cards)s"), {"cards": aside}))
        return super().note(event, steps, options)

    # ---- options

    def resolve_options(self, raw=None) -> dict:
        raw = dict(raw or {})
        # `deals` replaces the default target; both given explicitly stays an error.
        if raw.get("deals") not in (None, "") and raw.get("target") in (None, ""):
            raw["target"] = None
        return super().resolve_options(raw)

    def match_rules(self, options: dict) -> MatchRules:
        if options.get("deals") is not None:
            return MatchRules(deals=options["deals"], dealer=options["dealer"])
        return MatchRules(target=options["target"], tie_extra=True, dealer=options["dealer"])

    # ---- a deal

    def new_deal(self, setup: DealSetup, options: dict) -> TrickState:
        n = check_seats(setup, self.id, 3, 6)
        hands, stock = deal_masks(setup, 52 // n, None, _set_aside_words, "stock-size")
        st = TrickState(self, n, setup.dealer, setup.deal_number, hands, (setup.dealer - 1) % n, stock,
                        n * (52 // n))
        if options.get("no_queen_first_trick"):
            st.first_trick_barred = QUEENS_MASK
        return st

    def first_lead_rule(self, state: TrickState) -> tuple[str, Message]:
        return "first-leader", Message(N_("the dealer's right-hand neighbour (%(seat)s) leads "
                                          "the first trick"),
                                       {"seat": seat_words(state.first_leader)})

    def first_trick_rule(self, state: TrickState) -> tuple[str, Message]:
        words = Message(N_("no queen may be discarded on the first trick while the hand holds "
                           "other cards (no_queen_first_trick)"))
        return "no-queen-first-trick", words

    def outcome(self, state: TrickState) -> DealOutcome:
        if state.moves != state.total_moves:
            raise IllegalMove("record-incomplete", Message(N_("the deal is not over")))
        scores = [QUEEN_POINTS[mask & QUEENS_MASK] for mask in state.taken]
        return LazyEventsOutcome(scores, places_low_best(scores), "moves", None, state.moves,
                                 _deal_events, (state,))

    # ---- score sheets

    def negative_scores(self, options: dict) -> bool:
        return False  # queens taken, 0 and up

    def check_score_sheet(self, setup: DealSetup, scores: list, options: dict) -> DealOutcome:
        n = setup.nplayers
        if not isinstance(n, int) or not 3 <= n <= 6:
            raise RecordError(Message(N_("%(game)s is played by %(low)s to %(high)s players, "
                                         "not %(n)s"),
                                      {"game": "dam-stick", "low": 3, "high": 6, "n": n}),
                              rule="player-count", column="players")
        if len(scores) != n:
            raise IllegalMove("score-sheet-seats", Message(
                N_("%(game)s score sheet gives %(count)s scores for %(n)s seats"),
                {"game": "dam-stick", "count": len(scores), "n": n}))
        for seat, score in enumerate(scores):
            if type(score) is not int or not 0 <= score <= DEAL_POINTS or score % 5:
                raise IllegalMove(
                    "score-sheet-value",
                    Message(N_("dam-stick score %(score)s is not a sum of queens (QH, QD, QC 5 "
                               "each, QS 10)"), {"score": score}),
                    seat=seat,
                )
        aside_count = 52 % n
        stock = setup.stock or []
        if aside_count and len(stock) not in (0, aside_count):
            raise RecordError(Message(N_("with %(n)s players %(aside)s cards are set aside; the "
                                         "stock holds %(count)s"),
                                      {"n": n, "aside": aside_count, "count": len(stock)}),
                              rule="stock-size", column="stock")
        if len(stock) == aside_count:
            choices = [sum(1 << c for c in stock) & QUEENS_MASK]
            said = (Message(N_("%(cards)s set aside"), {"cards": Cards(cards_of(choices[0]))})
                    if choices[0] else Message(N_("no queen set aside")))
        else:
            choices = [sum(1 << q for q in combo)
                       for k in range(aside_count + 1) for combo in combinations(QUEEN_CARDS, k)]
            said = Message(N_("%(n)s card set aside") if aside_count == 1 else
                           N_("%(n)s cards set aside"), {"n": aside_count})
        for aside in choices:
            if self._split_possible(scores, aside):
                return DealOutcome(list(scores), places_from_scores(scores), verified="scores")
        total = sum(scores)
        totals = sorted({DEAL_POINTS - queen_points(a) for a in choices}, reverse=True)
        if total not in totals:
            raise IllegalMove("score-sheet-total", Message(
                N_("dam-stick deal totals %(total)s; with %(n)s players and %(said)s a deal gives "
                   "%(allowed)s"),
                {"total": total, "n": n, "said": said, "allowed": or_words(totals)}))
        raise IllegalMove("score-sheet-split", Message(
            N_("dam-stick scores %(scores)s cannot come from one deal: the queens in play "
               "(%(said)s) cannot be split that way (QS alone is worth 10)"),
            {"scores": ";".join(map(str, scores)), "said": said}))

    @staticmethod
    def _split_possible(scores: list[int], aside: int) -> bool:
        in_play = QUEENS_MASK ^ aside
        if sum(scores) != queen_points(in_play):
            return False
        # Every score is a multiple of 5 and the 5-point queens are alike, so only
        # QS needs a seat: one whose score is at least 10.
        return not in_play & QS_BIT or any(s >= 10 for s in scores)

    # ---- bots

    def random_setup(self, nplayers: int, dealer: int | None, deal_number: int,
                     options: dict, rng: random.Random) -> DealSetup:
        self.check_player_count(nplayers)
        deck = list(range(52))
        rng.shuffle(deck)
        size = 52 // nplayers
        hands = [sorted(deck[i * size:(i + 1) * size]) for i in range(nplayers)]
        stock = deck[nplayers * size:]
        dealer = 0 if dealer is None else dealer
        return DealSetup(nplayers, dealer, hands, None, stock, None, deal_number)

    def heuristic_move(self, state: TrickState, legal: int) -> int:
        """Lead low, duck under the winning card, throw queens (QS first) when void."""
        if not state.trick_len:
            safe = legal & ~QUEENS_MASK
            return by_rank(safe or legal, highest_first=False)
        card = duck_or_shed(state, legal, QUEENS_MASK)
        if card is not None:
            return card
        if legal & QS_BIT:
            return QS
        if legal & QUEENS_MASK:
            return highest(legal & QUEENS_MASK)
        return by_rank(legal, highest_first=True)


DAM_STICK = DamStick()

__all__ = ["DAM_STICK", "QUEENS_MASK", "DamStick", "queen_points"]
