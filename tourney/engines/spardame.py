"""``spardame``: Norwegian Spardame (docs/guide/rules.md, "Spardame", seed ``004_``).

3 to 5 players, no trumps, follow suit if able. Cards are passed before play (the
record's ``hands`` are as dealt, ``passes`` what each seat gives away); the holder
of the lowest club in play leads it. Penalty: QS 100, AH 20, every other heart 10
(240 a deal). A seat that takes every heart in play and QS scores 0 and every
other seat 100; the ``jd_bonus`` and ``no_trick_bonus`` are added after that.

Decisions where the rules (docs/guide/rules.md) are silent:

- ``three_no_twos`` only changes three-player deals; with 4 or 5 players it is
  ignored (an event may seat tables of different sizes). It removes 2H, so a deal
  then gives 230 and the moon needs the 12 hearts in play.
- ``hearts_break``: only a heart *discarded* (played when void in the suit led)
  breaks hearts, as the rules and the seed word it; a heart led by a seat holding
  only hearts does not.
- ``no_points_first_trick`` / ``hearts_break``: "holds nothing else" means holds
  nothing but hearts and QS / nothing but hearts.
- ``qs_with_jd``: replaces the ban on passing QS (she may go with JD); JD may
  always be passed alone.
- ``stock`` must list exactly the removed cards (2C; 2C 2D; or the four 2s), in
  any order; a three- or five-player record with an empty stock is refused.
- ``passes``: in a deal with passing every seat passes exactly the table's count;
  in a no-pass deal (``pass=cycle``) ``passes`` must be empty.
- ``pass=cycle`` counts from deal 1 of the match: left, right, across, none (4
  players) or left, right, none (3 or 5).
- Score sheets: a seat that takes no trick has no penalty, so with
  ``no_trick_bonus`` it scores exactly the bonus (or 100 plus the bonus when
  another seat shot the moon); the JD bonus goes to a seat that took a trick.
- Bots: the pass policy and the heuristic use only their own hand and the table.
"""
from __future__ import annotations

import random
from itertools import combinations

from ..cards import (
    AH,
    CLUBS,
    FULL_DECK_MASK,
    HEARTS,
    JD,
    QS,
    SUIT_MASKS,
    TWO,
    cards_of,
    make_card,
)
from ..errors import IllegalMove, RecordError
from ..errors.seats import seat_text
from ..errors.words import quoted
from .base import (
    DealEvent,
    DealOutcome,
    DealSetup,
    LazyEventsOutcome,
    MatchRules,
    OptionSpec,
    deal_option,
    places_from_scores,
)
from .presentation import (
    N_,
    Card,
    Cards,
    Message,
    Note,
    Seat,
    amount_sentence,
    flag_sentence,
    seat_words,
    target_sentence,
)
from .trick_play import (
    BIT_OF_CARD,
    HEARTS_MASK,
    TrickGame,
    TrickState,
    by_rank,
    check_seats,
    deal_masks,
    duck_or_shed,
    highest,
    places_low_best,
)

QS_BIT = 1 << QS
AH_BIT = 1 << AH
JD_BIT = 1 << JD
TEN_POINT_HEARTS = HEARTS_MASK ^ AH_BIT
POINT_CARDS = HEARTS_MASK | QS_BIT
CLUBS_MASK = SUIT_MASKS[CLUBS]
TWOS = tuple(make_card(TWO, suit) for suit in range(4))

REMOVED: dict[int, tuple[int, ...]] = {
    3: (make_card(TWO, CLUBS),),
    4: (),
    5: (make_card(TWO, CLUBS), make_card(TWO, 2)),  # 2C, 2D
}
REMOVED_MASK = {n: sum(1 << c for c in cards) for n, cards in REMOVED.items()}
TWOS_MASK = sum(1 << c for c in TWOS)
PASS_COUNT = {3: 4, 4: 3, 5: 2}
CYCLE = {3: ("left", "right", "none"), 4: ("left", "right", "across", "none"), 5: ("left", "right", "none")}
PASS_OFFSET = {"left": 1, "right": -1, "across": 2}
# PASS_TARGET[n][direction][seat]: the seat that receives ``seat``'s passed cards.
PASS_TARGET = {n: {d: tuple((seat + offset) % n for seat in range(n)) for d, offset in PASS_OFFSET.items()}
               for n in CYCLE}
REMOVED_COUNT = {mask: mask.bit_count() for mask in (*REMOVED_MASK.values(), TWOS_MASK)}
# HAND_SIZE[cards removed][n]
HAND_SIZE = {k: {n: (52 - k) // n for n in CYCLE} for k in REMOVED_COUNT.values()}
# FIRST_CLUB[removed mask]: the lowest club in play, which opens the deal.
FIRST_CLUB = {mask: ((CLUBS_MASK & ~mask) & -(CLUBS_MASK & ~mask)).bit_length() - 1
              for mask in REMOVED_COUNT}


# Where the cards are passed, in words.
PASS_WORDS = {"left": N_("every seat passes %(count)s cards to the left; passes lists %(seats)s"),
              "right": N_("every seat passes %(count)s cards to the right; passes lists %(seats)s"),
              "across": N_("every seat passes %(count)s cards across; passes lists %(seats)s")}


def _removed_words(removed_mask: int):
    def words(n: int) -> Message:
        if not removed_mask:
            return Message(N_("with %(n)s players the stock lists the removed cards: none"), {"n": n})
        return Message(N_("with %(n)s players the stock lists the removed cards: %(cards)s"),
                       {"n": n, "cards": Cards(cards_of(removed_mask))})
    return words


def _bonus_words(jd: int, no_trick: int) -> Message | str:
    """``, plus jd_bonus -100, plus no_trick_bonus -20`` (the house bonuses in force)."""
    if jd and no_trick:
        return Message(N_(", plus jd_bonus %(jd)s, plus no_trick_bonus %(no_trick)s"),
                       {"jd": jd, "no_trick": no_trick})
    if jd:
        return Message(N_(", plus jd_bonus %(jd)s"), {"jd": jd})
    if no_trick:
        return Message(N_(", plus no_trick_bonus %(no_trick)s"), {"no_trick": no_trick})
    return ""


# HEART_POINTS[hearts]: the penalty of a set of hearts given as its 13 bits, 2H
# lowest (AH 20, every other heart 10), so a seat's hearts score with one shift,
# one AND and one lookup: HEART_POINTS[mask >> HEARTS_SHIFT & 0x1FFF].
HEARTS_SHIFT = 13 * HEARTS
HEART_POINTS = tuple(20 * (h >> 12) + 10 * (h & 0xFFF).bit_count() for h in range(1 << 13))


def penalty(mask: int) -> int:
    """Penalty points of a set of cards (before the moon rule and bonuses)."""
    return (100 if mask & QS_BIT else 0) + (20 if mask & AH_BIT else 0) + 10 * (mask & TEN_POINT_HEARTS).bit_count()


# DEAL_POINTS[removed mask]: the penalty of every point card in play.
DEAL_POINTS = {mask: penalty(POINT_CARDS & ~mask) for mask in REMOVED_COUNT}


def removed_cards(nplayers: int, options: dict) -> tuple[int, ...]:
    """The cards taken out of the deck for this table size (the record's ``stock``)."""
    if nplayers == 3 and options.get("three_no_twos"):
        return TWOS
    return REMOVED[nplayers]


def pass_direction(options: dict, nplayers: int, deal_number: int) -> str:
    """``left``, ``right``, ``across`` or ``none`` for this deal of the match."""
    if options.get("pass", "left") == "left":
        return "left"
    cycle = CYCLE[nplayers]
    return cycle[(max(deal_number, 1) - 1) % len(cycle)]


def _deal_events(state: SpardameState, moon: int | None) -> list[DealEvent]:
    """The events of a finished deal (built only when read: see LazyEventsOutcome)."""
    n = state.nplayers
    taken = state.taken
    events: list[DealEvent] = []
    total = state.total_moves
    for trick, (mask, seat) in enumerate(zip(state.trick_masks, state.winners), 1):
        if mask & QS_BIT:
            events.append(DealEvent(trick * n, seat, "queen-taken",
                                    f"{seat_text(seat)} takes QS in trick {trick} (100 points)"))
            break
    if moon is not None:
        events.append(DealEvent(total, moon, "moon",
                                f"{seat_text(moon)} takes every heart and QS (shoots the moon): "
                                f"0 for {seat_text(moon)}, 100 for every other seat"))
    if state.jd_bonus:
        seat = next(s for s, mask in enumerate(taken) if mask & JD_BIT)
        events.append(DealEvent(total, seat, "jd-bonus",
                                f"{seat_text(seat)} took JD: {state.jd_bonus} (jd_bonus)"))
    if state.no_trick_bonus:
        for seat in range(n):
            if not taken[seat]:
                events.append(DealEvent(total, seat, "no-trick",
                                        f"{seat_text(seat)} took no trick: {state.no_trick_bonus} (no_trick_bonus)"))
    return events


class SpardameState(TrickState):
    """A spardame deal: the trick state plus what scoring needs."""

    __slots__ = ("deal_points", "direction", "jd_bonus", "no_trick_bonus", "passed", "point_cards")


class Spardame(TrickGame):
    """The rule book of ``spardame``; states are :class:`SpardameState`."""

    id = "spardame"
    name = "Spardame (Norwegian)"
    summary = (
        "A hearts-like trick game without trumps for 3-5 players. With 3 players 2C is "
        "removed, with 5 players 2C and 2D. Each seat passes cards to the left before play "
        "(4, 3 or 2 by the number of players); the queen of spades may not be passed. The "
        "lowest club leads the first trick; follow suit if able, otherwise any card; the "
        "highest card of the suit led wins. Penalties: queen of spades 100, ace of hearts "
        "20, other hearts 10 (240 a deal). Taking every heart and the queen of spades "
        "scores 0 and everyone else 100. Lowest total wins.")
    title = N_("Spardame (Norwegian)")
    tagline = N_("A trick game without trumps like hearts: every heart and the queen "
                 "of spades are penalties; cards are passed before play.")
    min_players = 3
    max_players = 5
    preferred_players = 4
    option_specs = (
        OptionSpec("pass", "choice", "left",
                   "pass to the left every deal (left), or left, right, across, none by deal number "
                   "(cycle; at tables of 3 or 5 left, right, none)",
                   choices=("left", "cycle"),
                   sentence=lambda value: Message(
                       N_("Cards are passed left, right, across and not at all, by deal number; "
                          "at tables of 3 or 5, left, right and not at all.")
                       if value == "cycle" else N_("Cards are passed to the left every deal."))),
        OptionSpec("protect_ace_hearts", "bool", False, "the ace of hearts may not be passed either",
                   sentence=flag_sentence(N_("The ace of hearts may not be passed."),
                                          N_("The ace of hearts may be passed."))),
        OptionSpec("qs_with_jd", "bool", False,
                   "the queen of spades may be passed, but only together with the jack of diamonds",
                   sentence=flag_sentence(
                       N_("The queen of spades may be passed only together with the jack of "
                          "diamonds."),
                       N_("The queen of spades may not be passed."))),
        OptionSpec("three_no_twos", "bool", False, "with three players all four 2s are removed, 16 cards each",
                   sentence=flag_sentence(
                       N_("With three players all four twos are removed."),
                       N_("With three players the two of clubs is removed."))),
        OptionSpec("hearts_break", "bool", False,
                   "hearts may not be led until a heart has been discarded, unless the leader holds only hearts",
                   sentence=flag_sentence(
                       N_("Hearts may not be led until a heart has been discarded."),
                       N_("Any suit may be led, hearts included."))),
        OptionSpec("no_points_first_trick", "bool", False,
                   "no heart or queen of spades on the first trick unless the hand holds nothing else",
                   sentence=flag_sentence(
                       N_("No heart or queen of spades on the first trick unless the hand "
                          "holds nothing else."),
                       N_("Hearts and the queen of spades may be played on the first trick."))),
        OptionSpec("jd_bonus", "int", 0, "the jack of diamonds scores this bonus (0, -50 or -100)",
                   choices=(0, -50, -100),
                   sentence=amount_sentence(N_("The jack of diamonds scores %(n)s."),
                                            N_("The jack of diamonds scores nothing."))),
        OptionSpec("no_trick_bonus", "int", 0, "a seat that takes no trick scores this bonus (0 or -50)",
                   choices=(0, -50),
                   sentence=amount_sentence(N_("A player who takes no trick scores %(n)s."),
                                            N_("Taking no trick scores nothing extra."))),
        deal_option("deals"),
        OptionSpec("target", "int", None, "the deal in which some seat's total reaches this is the last",
                   minimum=1, sentence=target_sentence),
    )
    stock_label = N_("Removed from the deck:")
    queens_noted = frozenset((QS,))

    # ---- presentation

    def counting_cards(self, cards) -> list[int]:
        return [c for c in cards if c // 13 == HEARTS or c == QS]

    def passing(self, state: SpardameState) -> tuple[str | None, list[int] | None]:
        return state.direction, state.start_hands

    def note(self, event: DealEvent, steps, options: dict) -> Note:
        if event.kind in ("jd-bonus", "no-trick") and event.seat is not None:
            # the amount in force, not a bare "bonus"
            msgid, key = ((N_("%(player)s took the jack of diamonds: %(n)s"), "jd_bonus")
                          if event.kind == "jd-bonus" else
                          (N_("%(player)s took no trick: %(n)s"), "no_trick_bonus"))
            return Note(event.move, event.seat, event.kind,
                        Message(msgid, {"player": Seat(event.seat), "n": options.get(key)}))
        return super().note(event, steps, options)

    def match_rules(self, options: dict) -> MatchRules:
        return MatchRules(deals=options.get("deals"), target=options.get("target"), dealer="rotate")

    # ---- a deal

    def new_deal(self, setup: DealSetup, options: dict) -> SpardameState:
        """The state before the first move (:meth:`Game.new_deal`): the setup is
        checked, :class:`RecordError` naming what is wrong.

        A well-formed deal is checked here with a few mask operations per seat;
        on any doubt :meth:`_new_deal_checked` checks it rule by rule and names
        the problem. The two give the same state for every deal this one accepts."""
        n = setup.nplayers
        dealer = setup.dealer
        hands = setup.hands
        stock = setup.stock or ()
        if (type(n) is not int or not 3 <= n <= 5 or type(dealer) is not int
                or not 0 <= dealer < n or hands is None or len(hands) != n):
            return self._new_deal_checked(setup, options)
        get = options.get
        removed_mask = TWOS_MASK if n == 3 and get("three_no_twos") else REMOVED_MASK[n]
        hand_size = HAND_SIZE[removed_mask.bit_count()][n]
        if get("pass", "left") == "left":
            direction = "left"
        else:
            direction = pass_direction(options, n, setup.deal_number)
        passes = setup.passes
        bit_of = BIT_OF_CARD.__getitem__
        try:
            masks = [sum(map(bit_of, cards)) for cards in hands]
            stock_mask = sum(map(bit_of, stock))
            passed = [sum(map(bit_of, cards)) for cards in passes] if passes else None
        except (KeyError, TypeError):
            return self._new_deal_checked(setup, options)
        # Sums of distinct bits are their OR: with n * hand_size + len(stock) == 52
        # cards listed, adding up to the full deck means each card once.
        if (stock_mask != removed_mask or len(stock) != REMOVED_COUNT[removed_mask]
                or sum(masks) + stock_mask != FULL_DECK_MASK):
            return self._new_deal_checked(setup, options)
        if direction == "none":
            if passes and any(passes):
                return self._new_deal_checked(setup, options)
            for cards in hands:
                if len(cards) != hand_size:
                    return self._new_deal_checked(setup, options)
            passed = [0] * n
            after = masks.copy()
        else:
            if passed is None or len(passed) != n:
                return self._new_deal_checked(setup, options)
            count = PASS_COUNT[n]
            barred = QS_BIT | (AH_BIT if get("protect_ace_hearts") else 0)
            target = PASS_TARGET[n][direction]
            after = masks.copy()
            for seat in range(n):
                mask = passed[seat]
                if (len(hands[seat]) != hand_size or len(passes[seat]) != count
                        or mask.bit_count() != count or mask & (barred | ~masks[seat])):
                    return self._new_deal_checked(setup, options)
                after[seat] ^= mask
                after[target[seat]] |= mask
        first = FIRST_CLUB[removed_mask]
        first_bit = 1 << first
        leader = 0
        while not after[leader] & first_bit:
            leader += 1
        st = SpardameState(self, n, dealer, setup.deal_number, after, leader, removed_mask,
                           n * hand_size)
        st.first_card = first
        if get("no_points_first_trick"):
            st.first_trick_barred = POINT_CARDS
        st.hearts_break = bool(get("hearts_break"))
        st.point_cards = POINT_CARDS & ~removed_mask
        st.deal_points = DEAL_POINTS[removed_mask]
        st.jd_bonus = get("jd_bonus") or 0
        st.no_trick_bonus = get("no_trick_bonus") or 0
        st.direction = direction
        st.passed = passed
        return st

    def _new_deal_checked(self, setup: DealSetup, options: dict) -> SpardameState:
        """The deal checked rule by rule: the first problem raises a
        :class:`RecordError` naming it."""
        n = check_seats(setup, self.id, 3, 5)
        removed_mask = REMOVED_MASK[n]
        if n == 3 and options.get("three_no_twos"):
            removed_mask = TWOS_MASK
        hand_size = (52 - removed_mask.bit_count()) // n
        hands, _ = deal_masks(setup, hand_size, removed_mask, _removed_words(removed_mask), "removed-cards")
        direction = pass_direction(options, n, setup.deal_number)
        passed = self._check_passes(setup, hands, direction, options)
        if direction != "none":
            offset = PASS_OFFSET[direction]
            after = [hand ^ passed[seat] for seat, hand in enumerate(hands)]
            for seat in range(n):
                after[(seat + offset) % n] |= passed[seat]
            hands = after
        in_play_clubs = CLUBS_MASK & ~removed_mask
        first = (in_play_clubs & -in_play_clubs).bit_length() - 1
        first_bit = 1 << first
        leader = 0
        while not hands[leader] & first_bit:
            leader += 1
        st = SpardameState(self, n, setup.dealer, setup.deal_number, hands, leader, removed_mask,
                           n * hand_size)
        st.first_card = first
        if options.get("no_points_first_trick"):
            st.first_trick_barred = POINT_CARDS
        st.hearts_break = bool(options.get("hearts_break"))
        st.point_cards = POINT_CARDS & ~removed_mask
        st.deal_points = DEAL_POINTS[removed_mask]
        st.jd_bonus = options.get("jd_bonus") or 0
        st.no_trick_bonus = options.get("no_trick_bonus") or 0
        st.direction = direction
        st.passed = passed
        return st

    def first_lead_rule(self, state: TrickState) -> tuple[str, Message]:
        return "first-lead", Message(N_("the first trick is led with %(card)s, the lowest club in "
                                        "play, by its holder (%(seat)s)"),
                                     {"card": Card(state.first_card),
                                      "seat": seat_words(state.first_leader)})

    def first_trick_rule(self, state: TrickState) -> tuple[str, Message]:
        words = Message(N_("no heart or queen of spades on the first trick while the hand holds "
                           "other cards (no_points_first_trick)"))
        return "no-points-first-trick", words

    @staticmethod
    def _check_passes(setup: DealSetup, hands: list[int], direction: str, options: dict) -> list[int]:
        """The passed cards per seat as masks, every passing rule checked."""
        n = setup.nplayers
        passes = setup.passes
        if direction == "none":
            if passes and any(passes):
                raise RecordError(Message(N_("deal %(number)s is played without passing "
                                             "(pass=cycle); passes must be empty"),
                                          {"number": setup.deal_number}),
                                  rule="no-pass-deal", column="passes")
            return [0] * n
        count = PASS_COUNT[n]
        if not passes or len(passes) != n:
            raise RecordError(Message(PASS_WORDS[direction],
                                      {"count": count,
                                       "seats": Message(N_("%(n)s seats"), {"n": len(passes)})
                                       if passes else Message(N_("no seats"))}),
                              rule="pass-count", column="passes")
        # Fast path: every seat passes `count` distinct cards of its own, neither QS nor AH.
        barred = QS_BIT | (AH_BIT if options.get("protect_ace_hearts") else 0)
        try:
            masks = [sum(map(BIT_OF_CARD.__getitem__, cards)) for cards in passes]
        except (KeyError, TypeError):
            masks = None
        if masks is not None and all(
            len(cards) == count and mask.bit_count() == count and not mask & (barred | ~hand)
            for cards, mask, hand in zip(passes, masks, hands)
        ):
            return masks
        masks = []
        for seat, cards in enumerate(passes):
            mask = 0
            for card in cards:
                if not isinstance(card, int) or not 0 <= card < 52:
                    raise RecordError(Message(N_("passes something that is not a card: %(card)s"),
                                              {"card": quoted(card)}),
                                      rule="not-a-card", column="passes", seat=seat)
                mask |= 1 << card
            if len(cards) != count or mask.bit_count() != count:
                raise RecordError(Message(N_("with %(n)s players each seat passes %(count)s "
                                             "different cards; this seat passes %(passed)s: none")
                                          if not mask else
                                          N_("with %(n)s players each seat passes %(count)s "
                                             "different cards; this seat passes %(passed)s: "
                                             "%(cards)s"),
                                          {"n": n, "count": count, "passed": len(cards),
                                           "cards": Cards(cards_of(mask))}),
                                  rule="pass-count", column="passes", seat=seat)
            if mask & ~hands[seat]:
                raise RecordError(Message(N_("passes %(cards)s, not in the dealt hand"),
                                          {"cards": Cards(cards_of(mask & ~hands[seat]))}),
                                  rule="pass-not-held", column="passes", seat=seat)
            if mask & QS_BIT:
                if not options.get("qs_with_jd"):
                    raise RecordError(Message(N_("the queen of spades may not be passed (QS is "
                                                 "passed)")),
                                      rule="qs-not-passed", column="passes", seat=seat)
                if not mask & JD_BIT:
                    raise RecordError(Message(N_("the queen of spades may be passed only together "
                                                 "with the jack of diamonds (qs_with_jd): QS is "
                                                 "passed without JD")),
                                      rule="qs-with-jd", column="passes", seat=seat)
            if mask & AH_BIT and options.get("protect_ace_hearts"):
                raise RecordError(Message(N_("the ace of hearts may not be passed "
                                             "(protect_ace_hearts): AH is passed")),
                                  rule="ah-not-passed", column="passes", seat=seat)
            masks.append(mask)
        return masks

    def outcome(self, state: SpardameState) -> DealOutcome:
        if state.moves != state.total_moves:
            raise IllegalMove("record-incomplete", Message(N_("the deal is not over")))
        taken = state.taken
        scores = [HEART_POINTS[mask >> HEARTS_SHIFT & 0x1FFF] + (100 if mask & QS_BIT else 0)
                  for mask in taken]
        # The penalties are additive: a seat has the whole deal's only with every
        # point card in play, the moon.
        moon = None
        if state.deal_points in scores:
            moon = scores.index(state.deal_points)
            scores = [100] * state.nplayers
            scores[moon] = 0
        jd_bonus = state.jd_bonus
        if jd_bonus:
            for seat, mask in enumerate(taken):
                if mask & JD_BIT:
                    scores[seat] += jd_bonus
                    break
        no_trick_bonus = state.no_trick_bonus
        if no_trick_bonus:
            for seat, mask in enumerate(taken):
                if not mask:
                    scores[seat] += no_trick_bonus
        return LazyEventsOutcome(scores, places_low_best(scores), "moves", None, state.moves,
                                 _deal_events, (state, moon))

    # ---- score sheets

    def negative_scores(self, options: dict) -> bool:
        # penalties are 0 and up; a house bonus (jd_bonus=-100) may take a seat below
        return (options.get("jd_bonus") or 0) < 0 or (options.get("no_trick_bonus") or 0) < 0

    def check_score_sheet(self, setup: DealSetup, scores: list, options: dict) -> DealOutcome:
        n = setup.nplayers
        if not isinstance(n, int) or not 3 <= n <= 5:
            raise RecordError(Message(N_("%(game)s is played by %(low)s to %(high)s players, "
                                         "not %(n)s"),
                                      {"game": "spardame", "low": 3, "high": 5, "n": n}),
                              rule="player-count", column="players")
        if len(scores) != n:
            raise IllegalMove("score-sheet-seats", Message(
                N_("%(game)s score sheet gives %(count)s scores for %(n)s seats"),
                {"game": "spardame", "count": len(scores), "n": n}))
        hearts = 13 - sum(1 for c in removed_cards(n, options) if c // 13 == HEARTS)
        deal_total = 100 + 20 + 10 * (hearts - 1)
        jd = options.get("jd_bonus") or 0
        no_trick = options.get("no_trick_bonus") or 0
        bonus_words = _bonus_words(jd, no_trick)
        possible = self._seat_scores(hearts, jd, no_trick)
        for seat, score in enumerate(scores):
            if type(score) is not int or score not in possible:
                raise IllegalMove(
                    "score-sheet-value",
                    Message(N_("spardame score %(score)s is not a possible penalty (QS 100, AH 20, "
                               "other hearts 10 each; or 0 and 100 on a moon%(bonus)s)"),
                            {"score": score, "bonus": bonus_words}),
                    seat=seat,
                )
        if _scores_possible(scores, hearts, jd, no_trick):
            return DealOutcome(list(scores), places_from_scores(scores), verified="scores")
        total = sum(scores)
        totals = sorted({base + jd + no_trick * k for base in (deal_total, 100 * (n - 1))
                         for k in range(n if no_trick else 1)}, reverse=True)
        if total not in totals:
            gives = {"total": total, "deal_total": deal_total, "others": n - 1}
            if jd or no_trick:
                raise IllegalMove("score-sheet-total", Message(
                    N_("spardame deal totals %(total)s; a deal gives %(deal_total)s, or 0 and "
                       "%(others)s times 100 when the moon is shot%(bonus)s (so %(totals)s)"),
                    {**gives, "bonus": bonus_words, "totals": list(totals)}))
            raise IllegalMove("score-sheet-total", Message(
                N_("spardame deal totals %(total)s; a deal gives %(deal_total)s, or 0 and "
                   "%(others)s times 100 when the moon is shot"), gives))
        raise IllegalMove("score-sheet-split", Message(
            N_("spardame scores %(scores)s cannot come from one deal: one seat takes QS (100), "
               "one AH (20), the other %(hearts)s hearts 10 each; a moon gives 0 to one seat and "
               "100 to the rest%(bonus)s"),
            {"scores": ";".join(map(str, scores)), "hearts": hearts - 1, "bonus": bonus_words}))

    @staticmethod
    def _seat_scores(hearts: int, jd: int, no_trick: int) -> set[int]:
        """Every score one seat can have in a deal, whatever the others have."""
        deal_total = 100 + 20 + 10 * (hearts - 1)
        # QS or not, AH or not, k other hearts; all of them is a moon (0), not a score.
        bases = {100 * q + 20 * a + 10 * k for q in (0, 1) for a in (0, 1) for k in range(hearts)}
        bases = (bases - {deal_total}) | {0, 100}
        scores = set(bases)
        if jd:
            scores |= {b + jd for b in bases}
        if no_trick:
            # no trick, no cards: no penalty of one's own, or 100 from another's moon
            scores |= {no_trick, 100 + no_trick}
        return scores

    # ---- bots

    def random_setup(self, nplayers: int, dealer: int | None, deal_number: int,
                     options: dict, rng: random.Random) -> DealSetup:
        self.check_player_count(nplayers)
        removed = removed_cards(nplayers, options)
        deck = [c for c in range(52) if c not in removed]
        rng.shuffle(deck)
        size = len(deck) // nplayers
        hands = [sorted(deck[i * size:(i + 1) * size]) for i in range(nplayers)]
        direction = pass_direction(options, nplayers, deal_number)
        if direction == "none":
            passes: list[list[int]] = [[] for _ in range(nplayers)]
        else:
            passes = [self._choose_pass(hand, PASS_COUNT[nplayers], options) for hand in hands]
        dealer = 0 if dealer is None else dealer
        return DealSetup(nplayers, dealer, hands, None, list(removed), passes, deal_number)

    @staticmethod
    def _choose_pass(hand: list[int], count: int, options: dict) -> list[int]:
        """Pass the most dangerous cards: high hearts, then high cards; never QS."""
        keep = {QS}
        if options.get("protect_ace_hearts"):
            keep.add(AH)
        candidates = [c for c in hand if c not in keep]
        candidates.sort(key=lambda c: (c % 13 + (6 if c // 13 == HEARTS else 0), c), reverse=True)
        return sorted(candidates[:count])

    def heuristic_move(self, state: SpardameState, legal: int) -> int:
        """Lead low outside hearts, duck under the winning card, throw QS, AH and
        high hearts when void."""
        if not state.trick_len:
            safe = legal & ~POINT_CARDS
            return by_rank(safe or legal, highest_first=False)
        card = duck_or_shed(state, legal, POINT_CARDS)
        if card is not None:
            return card
        if legal & QS_BIT:
            return QS
        if legal & HEARTS_MASK:
            return highest(legal & HEARTS_MASK)
        return by_rank(legal, highest_first=True)


def _scores_possible(scores: list[int], hearts: int, jd: int, no_trick: int) -> bool:
    """Can one deal give these scores? Tries every moon / JD seat / no-trick set."""
    n = len(scores)
    deal_total = 100 + 20 + 10 * (hearts - 1)
    for moon in (False, True):
        no_trick_base = 100 if moon else 0
        for jd_seat in (range(n) if jd else (None,)):
            candidates = [s for s in range(n) if s != jd_seat and no_trick
                          and scores[s] - no_trick == no_trick_base]
            for size in range(len(candidates) + 1):
                for idle in combinations(candidates, size):
                    if len(idle) == n:
                        continue
                    base = [scores[s] - (jd if s == jd_seat else 0) - (no_trick if s in idle else 0)
                            for s in range(n)]
                    if moon:
                        shooters = [s for s in range(n) if base[s] == 0]
                        if (len(shooters) == 1 and shooters[0] not in idle
                                and all(b == 100 for s, b in enumerate(base) if s != shooters[0])):
                            return True
                    elif _penalties_split(base, deal_total, hearts):
                        return True
    return False


def _penalties_split(base: list[int], deal_total: int, hearts: int) -> bool:
    """Can the point cards be shared out so each seat has ``base`` (no moon)?"""
    if sum(base) != deal_total or any(b < 0 or b % 10 for b in base):
        return False
    n = len(base)
    for qs_seat in range(n):
        if base[qs_seat] < 100:
            continue
        for ah_seat in range(n):
            left = [b - (100 if s == qs_seat else 0) - (20 if s == ah_seat else 0) for s, b in enumerate(base)]
            if min(left) < 0:
                continue
            if qs_seat == ah_seat and left[qs_seat] == 10 * (hearts - 1):
                continue  # that seat took every point card: a moon, scored otherwise
            return True
    return False


SPARDAME = Spardame()

__all__ = ["SPARDAME", "Spardame", "SpardameState", "pass_direction", "penalty", "removed_cards"]
