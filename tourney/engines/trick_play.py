"""Trick mechanics shared by ``dam-stick`` and ``spardame``.

Both are trick games without trumps: follow suit if able, otherwise play any card,
the highest card of the suit led wins and its winner leads next. Hands are bit masks
(``1 << card``), so "must follow suit" is one AND with the led suit's mask and the
trick winner is an integer comparison (within a suit a higher int is a higher card).

:func:`play_cards` is where the rules of play live and say why a card is illegal;
``Game.play`` calls it with one card. The replay hot path, :meth:`TrickGame.replay`,
first tries :func:`play_whole_deal`: the same rules over a whole record in one
Python loop with the state in locals, answering only "legal or not" (the tests
hold the two to the same verdicts and states); a record it refuses goes through
:func:`play_cards`, which names the first illegal card. The two games differ only
in data set on the state by their ``new_deal``: the first leader, the forced first
card (``spardame``), the cards barred from the first trick (the
``no_queen_first_trick`` and ``no_points_first_trick`` options) and ``hearts_break``.
"""
from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence

from ..cards import (
    CARD_NAMES,
    FULL_DECK_MASK,
    HEARTS,
    SUIT_MASKS,
    cards_of,
    format_cards,
    parse_card,
)
from ..errors import CardError, IllegalMove, RecordError
from ..errors.words import quoted
from .base import DealEvent, DealSetup, Game
from .presentation import (
    N_,
    Card,
    Cards,
    Message,
    Note,
    ReplaySteps,
    Seat,
    Trick,
    dealer_not_a_seat,
    display_hand,
    not_a_card,
    record_goes_on,
    record_stops,
    seat_words,
    suit_words,
)

HEARTS_MASK = SUIT_MASKS[HEARTS]
NOT_HEARTS_MASK = FULL_DECK_MASK ^ HEARTS_MASK
SUIT_MASK_OF_CARD: tuple[int, ...] = tuple(SUIT_MASKS[card // 13] for card in range(52))
BIT_OF_CARD: dict[int, int] = {card: 1 << card for card in range(52)}
NEXT_SEAT: dict[int, tuple[int, ...]] = {n: tuple((s + 1) % n for s in range(n)) for n in range(1, 9)}

# The spellings met in nearly every record, for a dict lookup per token; anything
# else (``10h``, suit symbols, stray spaces) goes through cards.parse_card.
TOKEN_CARDS: dict[str, int] = {}
for _card, _name in enumerate(CARD_NAMES):
    TOKEN_CARDS[_name] = _card
    TOKEN_CARDS[_name.lower()] = _card
del _card, _name


def names(mask: int) -> str:
    """The cards of a mask, canonical spellings, comma-separated."""
    return ", ".join(CARD_NAMES[c] for c in cards_of(mask))


def places_low_best(scores: list[int]) -> list[int]:
    """Competition places (1, 2, 2, 4), lowest score best (as base.places_from_scores)."""
    ordered = sorted(scores)
    # the first index of a score in the sorted list counts the scores below it
    return [ordered.index(score) + 1 for score in scores]


def highest(mask: int) -> int:
    """The highest-numbered card of a non-empty mask (within one suit: the highest)."""
    return mask.bit_length() - 1


def lowest(mask: int) -> int:
    """The lowest-numbered card of a non-empty mask (within one suit: the lowest)."""
    return (mask & -mask).bit_length() - 1


def by_rank(mask: int, highest_first: bool) -> int:
    """The card of the highest (or lowest) rank in a mask, across suits."""
    best = -1
    for card in cards_of(mask):
        if best < 0 or (card % 13 > best % 13 if highest_first else card % 13 < best % 13):
            best = card
    return best


class TrickState:
    """One deal of a trick game, mutated in place.

    ``hands``/``taken`` are per-seat masks; ``winners`` and ``trick_masks`` grow by
    one entry per finished trick. ``led_mask``, ``best`` and ``winner`` describe the
    trick in progress (``trick_len`` cards on the table, ``trick_mask`` their set).
    """

    __slots__ = (
        "game", "nplayers", "dealer", "deal_number", "next_seat",
        "hands", "start_hands", "taken", "winners", "trick_masks",
        "turn", "first_leader", "trick_len", "led_mask", "best", "winner", "trick_mask",
        "trick_no", "moves", "total_moves", "out_of_play",
        "first_card", "first_trick_barred", "hearts_break", "hearts_broken",
    )

    def __init__(self, game: TrickGame, nplayers: int, dealer: int | None, deal_number: int,
                 hands: list[int], first_leader: int, out_of_play: int, total_moves: int):
        self.game = game  # for the wording of its rules in error messages
        self.nplayers = nplayers
        self.dealer = dealer
        self.deal_number = deal_number
        self.next_seat = NEXT_SEAT[nplayers]
        self.hands = hands
        self.start_hands = hands.copy()
        self.taken = [0] * nplayers
        self.winners = []
        self.trick_masks = []
        self.turn = first_leader
        self.first_leader = first_leader
        self.trick_len = 0
        self.led_mask = 0
        self.best = -1
        self.winner = -1
        self.trick_mask = 0
        self.trick_no = 0
        self.moves = 0
        self.total_moves = total_moves
        self.out_of_play = out_of_play  # set aside or removed: in no hand
        self.first_card = -1  # the card that must open the deal, if any
        self.first_trick_barred = 0  # cards not to be discarded on trick 1 (house rules)
        self.hearts_break = False
        self.hearts_broken = False

    def __repr__(self) -> str:
        """The deal as it stands, for a developer (seats from 0, as the data)."""
        hands = [format_cards(cards_of(hand)) for hand in self.hands]
        return (f"<{type(self).__name__} turn={self.turn} trick={self.trick_no + 1} "
                f"table={format_cards(cards_of(self.trick_mask if self.trick_len else 0))!r} "
                f"hands={hands}>")


# ----------------------------------------------------------------- errors (slow path)

def _where_is(st: TrickState, card: int) -> Message:
    if st.out_of_play >> card & 1:
        return Message(N_("%(card)s is not in play"), {"card": Card(card)})
    for seat, hand in enumerate(st.hands):
        if hand >> card & 1:
            return Message(N_("%(card)s is in %(seat)s's hand"),
                           {"card": Card(card), "seat": seat_words(seat)})
    return Message(N_("%(card)s has already been played"), {"card": Card(card)})


def _not_held(st: TrickState, seat: int, card: int, moves: int) -> IllegalMove:
    not_held = {"seat": seat_words(seat), "card": Card(card), "where": _where_is(st, card)}
    if moves == 0 and any(hand >> card & 1 for hand in st.hands):
        # another seat holds it: the record has the wrong seat leading
        rule, text = st.game.first_lead_rule(st)
        return IllegalMove(rule, Message(N_("%(rule)s; %(seat)s does not hold %(card)s (%(where)s)"),
                                         {"rule": text, **not_held}))
    return IllegalMove("card-not-held",
                       Message(N_("%(seat)s does not hold %(card)s (%(where)s)"), not_held))


def _first_lead(st: TrickState, card: int) -> IllegalMove:
    rule, text = st.game.first_lead_rule(st)
    return IllegalMove(rule, Message(N_("%(rule)s; the record opens with %(card)s"),
                                     {"rule": text, "card": Card(card)}))


def _must_follow(led: int, follow: int) -> IllegalMove:
    return IllegalMove("follow-suit", Message(N_("must follow suit (%(suit)s led): holds %(cards)s"),
                                              {"suit": suit_words(SUIT_MASKS.index(led)),
                                               "cards": Cards(cards_of(follow))}))


def _first_trick(st: TrickState, card: int, others: int) -> IllegalMove:
    rule, text = st.game.first_trick_rule(st)
    return IllegalMove(rule, Message(N_("%(rule)s: %(card)s discarded while holding %(cards)s"),
                                     {"rule": text, "card": Card(card),
                                      "cards": Cards(cards_of(others))}))


def _hearts_not_broken(card: int, others: int) -> IllegalMove:
    return IllegalMove("hearts-break", Message(
        N_("hearts may not be led until a heart has been discarded (hearts_break): "
           "%(card)s led while holding %(cards)s"),
        {"card": Card(card), "cards": Cards(cards_of(others))}))


# ------------------------------------------------------------------------ the rules

def play_cards(st: TrickState, cards: Sequence[int]) -> None:
    """Play ``cards`` in order from the position in ``st`` (the caller makes sure
    the deal holds that many more moves). Raises :class:`IllegalMove` at the first
    illegal card; the state then holds every card before it."""
    if not cards:
        return
    hands = st.hands
    taken = st.taken
    winners = st.winners
    trick_masks = st.trick_masks
    next_seat = st.next_seat
    n = st.nplayers
    barred = st.first_trick_barred
    hearts_break = st.hearts_break
    turn = st.turn
    trick_len = st.trick_len
    led = st.led_mask
    best = st.best
    winner = st.winner
    trick_mask = st.trick_mask
    trick_no = st.trick_no
    broken = st.hearts_broken
    if st.moves == 0 and st.first_card >= 0 and cards[0] != st.first_card:
        raise _first_lead(st, cards[0])
    try:
        for card in cards:
            bit = 1 << card
            hand = hands[turn]
            if not hand & bit:
                raise _not_held(st, turn, card, trick_no * n + trick_len)
            if trick_len:
                if bit & led:
                    if card > best:
                        best = card
                        winner = turn
                elif hand & led:
                    raise _must_follow(led, hand & led)
                else:
                    if barred and not trick_no and bit & barred and hand & ~barred:
                        raise _first_trick(st, card, hand & ~barred)
                    if bit & HEARTS_MASK:
                        broken = True
                trick_mask |= bit
                hands[turn] = hand ^ bit
                trick_len += 1
                if trick_len == n:
                    taken[winner] |= trick_mask
                    winners.append(winner)
                    trick_masks.append(trick_mask)
                    turn = winner
                    trick_len = 0
                    trick_no += 1
                else:
                    turn = next_seat[turn]
            else:
                if hearts_break and bit & HEARTS_MASK and not broken and hand & NOT_HEARTS_MASK:
                    raise _hearts_not_broken(card, hand & NOT_HEARTS_MASK)
                led = SUIT_MASK_OF_CARD[card]
                best = card
                winner = turn
                trick_mask = bit
                hands[turn] = hand ^ bit
                trick_len = 1
                turn = next_seat[turn]
    finally:
        st.turn = turn
        st.trick_len = trick_len
        st.led_mask = led
        st.best = best
        st.winner = winner
        st.trick_mask = trick_mask
        st.trick_no = trick_no
        st.moves = trick_no * n + trick_len
        st.hearts_broken = broken


# POSITIONS[n]: a card's place in its trick, for every card of a deal (0: the lead).
POSITIONS: dict[int, tuple[int, ...]] = {n: tuple(range(n)) * (52 // n) for n in range(1, 9)}
# A card's (card, bit, suit), by card and by canonical token: the replay's parse.
CARD_BIT_SUIT: dict[int, tuple[int, int, int]] = {card: (card, 1 << card, card // 13)
                                                   for card in range(52)}
TOKEN_CARD_BIT_SUIT: dict[str, tuple[int, int, int]] = {token: CARD_BIT_SUIT[card]
                                                         for token, card in TOKEN_CARDS.items()}


def play_whole_deal(st: TrickState, tokens: Iterable, count: int,
                    card_of: Mapping = CARD_BIT_SUIT) -> bool:
    """Play a whole deal from its first card, as :func:`play_cards` would, if it is
    legal; else return ``False`` with ``st`` untouched (:func:`play_cards` then
    finds the first illegal card and says why). Also ``False`` unless ``st`` is
    before its first card and ``tokens`` are exactly the deal's moves, ``count``
    of them. ``card_of`` gives each token's ``(card, bit, suit)``: by default the
    tokens are cards (ints); the replay passes :data:`TOKEN_CARD_BIT_SUIT` and the
    record's tokens. A token it lacks raises :class:`KeyError` (``st`` untouched).

    The replay's fast path: the same rules, with fewer big-int operations per
    card (each one allocates), so the hands are not updated card by card. A card
    must be in its seat's hand as dealt (``start_hands``); a seat void in the
    suit led holds none of it among its cards not yet played (``played``: the
    tricks before this one, as a seat plays once per trick); and no card may come
    twice, which holds when all the deal's moves together are as many distinct
    cards. Together that is "each card is in its seat's hand when played".
    Suits and trick winners are compared as small ints (suit numbers, cards).
    """
    n = st.nplayers
    if st.moves or count != st.total_moves or not count:
        return False
    first_card = st.first_card
    dealt = st.start_hands
    next_seat = st.next_seat
    barred = st.first_trick_barred
    hearts_break = st.hearts_break
    broken = st.hearts_broken
    taken = [0] * n
    winners: list[int] = []
    trick_masks: list[int] = []
    turn = st.turn
    last = n - 1
    played = 0
    trick_no = 0
    led = best = winner = -1  # set by each trick's lead (position 0)
    trick_mask = 0
    for pos, token in zip(POSITIONS[n], tokens):
        card, bit, suit = card_of[token]
        if not dealt[turn] & bit:
            return False
        if pos:
            if suit == led:
                if card > best:
                    best = card
                    winner = turn
            elif dealt[turn] & SUIT_MASKS[led] & ~played:
                return False  # must follow suit
            else:
                if barred and not trick_no and bit & barred and dealt[turn] & ~barred:
                    return False
                if suit == HEARTS:
                    broken = True
            trick_mask |= bit
            if pos == last:
                taken[winner] |= trick_mask
                winners.append(winner)
                trick_masks.append(trick_mask)
                played |= trick_mask
                turn = winner
                trick_no += 1
            else:
                turn = next_seat[turn]
        else:
            if not trick_no and first_card >= 0 and card != first_card:
                return False
            led = suit
            if hearts_break and led == HEARTS and not broken and dealt[turn] & ~played & NOT_HEARTS_MASK:
                return False
            best = card
            winner = turn
            trick_mask = bit
            turn = next_seat[turn]
    if played.bit_count() != count:
        return False  # a card came twice (and another not at all)
    st.hands[:] = [0] * n
    st.taken[:] = taken
    st.winners[:] = winners
    st.trick_masks[:] = trick_masks
    st.turn = turn
    st.trick_len = 0
    st.led_mask = SUIT_MASKS[led]
    st.best = best
    st.winner = winner
    st.trick_mask = trick_mask
    st.trick_no = trick_no
    st.moves = trick_no * n
    st.hearts_broken = broken
    return True


def legal_mask(st: TrickState) -> int:
    """The cards the seat to move may play, as a mask (0 when the deal is over)."""
    if st.moves == st.total_moves:
        return 0
    hand = st.hands[st.turn]
    if st.moves == 0 and st.first_card >= 0:
        return 1 << st.first_card
    if st.trick_len:
        follow = hand & st.led_mask
        if follow:
            return follow
        barred = st.first_trick_barred
        if barred and st.trick_no == 0 and hand & ~barred:
            return hand & ~barred
        return hand
    if st.hearts_break and not st.hearts_broken and hand & NOT_HEARTS_MASK:
        return hand & NOT_HEARTS_MASK
    return hand


# ------------------------------------------------------------------ setup checking

def check_seats(setup: DealSetup, game_id: str, low: int, high: int) -> int:
    n = setup.nplayers
    if not isinstance(n, int) or not low <= n <= high:
        raise RecordError(Message(N_("%(game)s is played by %(low)s to %(high)s players, not %(n)s"),
                                  {"game": game_id, "low": low, "high": high, "n": n}),
                          rule="player-count", column="players")
    dealer = setup.dealer
    if dealer is None:
        raise RecordError(Message(N_("%(game)s needs a dealer"), {"game": game_id}),
                          rule="dealer", column="dealer")
    if not isinstance(dealer, int) or not 0 <= dealer < n:
        raise RecordError(dealer_not_a_seat(n, quoted(dealer)), rule="dealer", column="dealer")
    return n


def _card_mask(cards, column: str, what: Message) -> int:
    """The mask of a card list, refusing non-cards and repeats within the list."""
    mask = 0
    for card in cards:
        if not isinstance(card, int) or not 0 <= card < 52:
            raise RecordError(Message(N_("%(what)s: not a card: %(card)s"),
                                      {"what": what, "card": quoted(card)}),
                              rule="not-a-card", column=column)
        bit = 1 << card
        if mask & bit:
            raise RecordError(Message(N_("%(card)s appears twice in %(what)s"),
                                      {"card": Card(card), "what": what}),
                              rule="duplicate-card", column=column)
        mask |= bit
    return mask


def deal_masks(setup: DealSetup, hand_size: int, stock_cards: int | None,
               stock_text: Callable[[int], Message], stock_rule: str) -> tuple[list[int], int]:
    """Check that hands + stock are the deck once over and return their masks.

    ``stock_cards`` is the stock's exact mask where the rules fix it (removed
    cards), else ``None`` and the stock must hold ``52 - n * hand_size`` cards.
    ``stock_text(n)`` says in words what the stock must be (called on errors only).
    """
    n = setup.nplayers
    hands = setup.hands
    if hands is None or len(hands) != n:
        raise RecordError(Message(N_("hands lists no seats; the deal has %(n)s"), {"n": n})
                          if hands is None else
                          Message(N_("hands lists %(count)s seats; the deal has %(n)s"),
                                  {"count": len(hands), "n": n}),
                          rule="hand-count", column="hands")
    stock = setup.stock or ()
    stock_size = 52 - n * hand_size
    # Fast path, one C-level sum per hand. Sums of distinct bits are their OR; with
    # exactly 52 cards listed, adding up to the full deck means each card once.
    try:
        masks = [sum(map(BIT_OF_CARD.__getitem__, hand)) for hand in hands]
        stock_mask = sum(map(BIT_OF_CARD.__getitem__, stock))
    except (KeyError, TypeError):
        masks = None
    if (masks is not None and len(stock) == stock_size and sum(masks) + stock_mask == FULL_DECK_MASK
            and (stock_cards is None or stock_mask == stock_cards)):
        for hand in hands:
            if len(hand) != hand_size:
                break
        else:
            return masks, stock_mask
    # Slow path: say what is wrong.
    masks = []
    where: dict[int, Message] = {}
    for seat, hand in enumerate(hands):
        what = Message(N_("%(seat)s's hand"), {"seat": seat_words(seat)})
        mask = _card_mask(hand, "hands", what)
        if len(hand) != hand_size:
            raise RecordError(Message(N_("%(what)s holds %(count)s cards; with %(n)s players each "
                                         "seat is dealt %(size)s"),
                                      {"what": what, "count": len(hand), "n": n, "size": hand_size}),
                              rule="hand-size", column="hands")
        for card in cards_of(mask):
            if card in where:
                raise RecordError(Message(N_("%(card)s is in %(where)s and in %(what)s"),
                                          {"card": Card(card), "where": where[card], "what": what}),
                                  rule="duplicate-card", column="hands")
            where[card] = what
        masks.append(mask)
    stock_mask = _card_mask(stock, "stock", Message(N_("the stock")))
    for card in cards_of(stock_mask):
        if card in where:
            raise RecordError(Message(N_("%(card)s is in %(where)s and in the stock"),
                                      {"card": Card(card), "where": where[card]}),
                              rule="duplicate-card", column="stock")
    if len(stock) != stock_size or (stock_cards is not None and stock_mask != stock_cards):
        raise RecordError(Message(N_("%(rule)s; the stock holds nothing"), {"rule": stock_text(n)})
                          if not stock_mask else
                          Message(N_("%(rule)s; the stock holds %(cards)s"),
                                  {"rule": stock_text(n), "cards": Cards(cards_of(stock_mask))}),
                          rule=stock_rule, column="stock")
    missing = FULL_DECK_MASK ^ (stock_mask | sum(masks))
    raise RecordError(Message(N_("cards missing from the deal: %(cards)s"),  # pragma: no cover
                              {"cards": Cards(cards_of(missing))}),
                      rule="missing-card", column="hands")


# ------------------------------------------------------------------ the game class

class TrickGame(Game):
    """What ``dam-stick`` and ``spardame`` share: play, notation, the fused replay,
    the replay page's tricks."""

    uses_dealer = True
    stock_label = N_("Set aside unseen:")  # what the record's stock is, on the replay page
    event_sentences = {
        "moon": N_("%(player)s takes every heart and the queen of spades: shoots the moon"),
    }

    # ---- the replay page

    def replay_steps(self, setup: DealSetup, tokens: Sequence[str], options: dict) -> ReplaySteps:
        """The hands as dealt (and passed), then trick by trick: who led, each
        seat's card, who won and the cards that count."""
        st = self.new_deal(setup, options)
        n = st.nplayers
        steps = ReplaySteps("tricks", hands=[display_hand(h) for h in setup.hands or []])
        if setup.passes is not None:
            steps.passes = [display_hand(p) for p in setup.passes]
        steps.pass_direction, received = self.passing(st)
        if setup.passes and any(setup.passes) and received is not None:
            steps.received = [display_hand(cards_of(mask)) for mask in received]
        if setup.stock:
            steps.stock = list(setup.stock)
            steps.stock_label = self.stock_label
        tricks: list[Trick] = []
        current: Trick | None = None
        parse, play, to_move = self.parse_move, self.play, self.to_move
        for token in tokens:
            card = parse(token)
            seat = to_move(st)
            play(st, card)
            if current is None:
                current = Trick(len(tricks) + 1, seat, [None] * n, [], -1, [])
            current.cards[seat] = card
            current.order.append(seat)
            if len(current.order) == n:
                current.winner = st.winners[current.number - 1]
                current.counting = self.counting_cards([current.cards[s] for s in current.order])
                tricks.append(current)
                current = None
        steps.steps = tricks
        self.finish_steps(st, steps, options, lambda move: (move - 1) // n)
        return steps

    def passing(self, state: TrickState) -> tuple[str | None, list[int] | None]:
        """This deal's pass direction and the hands after passing (masks); ``None``
        for a game without passing."""
        return None, None

    def note(self, event: DealEvent, steps: ReplaySteps, options: dict) -> Note:
        if event.kind == "queen-taken" and event.seat is not None:
            # One event per queen, at the end of the trick that took it: the k-th
            # event of a trick names that trick's k-th queen.
            trick = steps.steps[(event.move - 1) // len(steps.steps[0].cards)]
            queens = [c for c in trick.counting if c in self.queens_noted]
            named = sum(1 for note in steps.notes if note.kind == "queen-taken"
                        and note.move == event.move)
            if named < len(queens):
                return Note(event.move, event.seat, event.kind, Message(
                    N_("%(player)s takes the %(cards)s in trick %(trick)s"),
                    {"player": Seat(event.seat), "cards": Cards(queens[named:named + 1]),
                     "trick": trick.number}))
        return super().note(event, steps, options)

    queens_noted: frozenset[int] = frozenset()  # the queens a queen-taken event names

    def to_move(self, state: TrickState) -> int | None:
        return None if state.moves == state.total_moves else state.turn

    def is_over(self, state: TrickState) -> bool:
        return state.moves == state.total_moves

    def legal_moves(self, state: TrickState) -> list[int]:
        return cards_of(legal_mask(state))

    def play(self, state: TrickState, move: int) -> None:
        if state.moves == state.total_moves:
            raise IllegalMove("deal-over", Message(N_("the deal is over; no card can be played")))
        if type(move) is not int or not 0 <= move < 52:
            raise IllegalMove("notation", not_a_card(quoted(move)))
        play_cards(state, (move,))

    def parse_move(self, token: str) -> int:
        try:
            card = TOKEN_CARDS.get(token)
        except TypeError:  # unhashable (a list): no token, said below
            card = None
        if card is not None:
            return card
        try:
            return parse_card(token)
        except CardError:
            raise IllegalMove("notation", not_a_card(quoted(token))) from None

    def format_move(self, move: int) -> str:
        return CARD_NAMES[move]

    def replay(self, setup: DealSetup, tokens: Sequence[str], options: dict):
        """The record replayed in one loop; errors as :meth:`Game.replay` gives them."""
        st = self.new_deal(setup, options)
        if not isinstance(tokens, (list, tuple)):
            tokens = list(tokens)
        try:
            if play_whole_deal(st, tokens, len(tokens), TOKEN_CARD_BIT_SUIT):
                return self.outcome(st)
        except (KeyError, TypeError):
            pass  # a token in another spelling, or not a card: the careful way below
        bad_at = -1
        try:
            cards = [TOKEN_CARDS[t] for t in tokens]
        except (KeyError, TypeError):
            cards = []
            for index, token in enumerate(tokens):
                try:
                    cards.append(self.parse_move(token))
                except IllegalMove:
                    bad_at = index
                    break
        if bad_at < 0 and play_whole_deal(st, cards, len(cards)):
            return self.outcome(st)
        total = st.total_moves
        try:
            play_cards(st, cards if len(cards) <= total else cards[:total])
        except IllegalMove as err:
            raise RecordError.from_illegal(
                err, column="play", move=st.moves + 1, seat=st.turn, token=tokens[st.moves]
            ) from None
        if st.moves == total and len(tokens) > total:
            raise RecordError(record_goes_on(),
                              rule="record-too-long", column="play", move=total + 1, token=tokens[total])
        if bad_at >= 0:
            raise RecordError(not_a_card(quoted(tokens[bad_at])), rule="notation", column="play",
                              move=bad_at + 1, seat=st.turn, token=tokens[bad_at])
        if st.moves < total:
            raise RecordError(record_stops(len(tokens)),
                              rule="record-incomplete", column="play")
        return self.outcome(st)

    # ---- bots

    def random_move(self, state: TrickState, rng: random.Random) -> int:
        return rng.choice(cards_of(legal_mask(state)))

    def choose_move(self, state: TrickState, rng: random.Random, skill: float = 1.0) -> int:
        if skill >= 1.0 or rng.random() < skill:
            return self.heuristic_move(state, legal_mask(state))
        return self.random_move(state, rng)

    def heuristic_move(self, state: TrickState, legal: int) -> int:
        """The heuristic bot's card among the legal ones; every trick game implements it."""
        raise NotImplementedError

    # ---- the wording of the game's own rules (error messages only)

    def first_lead_rule(self, state: TrickState) -> tuple[str, Message]:
        """The rule id and words for who (or what) opens the deal."""
        return "first-leader", Message(N_("%(seat)s leads the first trick"),
                                       {"seat": seat_words(state.first_leader)})

    def first_trick_rule(self, state: TrickState) -> tuple[str, Message]:
        """The rule id and words for the cards barred from the first trick."""
        return "first-trick", Message(N_("that card may not be discarded on the first trick"))


def duck_or_shed(st: TrickState, legal: int, penalty: int) -> int | None:
    """The common trick-avoiding play when following suit, or ``None`` when void.

    Under the winning card if possible, with the highest such card (a penalty card
    under a higher one is the best place for it); when every card wins, the last
    to play takes it with its highest safe card, anyone else plays low.
    """
    follow = legal & st.led_mask
    if not follow or not st.trick_len:
        return None
    below = follow & ((1 << st.best) - 1)
    if below:
        return highest(below)
    safe = follow & ~penalty
    if st.trick_len == st.nplayers - 1:
        return highest(safe) if safe else lowest(follow)
    return lowest(safe) if safe else lowest(follow)
