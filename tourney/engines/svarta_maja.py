"""``svarta-maja``: Spader dam / Svarta Maja (Finnish Musta Maija); docs/guide/rules.md,
"Svarta Maja".

A shedding ("beating") game with one loser: the seat left holding the queen of spades
once every other seat has run out of cards.

Moves
-----
One move is one whole *exchange*: the attack cards and, for each attack card, the
defender's answer (the card that beat it) or none. A move is a tuple of two tuples of
card ints, ``(attack, answers)``, ``answers[i]`` answering ``attack[i]`` and ``-1``
for a card left unbeaten: ``7D,9D/JD,4H`` is ``((31, 33), (35, 15))`` and
``QS,8S/-,KS`` is ``((10, 6), (-1, 11))``. The seat to move (:meth:`to_move`) is the
attacker; the defender is implied (the next active seat after the attacker) and their
answers are part of the same token.

State
-----
Hands are bit masks (``1 << card``); the stock is the record's list, top first, with a
read position. A seat is *active* while it holds cards or the stock is not empty. While
the stock lasts every seat holds cards (a seat can only empty its hand as attacker or
defender, and the refill that follows gives it cards while there are any), so a seat
goes out only at or after the exchange in which the stock runs out, and "active" is
"holds cards or the stock is not empty" exactly as the rules put it.

Rule ids (:class:`IllegalMove` ``rule``; setup problems are :class:`RecordError`)
----------------------------------------------------------------------------------
Setup: ``player-count`` (players), ``dealer-missing`` / ``dealer-range`` (dealer),
``hand-count`` / ``hand-size`` / ``card-range`` / ``duplicate-card`` (hands),
``stock-missing`` / ``duplicate-card`` / ``missing-card`` / ``spade-trump`` (stock).

Play: ``first-attacker`` (the dealer's left neighbour attacks first),
``next-attacker`` (the defender attacks next if they beat every card, else the next
active seat after the defender; seats out are skipped), ``defender-order`` (the
defender is the next active seat after the attacker), ``out-skipped`` (a seat that is
out is skipped in both roles), ``refill`` (the attacker draws up to ``hand_size``
first, then the defender, from the top, while the stock lasts), ``attack-empty``,
``attack-repeated``, ``attack-not-in-hand``, ``one-suit`` (one suit per attack; the
queen of spades is a spade), ``attack-too-many`` (never more attack cards than the
defender holds), ``answer-count`` (exactly one answer per attack card),
``answer-not-in-hand``, ``answer-reused`` (one defending card answers one attack
card), ``qs-unbeatable`` (the queen of spades cannot be beaten, not even by a trump),
``qs-beats-nothing``, ``beat-rank`` (same suit: only a higher card beats),
``beat-trump`` (a trump only by a higher trump), ``beat-suit`` (another suit: only a
trump beats a non-trump), ``deal-over``; ``notation`` for tokens that are no move.

The order rules (who attacks, who defends, the refill, skipping seats that are out)
are enforced by the engine's own bookkeeping: a token does not name its seats, so a
record that breaks one of them shows up as cards played from the wrong hand. When a
card is not where the token needs it, the engine looks for the likeliest explanation,
in this order: (0) the attack cards are the hand of the seat after a skipped out seat,
as if the out seat had defended the last exchange (``out-skipped``); (1) the attack
cards are all another active seat's and that seat's own defender holds the answer
cards (``first-attacker`` / ``next-attacker``); (2) a card is among the next
``hand_size`` cards of the stock, or was drawn by the other party of a refill and would have been the mover's had the
defender drawn first (``refill``); (3) a card went to a defender reached by skipping
an out seat (``out-skipped``); (4) the attack cards are all another active seat's
(``first-attacker`` / ``next-attacker``); (5) the answer cards are all one other
seat's, not the attacker's (``defender-order``); else the card is simply not in the
hand (``attack-not-in-hand`` / ``answer-not-in-hand``, saying where the card is).
The guess can be wrong (a wrong attacker who drew the card in a refill with the right
one looks like a refill slip); the message always states the facts: who attacks and
why, and where the card is.

Decisions (where the rules are silent or leave room)
----------------------------------------------------
* The attack limit ("never more cards than the defender holds") applies during the
  whole deal, not only once the stock is out, and counts the defender's hand before
  the exchange. There is no other limit on the number of attack cards (not
  ``hand_size``).
* The same card twice in one attack is refused (``attack-repeated``); the order of
  the attack cards in a token is free (the answers follow that order), and
  :meth:`format_move` keeps it. :meth:`legal_moves` lists each exchange once, attack
  cards in ascending card order.
* The defender may beat a card with a trump even when a card of the suit would do,
  and may leave any card unbeaten (pagat: "may choose to beat any number").
* Only the defender answers (the house rule where the whole table may help beat
  cards, named in the seed, is not supported).
* Two players (and two active seats at the end): when the defender does not beat
  every card, the next active seat after the defender is the attacker again, who
  attacks again. When the defender beats every card, the defender attacks.
* An attacker who is out after attacking (no cards, stock empty) is skipped from then
  on: if the defender beat every card the defender attacks the next active seat after
  them; if not, the next active seat after the defender attacks. A defender who beat
  every card and is then out passes the attack to the next active seat after them.
  Whenever only one seat still holds cards the deal ends at once.
* A seat that empties its hand while the stock still has cards refills and plays on
  (it is not out). Seats going out in one exchange (the attacker and the defender)
  share a place.
* With ``spade_trump=false`` a spade as the last stock card (the indicator) makes the
  deal invalid (rule ``spade-trump``): the source's redraw happens at the table and
  the record lists the stock as it finally lay. With ``spade_trump=true`` spades are
  trump; the queen of spades still beats nothing and cannot be beaten, also when she
  is the indicator (she is then the last card drawn).
* Places: the first seat(s) out place 1, seats out in the same exchange share a place
  (competition ranking: 1, 1, 3), the loser is last (place ``n``). A score sheet has
  no finishing order: every seat but the loser shares place 1.
* Events: ``queen-taken`` (a defender takes the queen of spades), ``out`` (a seat
  goes out) and ``lost`` (the last seat, holding the queen, after the final exchange).
* Bots: the heuristic attacks with the queen of spades whenever it holds her (with
  its low spades; it does not peek at the defender's hand), else with the lowest
  non-trump cards of one suit (once the stock is out: the longest non-trump suit, as
  many cards as the defender holds), and defends by beating every card it can with
  the cheapest sufficient card (same suit before trump, low before high), so trumps
  are kept for cards nothing else beats. Its "random" move picks a uniformly random
  legal attack (over all one-suit card sets the limit allows), then for each attack
  card in turn a uniformly random answer among "leave it" and the unused cards that
  beat it (so it is uniform per choice, not over whole exchanges, whose number can run
  into the millions). Since one move holds both roles, ``skill`` may be a float (both
  halves) or a per-seat sequence (the attacker's entry for the attack, the defender's
  for the answers).
* Endless deals: the rules do not forbid cycles (cards nobody can beat going round
  the table for ever); a record is finite, so the engine needs no limit, but a
  deterministic bot can fall into one. The heuristic therefore attacks at random once
  ``3 * players`` exchanges went by without a card beaten, which ends such cycles.
"""
from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import accumulate
from math import comb
from operator import itemgetter, or_

from ..cards import CARD_NAMES, QS, SPADES, SUIT_NAMES, cards_of, format_cards, parse_card
from ..errors import CardError, IllegalMove, RecordError
from ..errors.seats import seat_numbers, seat_text
from ..errors.words import quoted
from .base import (
    DealEvent,
    DealOutcome,
    DealSetup,
    Game,
    LazyEventsOutcome,
    MatchRules,
    OptionSpec,
    deal_option,
    dealer_option,
)
from .presentation import (
    N_,
    Card,
    Cards,
    Exchange,
    Message,
    ReplaySteps,
    dealer_not_a_seat,
    display_hand,
    flag_sentence,
    not_a_card,
    seat_words,
    seats_words,
    suit_words,
)

QS_BIT = 1 << QS
SUIT_MASK = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
SUIT_OF = tuple(c // 13 for c in range(52))
RANK_OF = tuple(c % 13 for c in range(52))
NO_ANSWER = -1
_BIT = tuple(1 << c for c in range(52))
FULL = (1 << 52) - 1
# Canonical spellings parse with one dict lookup; other spellings go to parse_card.
_ATTACK_CARD = {name: card for card, name in enumerate(CARD_NAMES)}
_ANSWER_CARD = dict(_ATTACK_CARD, **{"-": NO_ANSWER})
# Every one-card exchange in canonical spelling (about two thirds of all moves),
# parsed in advance: 52 * 53 entries.
_ONE_CARD_EXCHANGE = {
    f"{attack}/{answer}": ((_ATTACK_CARD[attack],), (_ANSWER_CARD[answer],))
    for attack in CARD_NAMES for answer in _ANSWER_CARD
}
# The same tokens for the fused replay: (attack card, its bit, the answer's bit or
# 0 when unbeaten, the attack bit again when unbeaten or 0).
_ONE_CARD_PLAY = {
    token: (move[0][0], _BIT[move[0][0]], 0 if move[1][0] < 0 else _BIT[move[1][0]],
            _BIT[move[0][0]] if move[1][0] < 0 else 0)
    for token, move in _ONE_CARD_EXCHANGE.items()
}
# The cards of one half of a token (attack cards, or answers) that the parse
# caches of a SvartaMaja keep; once full, a cache is cleared and starts again.
HALF_CACHE_SIZE = 4096
_NEXT_SEAT = {n: tuple((seat + 1) % n for seat in range(n)) for n in range(2, 7)}


def _beats_table(trump: int) -> tuple[int, ...]:
    """Per attack card, the mask of the cards that beat it with ``trump`` as trump."""
    table = []
    for c in range(52):
        suit = c // 13
        mask = 0
        if c != QS:
            mask = SUIT_MASK[suit] & ~((2 << c) - 1)
            if suit != trump:
                mask |= SUIT_MASK[trump]
            mask &= ~QS_BIT
        table.append(mask)
    return tuple(table)


BEATS = tuple(_beats_table(t) for t in range(4))
"""``BEATS[trump][card]``: the cards that beat ``card`` (none beat the queen of spades,
and she beats nothing)."""

_EVENT_TEXT = {
    "queen-taken": "{} takes the queen of spades",
    "out": "{} is out",
    "lost": "{} is left with the queen of spades and loses",
}


def _deal_events(events: list[tuple[int, int, str]]) -> list[DealEvent]:
    """A finished deal's events (built only when read: see LazyEventsOutcome)."""
    return [DealEvent(m, s, kind, _EVENT_TEXT[kind].format(seat_text(s))) for m, s, kind in events]


# The heuristic attacks at random once this many rounds of exchanges (per seat) went
# by without a card beaten: the rules allow endless cycles (cards nobody can beat
# going round the table) and a deterministic bot can fall into one.
_QUIET_LIMIT = 3


def _player_count(n) -> Message:
    return Message(N_("%(game)s is played by %(low)s to %(high)s players, not %(n)s"),
                   {"game": "svarta-maja", "low": 2, "high": 6, "n": n})


def _names(cards) -> str:
    return ", ".join(CARD_NAMES[c] for c in cards)


class MajaState:
    """One deal in progress. Hands are bit masks; ``log`` packs each exchange's
    attacker, defender and the stock positions after the attacker's and after the
    defender's refill as ``attacker << 3 | defender | mid << 6 | end << 12`` (read only
    to explain errors)."""

    __slots__ = (
        "n", "hand_size", "trump", "dealer", "hands", "stock", "nstock", "prefix", "pos",
        "attacker", "defender", "out_at", "active", "moves", "events", "over", "loser",
        "taken_at", "log", "last_beat", "beats",
    )

    def __init__(self, n, hand_size, trump, dealer, hands, stock, prefix=None):
        self.n = n
        self.hand_size = hand_size
        self.trump = trump
        self.dealer = dealer
        self.hands = hands
        self.stock = stock
        self.nstock = len(stock)
        # prefix[i]: the mask of the first i stock cards, so a refill is one xor
        # (new_deal may hand it over, computed while checking the deal).
        if prefix is None:
            prefix = list(accumulate(map(_BIT.__getitem__, stock), or_, initial=0))
        self.prefix = prefix
        self.pos = 0
        self.attacker = (dealer + 1) % n
        self.defender = (dealer + 2) % n
        self.out_at = [0] * n
        self.active = n
        self.moves = 0
        self.events: list[tuple[int, int, str]] = []
        self.over = False
        self.loser = None
        self.taken_at = [0] * 52
        self.log: list[int] = []
        self.last_beat = 0
        self.beats = BEATS[trump]

    def copy(self) -> MajaState:
        """An independent copy (for look-ahead and tests)."""
        other = MajaState.__new__(MajaState)
        for name in self.__slots__:
            value = getattr(self, name)
            setattr(other, name, list(value) if isinstance(value, list) else value)
        return other

    def hand(self, seat: int) -> list[int]:
        """A seat's cards, lowest int first."""
        return cards_of(self.hands[seat])

    def stock_left(self) -> list[int]:
        """The cards still in the stock, top first (the last is the indicator)."""
        return self.stock[self.pos:]

    def __repr__(self) -> str:
        """The deal as it stands, for a developer (seats from 0, as the data)."""
        hands = [format_cards(self.hand(seat)) for seat in range(self.n)]
        return (f"<MajaState attacker={self.attacker} defender={self.defender} "
                f"trump={SUIT_NAMES[self.trump]!r} hands={hands} "
                f"stock_left={self.nstock - self.pos} over={self.over}>")


def _losses_sentence(value) -> Message | None:
    if value is None:
        return None
    if value == 1:
        return Message(N_("A match ends after the first deal a player loses."))
    return Message(N_("A match ends after the deal in which a player has lost %(n)s deals."),
                   {"n": value})



def _not_an_exchange(token) -> Message:
    return Message(N_("not an exchange: %(token)s (attack cards, '/', one answer or - per "
                      "attack card, e.g. 7D,9D/JD,4H)"), {"token": quoted(token)})

class SvartaMaja(Game):
    id = "svarta-maja"
    name = "Svarta Maja (Spader dam)"
    summary = (
        "A shedding game with one loser. Each seat gets a hand (6 cards); the last card of "
        "the stock shows trump. The dealer's left neighbour attacks the next seat with one "
        "or more cards of one suit; the defender beats each with a higher card of its suit "
        "or a trump, or takes it into hand. The queen of spades beats nothing and cannot "
        "be beaten. Hands are refilled from the stock, attacker first. Whoever is left "
        "holding cards (the queen of spades) loses the deal. Fewest lost deals wins the "
        "match.")
    move_spans_seats = True  # an exchange is the attack and the defence
    min_players = 2
    max_players = 6
    preferred_players = 4
    uses_dealer = True
    higher_is_better = False
    title = N_("Svarta Maja (Spader dam)")
    tagline = N_("A shedding game with one loser: the player left holding the "
                 "queen of spades.")
    option_specs = (
        OptionSpec("hand_size", "int", 6,
                   "cards per hand and refill size: 6 (Swedish sites) or 5 (Finnish original)",
                   choices=(5, 6),
                   sentence=lambda value: Message(
                       N_("Hands of %(n)s cards, refilled from the stock while it lasts."),
                       {"n": value})),
        OptionSpec("spade_trump", "bool", False,
                   "whether a spade may be the trump indicator (false: such a deal is invalid)",
                   sentence=flag_sentence(
                       N_("A spade may be the trump indicator; the queen of spades still beats "
                          "nothing and cannot be beaten."),
                       N_("A spade may not be the trump indicator."))),
        deal_option("deals"),
        OptionSpec("losses", "int", None,
                   "the match ends after the deal in which some seat reaches this many lost deals",
                   minimum=1, sentence=_losses_sentence),
        dealer_option(("rotate", "loser-deals"),
                      "rotate: clockwise; loser-deals: the loser deals the next deal"),
    )
    event_sentences = {
        "queen-taken": N_("%(player)s takes the queen of spades"),
        "out": N_("%(player)s is out"),
        "lost": N_("%(player)s is left with the queen of spades and loses the deal"),
    }

    # ------------------------------------------------------------------ the replay page

    def replay_steps(self, setup: DealSetup, tokens, options: dict) -> ReplaySteps:
        """The trump indicator, then exchange by exchange: attacker and defender,
        each attack card with the card that beat it or none (taken), and every
        seat's hand and the stock after the exchange."""
        state = self.new_deal(setup, options)
        n = setup.nplayers
        steps = ReplaySteps("exchanges", hands=[display_hand(h) for h in setup.hands or []],
                            trump=setup.stock[-1] if setup.stock else None)
        exchanges = []
        for number, token in enumerate(tokens, 1):
            defender = state.defender
            attacker = self.to_move(state)
            attack, answers = move = self.parse_move(token)
            self.play(state, move)
            pairs = [(a, b if b is not None and b >= 0 else None) for a, b in zip(attack, answers)]
            exchanges.append(Exchange(number, attacker, defender, pairs,
                                      [display_hand(state.hand(s)) for s in range(n)],
                                      len(state.stock_left())))
        steps.steps = exchanges
        self.finish_steps(state, steps, options, lambda move: move - 1)
        return steps

    # ------------------------------------------------------------------ options

    def check_options(self, options: dict) -> None:
        super().check_options(options)
        if options.get("deals") is not None and options.get("losses") is not None:
            raise self.options_exclude("deals", "losses")

    def match_rules(self, options: dict) -> MatchRules:
        return MatchRules(
            deals=options.get("deals"), losses=options.get("losses"),
            dealer=options.get("dealer") or "rotate", higher_is_better=False,
        )

    # ------------------------------------------------------------------ the deal

    def new_deal(self, setup: DealSetup, options: dict) -> MajaState:
        n = setup.nplayers
        hand_size = options.get("hand_size") or 6
        dealer = setup.dealer
        hands = setup.hands
        stock = setup.stock
        # Fast path: a well-formed deal costs a few mask operations; anything odd
        # goes through the checks below, which name the first problem.
        if (2 <= n <= 6 and dealer is not None and 0 <= dealer < n and hands is not None
                and len(hands) == n and stock):
            bits = _BIT
            try:
                masks = []
                for cards in hands:
                    if len(cards) != hand_size or min(cards) < 0:
                        break
                    mask = 0
                    for c in cards:
                        mask |= bits[c]
                    masks.append(mask)
                # prefix[i]: the first i stock cards, summed (as the check below
                # passes only for distinct cards: their mask); _BIT also takes
                # -52..-1, which min() refuses.
                prefix = list(accumulate(itemgetter(*stock)(bits), initial=0))
                # With 52 cards listed, adding up to the full deck means each once
                # (and the hand masks, ORs, are sums too).
                ok = (len(masks) == n and len(stock) + n * hand_size == 52 and min(stock) >= 0
                      and sum(masks) + prefix[-1] == FULL)
            except (IndexError, TypeError, ValueError):
                ok = False
            if ok:
                trump = SUIT_OF[stock[-1]]
                if trump != SPADES or options.get("spade_trump"):
                    return MajaState(n, hand_size, trump, dealer, masks, list(stock), prefix)
        return self._check_setup(setup, options)

    def _check_setup(self, setup: DealSetup, options: dict) -> MajaState:
        """The setup checks one by one (the first problem raises)."""
        n = setup.nplayers
        hand_size = options.get("hand_size") or 6
        if not self.min_players <= n <= self.max_players:
            raise RecordError(_player_count(n), rule="player-count", column="players")
        dealer = setup.dealer
        if dealer is None:
            raise RecordError(Message(N_("svarta-maja needs a dealer (the dealer's left neighbour "
                                         "attacks first)")),
                              rule="dealer-missing", column="dealer")
        if not 0 <= dealer < n:
            raise RecordError(dealer_not_a_seat(n, seat_words(dealer)),
                              rule="dealer-range", column="dealer")
        hands = setup.hands
        if hands is None or len(hands) != n:
            got = 0 if hands is None else len(hands)
            raise RecordError(Message(N_("%(n)s hands are needed, one per seat, not %(got)s"),
                                      {"n": n, "got": got}),
                              rule="hand-count", column="hands")
        seen = 0
        masks = []
        for seat, cards in enumerate(hands):
            if len(cards) != hand_size:
                raise RecordError(
                    Message(N_("each seat is dealt %(size)s cards; %(seat)s has %(count)s"),
                            {"size": hand_size, "seat": seat_words(seat), "count": len(cards)}),
                    rule="hand-size", column="hands")
            mask = 0
            for c in cards:
                if not (isinstance(c, int) and 0 <= c < 52):
                    raise RecordError(not_a_card(quoted(c)), rule="card-range", column="hands")
                bit = 1 << c
                if seen & bit:
                    raise RecordError(Message(N_("%(card)s is dealt twice (every card once)"),
                                              {"card": Card(c)}),
                                      rule="duplicate-card", column="hands")
                seen |= bit
                mask |= bit
            masks.append(mask)
        stock = setup.stock
        if not stock:
            raise RecordError(Message(N_("the stock is missing: the cards not dealt, top first, "
                                         "the trump indicator last")),
                              rule="stock-missing", column="stock")
        stock = list(stock)
        for c in stock:
            if not (isinstance(c, int) and 0 <= c < 52):
                raise RecordError(not_a_card(quoted(c)), rule="card-range", column="stock")
            bit = 1 << c
            if seen & bit:
                raise RecordError(Message(N_("%(card)s appears twice (every card once)"),
                                          {"card": Card(c)}),
                                  rule="duplicate-card", column="stock")
            seen |= bit
        if seen != (1 << 52) - 1:
            missing = cards_of(((1 << 52) - 1) & ~seen)
            raise RecordError(Message(N_("the deal lacks %(cards)s (every card once: hands + stock "
                                         "= 52)"), {"cards": Cards(missing)}),
                              rule="missing-card", column="stock")
        indicator = stock[-1]
        trump = SUIT_OF[indicator]
        if trump == SPADES and not options.get("spade_trump"):
            raise RecordError(
                Message(N_("the trump indicator %(card)s is a spade; spades may not be trump "
                           "(option spade_trump=false): the card goes back and another is turned"),
                        {"card": Card(indicator)}),
                rule="spade-trump", column="stock")
        return MajaState(n, hand_size, trump, dealer, masks, stock)

    def __init__(self) -> None:
        # Canonical halves of exchange tokens ("7D,9D", "JD,-") as the replay
        # reads them (see _parse_canonical): a cache of the notation, not deal
        # state (the rule book stays stateless).
        self._attack_cache: dict[str, tuple[tuple[int, ...], int, bool]] = {}
        self._answer_cache: dict[str, tuple[int, ...]] = {}

    def replay(self, setup: DealSetup, tokens: Sequence[str], options: dict) -> DealOutcome:
        """:meth:`Game.replay` in one loop, the state held in locals.

        Every exchange the fast checks of :meth:`play` accept is applied here as
        :meth:`play` would, less the bookkeeping kept only to explain errors and
        for the bots (``log``, ``taken_at``, ``last_beat``). On any doubt (a token
        not in canonical spelling, an exchange the fast checks refuse, a record
        that goes on after the deal is over or stops before) the whole record is
        replayed by :meth:`Game.replay`, which raises the error with its position.
        """
        state = self.new_deal(setup, options)
        n = state.n
        next_seat = _NEXT_SEAT[n]
        hands = state.hands
        beats = state.beats
        prefix = state.prefix
        nstock = state.nstock
        hand_size = state.hand_size
        events = state.events
        out_at = state.out_at
        a = state.attacker
        d = state.defender
        pos = state.pos
        moves = state.moves
        active = state.active
        one_card = _ONE_CARD_PLAY.get
        attack_halves = self._attack_cache.get
        answer_halves = self._answer_cache.get
        bit_of = _BIT
        for token in tokens:
            if state.over:
                break  # the record goes on: an error
            ha = hands[a]
            hd = hands[d]
            one = one_card(token)
            if one is not None:
                attack_card, amask, used, unbeaten = one
                if not (ha & amask and hd and (unbeaten or beats[attack_card] & used & hd)):
                    break
            else:
                left, sep, right = token.partition("/") if type(token) is str else ("", "", "")
                attack_half = attack_halves(left)
                answers = answer_halves(right)
                if (attack_half is None or answers is None) and self._parse_canonical(token):
                    attack_half = attack_halves(left)
                    answers = answer_halves(right)
                if attack_half is None or answers is None or not sep:
                    break
                attack, amask, one_suit = attack_half
                size = len(attack)
                if not one_suit or len(answers) != size or amask & ~ha or size > hd.bit_count():
                    break
                used = 0
                unbeaten = 0
                for c, b in zip(attack, answers):
                    if b < 0:
                        unbeaten |= bit_of[c]
                    else:
                        bit = bit_of[b]
                        if used & bit or not beats[c] & bit:
                            used = -1  # refused
                            break
                        used |= bit
                if used < 0 or used & ~hd:
                    break
            # The exchange is legal: apply it, as play() does.
            moves += 1
            ha ^= amask
            hd = (hd ^ used) | unbeaten
            if unbeaten & QS_BIT:
                events.append((moves, d, "queen-taken"))
            if pos < nstock:
                # Refill: the attacker up to hand_size first, then the defender.
                need = hand_size - ha.bit_count()
                if need > 0:
                    end = pos + need
                    if end > nstock:  # noqa: PLR1730 - cheaper than a min() call here
                        end = nstock
                    ha |= prefix[end] ^ prefix[pos]
                    pos = end
                need = hand_size - hd.bit_count()
                if need > 0 and pos < nstock:
                    end = pos + need
                    if end > nstock:  # noqa: PLR1730 - cheaper than a min() call here
                        end = nstock
                    hd |= prefix[end] ^ prefix[pos]
                    pos = end
                hands[a] = ha
                hands[d] = hd
                if pos < nstock:
                    if unbeaten:
                        d = next_seat[d]
                    a = d
                    d = next_seat[d]
                    continue
            else:
                hands[a] = ha
                hands[d] = hd
            # Seats go out only once the stock is empty; only the two parties can.
            if not ha and not out_at[a]:
                out_at[a] = moves
                active -= 1
                events.append((moves, a, "out"))
            if not hd and not out_at[d]:
                out_at[d] = moves
                active -= 1
                events.append((moves, d, "out"))
            if active <= 1:
                state.over = True
                for seat in range(n):
                    if hands[seat]:
                        state.loser = seat
                        break
                events.append((moves, state.loser, "lost"))
                continue
            if not unbeaten and hd:
                nxt = d
            else:
                nxt = next_seat[d]
                while not hands[nxt]:
                    nxt = next_seat[nxt]
            a = nxt
            nxt = next_seat[nxt]
            while not hands[nxt]:
                nxt = next_seat[nxt]
            d = nxt
        else:
            if state.over:
                state.attacker, state.defender, state.pos = a, d, pos
                state.moves, state.active = moves, active
                return self.outcome(state)
        return Game.replay(self, setup, tokens, options)

    def _parse_canonical(self, token) -> bool:
        """Put a canonical token's halves in the parse caches: the attack cards
        ("7D,9D") as ``(cards, their mask, whether they are distinct cards of one
        suit)``, the answers ("JD,-") as a tuple. ``False`` when the token is not
        in canonical spelling (:meth:`parse_move` then reads or refuses it)."""
        if type(token) is not str:
            return False
        left, sep, right = token.partition("/")
        if not sep:
            return False
        try:
            attack = tuple(map(_ATTACK_CARD.__getitem__, left.split(",")))
            answers = tuple(map(_ANSWER_CARD.__getitem__, right.split(",")))
        except KeyError:
            return False
        amask = 0
        for c in attack:
            amask |= _BIT[c]
        one_suit = amask.bit_count() == len(attack) and not amask & ~SUIT_MASK[SUIT_OF[attack[0]]]
        for cache, key, value in ((self._attack_cache, left, (attack, amask, one_suit)),
                                  (self._answer_cache, right, answers)):
            if len(cache) >= HALF_CACHE_SIZE:
                cache.clear()
            cache[key] = value
        return True

    def to_move(self, state: MajaState) -> int | None:
        return None if state.over else state.attacker

    def is_over(self, state: MajaState) -> bool:
        return state.over

    # ------------------------------------------------------------------ play

    def play(self, state: MajaState, move) -> None:
        if state.over:
            raise IllegalMove("deal-over", Message(N_("the deal is over: only one seat holds cards")))
        attack, answers = move
        a = state.attacker
        d = state.defender
        hands = state.hands
        ha = hands[a]
        hd = hands[d]
        # Fast path: masks and one table lookup per answer; any doubt goes to
        # _exchange_error, which finds the rule broken in the documented order.
        if len(attack) == 1 and len(answers) == 1:
            # Two thirds of all exchanges.
            amask = _BIT[attack[0]]
            b = answers[0]
            if not ha & amask or not hd:
                raise self._exchange_error(state, attack, answers)
            if b < 0:
                used = 0
                unbeaten = amask
            else:
                used = _BIT[b]
                unbeaten = 0
                if not state.beats[attack[0]] & used & hd:
                    raise self._exchange_error(state, attack, answers)
        else:
            amask = 0
            for c in attack:
                amask |= _BIT[c]
            if (len(answers) != len(attack) or amask.bit_count() != len(attack) or not attack
                    or amask & ~SUIT_MASK[SUIT_OF[attack[0]]] or amask & ~ha
                    or len(attack) > hd.bit_count()):
                raise self._exchange_error(state, attack, answers)
            beats = state.beats
            used = 0
            unbeaten = 0
            for c, b in zip(attack, answers):
                if b < 0:
                    unbeaten |= _BIT[c]
                else:
                    bit = _BIT[b]
                    if used & bit or not beats[c] & bit:
                        raise self._exchange_error(state, attack, answers)
                    used |= bit
            if used & ~hd:
                raise self._exchange_error(state, attack, answers)
        # The exchange is legal: apply it.
        moveno = state.moves + 1
        state.moves = moveno
        ha ^= amask
        hd = (hd ^ used) | unbeaten
        if used:
            state.last_beat = moveno
        if unbeaten:
            taken_at = state.taken_at
            for c, b in zip(attack, answers):
                if b < 0:
                    taken_at[c] = moveno
            if unbeaten & QS_BIT:
                state.events.append((moveno, d, "queen-taken"))
        pos = state.pos
        nstock = state.nstock
        if pos < nstock:
            # Refill: the attacker up to hand_size first, then the defender.
            prefix = state.prefix
            need = state.hand_size - ha.bit_count()
            if need > 0:
                end = min(pos + need, nstock)
                ha |= prefix[end] ^ prefix[pos]
                pos = end
            mid = pos
            need = state.hand_size - hd.bit_count()
            if need > 0 and pos < nstock:
                end = min(pos + need, nstock)
                hd |= prefix[end] ^ prefix[pos]
                pos = end
            state.pos = pos
            state.log.append(a << 3 | d | mid << 6 | pos << 12)
        else:
            state.log.append(a << 3 | d | pos << 6 | pos << 12)
        hands[a] = ha
        hands[d] = hd
        n = state.n
        if pos >= nstock:
            # Seats go out only once the stock is empty; only the two parties can.
            if not ha and not state.out_at[a]:
                state.out_at[a] = moveno
                state.active -= 1
                state.events.append((moveno, a, "out"))
            if not hd and not state.out_at[d]:
                state.out_at[d] = moveno
                state.active -= 1
                state.events.append((moveno, d, "out"))
            if state.active <= 1:
                state.over = True
                for seat in range(n):
                    if hands[seat]:
                        state.loser = seat
                        break
                state.events.append((moveno, state.loser, "lost"))
                return
            if not unbeaten and hd:
                nxt = d
            else:
                nxt = (d + 1) % n
                while not hands[nxt]:
                    nxt = (nxt + 1) % n
            state.attacker = nxt
            nxt = (nxt + 1) % n
            while not hands[nxt]:
                nxt = (nxt + 1) % n
            state.defender = nxt
        else:
            if unbeaten:
                d = (d + 1) % n
            state.attacker = d
            state.defender = (d + 1) % n

    # ------------------------------------------------------------------ diagnosis

    def _exchange_error(self, state: MajaState, attack, answers) -> IllegalMove:
        """The first rule an illegal exchange breaks, checked one by one."""
        hands = state.hands
        a, d = state.attacker, state.defender
        ha, hd = hands[a], hands[d]
        if not attack:
            return IllegalMove("attack-empty", Message(N_("an attack is one or more cards")))
        if len(answers) != len(attack):
            return IllegalMove("answer-count", Message(
                N_("every attack card gets exactly one answer (a card or -): %(count)s attack "
                   "cards (%(cards)s), %(answers)s answers"),
                {"count": len(attack), "cards": Cards(attack), "answers": len(answers)}))
        suit = SUIT_OF[attack[0]]
        amask = 0
        for c in attack:
            bit = 1 << c
            if amask & bit:
                return IllegalMove("attack-repeated", Message(N_("%(card)s is laid twice in one attack"),
                                                              {"card": Card(c)}))
            amask |= bit
            if SUIT_OF[c] != suit:
                return IllegalMove("one-suit", Message(
                    N_("an attack is cards of one suit (the queen of spades is a spade): %(first)s "
                       "and %(card)s"), {"first": Card(attack[0]), "card": Card(c)}))
        if amask & ~ha:
            return self._diagnose(state, attack, answers)
        if len(attack) > hd.bit_count():
            return IllegalMove("attack-too-many", Message(
                N_("never more attack cards than the defender holds: %(count)s cards (%(cards)s) "
                   "against %(seat)s's %(held)s"),
                {"count": len(attack), "cards": Cards(attack), "seat": seat_words(d),
                 "held": hd.bit_count()}))
        trump = state.trump
        used = 0
        for c, b in zip(attack, answers):
            if b < 0:
                continue
            if c == QS:
                return IllegalMove("qs-unbeatable", Message(
                    N_("the queen of spades cannot be beaten, not even by a trump: %(card)s on QS"),
                    {"card": Card(b)}))
            bit = 1 << b
            if used & bit:
                return IllegalMove("answer-reused", Message(
                    N_("one defending card beats one attack card: %(card)s answers twice"),
                    {"card": Card(b)}))
            used |= bit
            if not hd & bit:
                return self._diagnose(state, attack, answers)
            if b == QS:
                return IllegalMove("qs-beats-nothing", Message(
                    N_("the queen of spades beats nothing: QS on %(card)s"), {"card": Card(c)}))
            bs = SUIT_OF[b]
            if bs == suit:
                if b < c:
                    on = {"card": Card(b), "attack": Card(c)}
                    if suit == trump:
                        return IllegalMove("beat-trump", Message(
                            N_("a trump is beaten only by a higher trump: %(card)s on %(attack)s"), on))
                    return IllegalMove("beat-rank", Message(
                        N_("a card is beaten by a higher card of its suit: %(card)s on %(attack)s"), on))
            elif suit == trump:
                return IllegalMove("beat-trump", Message(
                    N_("a trump is beaten only by a higher trump: %(card)s on %(attack)s"),
                    {"card": Card(b), "attack": Card(c)}))
            elif bs != trump:
                return IllegalMove("beat-suit", Message(
                    N_("a card is beaten by a higher card of its suit or by a trump (%(trump)s): "
                       "%(card)s on %(attack)s"),
                    {"trump": suit_words(trump), "card": Card(b), "attack": Card(c)}))
        raise AssertionError(f"exchange judged illegal without a rule: {attack} {answers}")

    def _next_active(self, state: MajaState, seat: int) -> int:
        n = state.n
        stock_left = state.pos < len(state.stock)
        nxt = (seat + 1) % n
        for _ in range(n):
            if stock_left or state.hands[nxt]:
                return nxt
            nxt = (nxt + 1) % n
        return seat

    def _holder(self, state: MajaState, card: int) -> int | None:
        bit = 1 << card
        for seat, mask in enumerate(state.hands):
            if mask & bit:
                return seat
        return None

    @staticmethod
    def _seats_at(state: MajaState, exchange: int) -> tuple[int, int]:
        """The attacker and defender of an exchange (1-based)."""
        entry = state.log[exchange - 1]
        return entry >> 3 & 7, entry & 7

    @staticmethod
    def _drawn_at(state: MajaState, card: int) -> int:
        """The exchange after which ``card`` was drawn from the stock (0: never)."""
        try:
            index = state.stock.index(card)
        except ValueError:
            return 0
        for exchange, entry in enumerate(state.log, 1):
            if entry >> 12 > index:
                return exchange
        return 0

    def _attacker_why(self, state: MajaState) -> Message:
        a = state.attacker
        if not state.moves:
            return Message(N_("%(seat)s attacks first, as the dealer's (%(dealer)s) left neighbour"),
                           {"seat": seat_words(a), "dealer": seat_words(state.dealer)})
        pa, pd = self._seats_at(state, state.moves)
        if a == pd:
            return Message(N_("%(seat)s attacks: as defender against %(attacker)s they beat every "
                              "card, and a defender who beats every card attacks next"),
                           {"seat": seat_words(a), "attacker": seat_words(pa)})
        if state.hands[pd]:
            why = Message(N_("%(seat)s attacks: the defender %(defender)s did not beat every card, "
                             "so the attack passes to the next active seat after them"),
                          {"seat": seat_words(a), "defender": seat_words(pd)})
        else:
            why = Message(N_("%(seat)s attacks: the defender %(defender)s beat every card but is "
                             "out, so the attack passes to the next active seat after them"),
                          {"seat": seat_words(a), "defender": seat_words(pd)})
        out = [s for s in range(state.n) if state.out_at[s]]
        if out:
            why = Message(N_("%(why)s (seats out are skipped: %(seats)s)"),
                          {"why": why, "seats": seat_numbers(out)})
        return why

    def _order_error(self, state: MajaState, seat: int, detail: Message) -> IllegalMove:
        """``seat`` attacked where the engine's attacker should have: which order rule
        the record broke."""
        why = self._attacker_why(state)
        if not state.moves:
            return IllegalMove("first-attacker", Message(N_("%(why)s; %(detail)s"),
                                                         {"why": why, "detail": detail}))
        n = state.n
        pa, pd = self._seats_at(state, state.moves)
        if (pd - pa) % n > 1 and state.attacker != pd and seat == (pa + 2) % n:
            # The record sent the last attack to a seat that is out and let the seat
            # after it attack next.
            skipped = [(pa + i) % n for i in range(1, (pd - pa) % n)]
            out = Message(N_("%(seats)s is out") if len(skipped) == 1 else N_("%(seats)s are out"),
                          {"seats": seats_words(skipped)})
            return IllegalMove("out-skipped", Message(
                N_("seats that are out are skipped in both roles: %(attacker)s attacked "
                   "%(defender)s (%(out)s), so %(seat)s does not attack now; %(why)s; %(detail)s"),
                {"attacker": seat_words(pa), "defender": seat_words(pd), "out": out,
                 "seat": seat_words(seat), "why": why, "detail": detail}))
        return IllegalMove("next-attacker", Message(N_("%(why)s; %(detail)s"),
                                                    {"why": why, "detail": detail}))

    @staticmethod
    def _held_by(cards, seat: int) -> Message:
        return Message(N_("%(cards)s held by %(seat)s"), {"cards": Cards(cards), "seat": seat_words(seat)})

    def _where(self, state: MajaState, card: int) -> Message:
        holder = self._holder(state, card)
        if holder is not None:
            return Message(N_("%(card)s is held by %(seat)s"),
                           {"card": Card(card), "seat": seat_words(holder)})
        if card in state.stock[state.pos:]:
            return Message(N_("%(card)s is still in the stock"), {"card": Card(card)})
        return Message(N_("%(card)s has left play (beaten or used to beat)"), {"card": Card(card)})

    def _wheres(self, state: MajaState, cards) -> Message:
        """Where each card is, separated by semicolons."""
        said = [self._where(state, c) for c in cards]
        words = said[0]
        for more in said[1:]:
            words = Message(N_("%(first)s; %(then)s"), {"first": words, "then": more})
        return words

    def _diagnose(self, state: MajaState, attack, answers) -> IllegalMove:
        """The rule a misplaced card most likely breaks (see the module docstring)."""
        hands = state.hands
        a, d, n = state.attacker, state.defender, state.n
        amask = 0
        for c in attack:
            amask |= 1 << c
        real = [b for b in answers if b >= 0]
        bmask = 0
        for b in real:
            bmask |= 1 << b
        attack_missing = [c for c in attack if not hands[a] >> c & 1]
        answer_missing = [b for b in real if not hands[d] >> b & 1]
        others = [s for s in range(n) if s != a and hands[s]]

        # 0. The seat after an out seat attacked, as if the out seat had defended.
        if attack_missing:
            for x in others:
                if amask & ~hands[x] == 0:
                    error = self._order_error(state, x, self._held_by(attack, x))
                    if error.rule == "out-skipped":
                        return error
        # 1. Another seat attacked, and its own defender answered.
        if attack_missing and real:
            for x in others:
                if amask & ~hands[x] == 0:
                    y = self._next_active(state, x)
                    if y != x and bmask & ~hands[y] == 0:
                        return self._order_error(state, x, Message(
                            N_("the attack %(cards)s is %(seat)s's, answered from %(other)s's hand"),
                            {"cards": Cards(attack), "seat": seat_words(x), "other": seat_words(y)}))
        # 2. The refill: the card went to the other party of its refill, or is undrawn.
        for card, mover in ([(c, a) for c in attack_missing] + [(b, d) for b in answer_missing]):
            holder = self._holder(state, card)
            if holder is None and card in state.stock[state.pos:state.pos + state.hand_size]:
                # Near the top of the stock: a refill drawn too far or for the wrong seat.
                return IllegalMove("refill", Message(
                    N_("%(card)s is still in the stock: the attacker draws up to %(size)s first, "
                       "then the defender, from the top, while the stock lasts"),
                    {"card": Card(card), "size": state.hand_size}))
            e = self._drawn_at(state, card)
            if holder is not None and e:
                pa, pd = self._seats_at(state, e)
                start = state.log[e - 2] >> 12 if e > 1 else 0
                mid, end = state.log[e - 1] >> 6 & 63, state.log[e - 1] >> 12
                drawer = pa if state.stock.index(card) < mid else pd
                # Had the defender drawn first, the first end - mid cards were theirs.
                swapped = pd if state.stock.index(card) < start + end - mid else pa
                if holder == drawer and swapped == mover != drawer:
                    return IllegalMove("refill", Message(
                        N_("%(card)s was drawn by %(holder)s in the refill after move %(move)s, not "
                           "by %(mover)s: the attacker (%(attacker)s) draws up to %(size)s first, "
                           "then the defender (%(defender)s)"),
                        {"card": Card(card), "holder": seat_words(holder), "move": e,
                         "mover": seat_words(mover), "attacker": seat_words(pa),
                         "size": state.hand_size, "defender": seat_words(pd)}))
            # 3. A seat that was out was skipped when the card went to its defender.
            e = state.taken_at[card]
            if holder is not None and e:
                pa, pd = self._seats_at(state, e)
                skipped = [(pa + i) % n for i in range(1, (pd - pa) % n)]
                if holder == pd and skipped:
                    return IllegalMove("out-skipped", Message(
                        N_("%(card)s went to %(defender)s at move %(move)s: seats that are out "
                           "(%(skipped)s) are skipped, so %(defender)s defended against "
                           "%(attacker)s"),
                        {"card": Card(card), "defender": seat_words(pd), "move": e,
                         "skipped": seats_words(skipped), "attacker": seat_words(pa)}))
        # 4. The attack is all another seat's.
        if attack_missing:
            for x in others:
                if amask & ~hands[x] == 0:
                    return self._order_error(state, x, self._held_by(attack, x))
            return IllegalMove("attack-not-in-hand", Message(
                N_("the attack cards must come from the attacker's (%(seat)s) hand: %(where)s"),
                {"seat": seat_words(a), "where": self._wheres(state, attack_missing)}))
        # 5. The answers are all another seat's.
        for y in range(n):
            if y != d and y != a and hands[y] and bmask & ~hands[y] == 0:
                return IllegalMove("defender-order", Message(
                    N_("the defender is the next active seat after the attacker %(attacker)s, "
                       "%(defender)s; %(cards)s are held by %(seat)s"),
                    {"attacker": seat_words(a), "defender": seat_words(d),
                     "cards": Cards(answer_missing), "seat": seat_words(y)}))
        return IllegalMove("answer-not-in-hand", Message(
            N_("the answers must come from the defender's (%(seat)s) hand: %(where)s"),
            {"seat": seat_words(d), "where": self._wheres(state, answer_missing)}))

    # ------------------------------------------------------------------ moves

    def beaters(self, state: MajaState, card: int) -> list[int]:
        """The defender's cards that beat ``card`` (none for the queen of spades)."""
        return cards_of(state.hands[state.defender] & state.beats[card])

    def legal_attacks(self, state: MajaState) -> list[tuple[int, ...]]:
        """Every attack (cards ascending), without the answers."""
        if state.over:
            return []
        limit = state.hands[state.defender].bit_count()
        ha = state.hands[state.attacker]
        out: list[tuple[int, ...]] = []
        for s in range(4):
            cards = cards_of(ha & SUIT_MASK[s])
            k = len(cards)
            for subset in range(1, 1 << k):
                if subset.bit_count() <= limit:
                    out.append(tuple(cards[i] for i in range(k) if subset >> i & 1))
        return out

    def legal_answers(self, state: MajaState, attack: Sequence[int]) -> list[tuple[int, ...]]:
        """Every answer tuple to a legal ``attack``."""
        options = [self.beaters(state, c) for c in attack]
        out: list[tuple[int, ...]] = []
        chosen = [NO_ANSWER] * len(attack)

        def walk(i: int, used: int) -> None:
            if i == len(attack):
                out.append(tuple(chosen))
                return
            chosen[i] = NO_ANSWER
            walk(i + 1, used)
            for b in options[i]:
                if not used >> b & 1:
                    chosen[i] = b
                    walk(i + 1, used | 1 << b)
            chosen[i] = NO_ANSWER

        walk(0, 0)
        return out

    def legal_moves(self, state: MajaState) -> list:
        """Every legal exchange. This can be a long list (every attack set times every
        way of answering it); bots and replay never need it."""
        return [(attack, answers) for attack in self.legal_attacks(state)
                for answers in self.legal_answers(state, attack)]

    # ------------------------------------------------------------------ outcome

    def outcome(self, state: MajaState) -> DealOutcome:
        if not state.over:
            raise IllegalMove("record-incomplete", Message(
                N_("the deal is not over: more than one seat holds cards")))
        scores = [0] * state.n
        scores[state.loser] = 1
        # Competition places by the exchange each seat went out in; the loser last.
        # (The first index of a value in the sorted list counts the values below it.)
        out_at = [e or 1 << 30 for e in state.out_at]
        ordered = sorted(out_at)
        places = [ordered.index(e) + 1 for e in out_at]
        return LazyEventsOutcome(scores, places, "moves", None, state.moves,
                                 _deal_events, (state.events,))

    # ------------------------------------------------------------------ notation

    def parse_move(self, token: str):
        try:
            move = _ONE_CARD_EXCHANGE.get(token)
        except TypeError:  # unhashable (a list): no token
            move = None
        if move is not None:
            return move
        if not isinstance(token, str):  # None, a number: no token
            raise IllegalMove("notation", _not_an_exchange(token))
        left, sep, right = token.partition("/")
        try:
            return (tuple([_ATTACK_CARD[t] for t in left.split(",")]),
                    tuple([_ANSWER_CARD[t] for t in right.split(",")]))
        except KeyError:
            pass
        # Not canonical: blanks, lower case, 10, suit symbols, or not a move at all.
        left, sep, right = token.strip().partition("/")
        if not sep or "/" in right or not left.strip() or not right.strip():
            raise IllegalMove("notation", _not_an_exchange(token))
        try:
            attack = tuple([parse_card(t.strip()) for t in left.split(",")])
            answers = tuple([NO_ANSWER if t.strip() == "-" else parse_card(t.strip())
                             for t in right.split(",")])
        except CardError as err:
            raise IllegalMove("notation", Message(N_("not an exchange: %(token)s (%(why)s)"),
                                                  {"token": quoted(token),
                                                   "why": not_a_card(quoted(err.text))})) from None
        return attack, answers

    def format_move(self, move) -> str:
        attack, answers = move
        return (",".join([CARD_NAMES[c] for c in attack]) + "/"
                + ",".join(["-" if b < 0 else CARD_NAMES[b] for b in answers]))

    # ------------------------------------------------------------------ score sheets

    def negative_scores(self, options: dict) -> bool:
        return False  # 1 for the loser, 0 for the rest

    def check_score_sheet(self, setup: DealSetup, scores: list, options: dict) -> DealOutcome:
        n = setup.nplayers
        if not self.min_players <= n <= self.max_players:
            raise IllegalMove("score-sheet-seats", _player_count(n))
        if len(scores) != n:
            raise IllegalMove("score-sheet-seats", Message(
                N_("svarta-maja score sheet has %(count)s scores for %(n)s seats"),
                {"count": len(scores), "n": n}))
        for seat, s in enumerate(scores):
            if s not in (0, 1) or isinstance(s, bool):
                raise IllegalMove("score-sheet-value", Message(
                    N_("score %(score)s: a svarta-maja deal scores 1 for the loser and 0 for every "
                       "other seat"), {"score": s}), seat=seat)
        losers = sum(scores)
        if losers != 1:
            raise IllegalMove("score-sheet-loser", Message(
                N_("svarta-maja deal has %(losers)s losers (scores total %(losers)s); exactly one "
                   "seat holds the queen of spades at the end and scores 1"), {"losers": losers}))
        places = [n if s else 1 for s in scores]
        return DealOutcome(scores=list(scores), places=places, verified="scores")

    # ------------------------------------------------------------------ bots

    def random_setup(self, nplayers: int, dealer: int | None, deal_number: int,
                     options: dict, rng: random.Random) -> DealSetup:
        self.check_player_count(nplayers)
        hand_size = options.get("hand_size") or 6
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [deck[i * hand_size:(i + 1) * hand_size] for i in range(nplayers)]
        stock = deck[nplayers * hand_size:]
        if not options.get("spade_trump"):
            # As at the table: a turned spade goes back into the stock, another is turned.
            while SUIT_OF[stock[-1]] == SPADES:
                card = stock.pop()
                stock.insert(rng.randrange(len(stock)), card)
        return DealSetup(nplayers=nplayers, dealer=0 if dealer is None else dealer,
                         hands=hands, stock=stock, deal_number=deal_number)

    def choose_move(self, state: MajaState, rng: random.Random, skill=1.0):
        if isinstance(skill, (int, float)):
            attack_skill = answer_skill = skill
        else:
            attack_skill = skill[state.attacker]
            answer_skill = skill[state.defender]
        if (attack_skill >= 1 or rng.random() < attack_skill) and (
                state.moves - state.last_beat < _QUIET_LIMIT * state.n):
            attack = self._heuristic_attack(state)
        else:
            attack = self._random_attack(state, rng)
        if answer_skill >= 1 or rng.random() < answer_skill:
            answers = self._heuristic_answers(state, attack)
        else:
            answers = self._random_answers(state, attack, rng)
        return attack, answers

    def _heuristic_attack(self, state: MajaState) -> tuple[int, ...]:
        ha = state.hands[state.attacker]
        limit = state.hands[state.defender].bit_count()
        trump = state.trump
        stock_left = state.pos < len(state.stock)
        if ha & QS_BIT:
            spades = cards_of(ha & SUIT_MASK[SPADES] & ~QS_BIT)
            if trump == SPADES and stock_left:
                spades = []
            elif stock_left:
                spades = [c for c in spades if RANK_OF[c] <= 7]  # nine and lower
            return tuple([QS] + spades[:limit - 1])
        best = None
        for s in range(4):
            cards = cards_of(ha & SUIT_MASK[s])
            if not cards:
                continue
            if stock_left:
                # Lowest card first; trumps only when nothing else is held.
                key = (s == trump, RANK_OF[cards[0]])
            else:
                key = (s == trump, -len(cards), RANK_OF[cards[0]])
            if best is None or key < best[0]:
                best = (key, cards)
        cards = best[1]
        if stock_left:
            low = RANK_OF[cards[0]]
            cards = [c for c in cards if RANK_OF[c] <= max(low, 6)]  # eight and lower
        return tuple(cards[:limit])

    def _heuristic_answers(self, state: MajaState, attack) -> tuple[int, ...]:
        trump = state.trump
        used = 0
        answers = [NO_ANSWER] * len(attack)
        # The hardest cards first: trumps, then high cards.
        order = sorted(range(len(attack)),
                       key=lambda i: (SUIT_OF[attack[i]] == trump, RANK_OF[attack[i]]),
                       reverse=True)
        for i in order:
            best = None
            best_cost = 99
            for b in self.beaters(state, attack[i]):
                if used >> b & 1:
                    continue
                cost = RANK_OF[b] + (13 if SUIT_OF[b] == trump else 0)
                if cost < best_cost:
                    best, best_cost = b, cost
            if best is not None:
                answers[i] = best
                used |= 1 << best
        return tuple(answers)

    def _random_attack(self, state: MajaState, rng: random.Random) -> tuple[int, ...]:
        ha = state.hands[state.attacker]
        limit = state.hands[state.defender].bit_count()
        suits = []
        total = 0
        for s in range(4):
            cards = cards_of(ha & SUIT_MASK[s])
            if cards:
                weights = [comb(len(cards), k) for k in range(1, min(len(cards), limit) + 1)]
                suits.append((cards, weights))
                total += sum(weights)
        r = rng.randrange(total)
        for cards, weights in suits:
            for k, w in enumerate(weights, 1):
                if r < w:
                    return tuple(sorted(rng.sample(cards, k)))
                r -= w
        raise AssertionError("unreachable")  # pragma: no cover

    def _random_answers(self, state: MajaState, attack, rng: random.Random) -> tuple[int, ...]:
        used = 0
        answers = []
        for c in attack:
            options = [b for b in self.beaters(state, c) if not used >> b & 1]
            pick = rng.randrange(len(options) + 1)
            if pick == len(options):
                answers.append(NO_ANSWER)
            else:
                answers.append(options[pick])
                used |= 1 << options[pick]
        return tuple(answers)


SVARTA_MAJA = SvartaMaja()
"""The svarta-maja engine (registry attribute)."""

__all__ = ["SVARTA_MAJA", "MajaState", "SvartaMaja"]
