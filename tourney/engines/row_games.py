"""The row games: ``kortrad`` (Dam med kortrad, Korpen) and ``sju-dolda`` (Dam med sju
dolda kort). docs/guide/rules.md, "Dam med kortrad".

One parametrised engine, :class:`RowGame`; the two variant ids are presets of it
(:data:`KORTRAD`, :data:`SJU_DOLDA`) that differ in player range and in the defaults
of the options ``row`` (swappable positions) and ``secret`` (hidden cards beside the
row, never swapped). The third form of ``002_...``, "sexkortsversionen", is
``kortrad`` with ``row=5, secret=1``.

Moves are ints: ``2 * k + source``, ``source`` 0 for the stock (``S<k>``) and 1 for
the discard pile (``D<k>``), ``k`` the number of row positions swapped. A turn that
swaps ``k`` positions puts the card in hand at position 1, shifts positions
1..k-1 one place right and discards the card that was at position ``k``: the row as a
list does ``insert(0, card)`` then ``pop(k)``.

Decisions (where the rules are silent or leave room):

* Option bounds: ``row`` is 1..7 (the sources use 5, 6 and 7) and ``secret`` 0..2
  (the sources use 0 and 1). A deal needs at least one stock card, so a table where
  ``players * (row + secret) >= 52`` is refused (rule ``deck-too-small``, column
  ``players``), e.g. ``sju-dolda`` with ``secret=2`` and six players.
* ``dealer`` is an option with the single choice ``rotate``: the rules' common ground
  has the dealer move clockwise and names no other rule for the row games.
* The discard pile is empty only before the first turn (every turn ends with a
  discard, and a ``D`` turn takes one card and discards one), so "not on the deal's
  first turn" and "only if the pile is not empty" are one check, reported as rule
  ``pile-first-turn``.
* ``D0`` (take the pile's top card and discard it again at once) is legal: the rules
  let the card in hand be discarded at once, "also one just taken from the pile".
  Such a turn changes nothing but the seat to move; the record decides how long a
  deal lasts.
* Notation: ``S``/``D`` in either case followed by ASCII digits (leading zeros are
  accepted, ``S03`` is ``S3``); surrounding blanks are ignored. A swap count larger
  than the row is a rule error (``swap-count``), not a notation error.
* Score sheets: each seat's score must be a sum of ``row + secret`` distinct cards'
  points (so ``12`` is impossible with one card per seat, and ``0`` with seven), and
  for every number ``j`` of seats, the ``j`` highest scores together can be at most
  the ``j * (row + secret)`` most valuable cards of the deck and the ``j`` lowest at
  least the ``j * (row + secret)`` least valuable ones (this includes the deal's
  total). Finer joint impossibilities are not looked for; the hands of a score-sheet
  row, when given, are not used (the final rows depend on the play).
* Events: ``zero-taken`` when a seat takes a queen or the king of hearts from the
  discard pile; ``secret-decides`` when the secret cards change the order of the
  seats (the ``000_...`` example: Ida 13 against Pontus 17 on the rows, 24 against 19
  with the secret cards).
* Bots: the heuristic uses only what the seat may know: the pile's top card, the
  card in hand during the turn and the row positions the seat has seen (it remembers
  every position it swapped into; unseen positions count as an average card).
"""
from __future__ import annotations

import random
from itertools import chain, count, cycle

from ..cards import ACE, CARD_NAMES, JACK, KH, KING, QUEEN, format_cards, rank_of
from ..errors import IllegalMove, RecordError
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
    places_from_scores,
)
from .presentation import (
    N_,
    Card,
    Cards,
    Message,
    Note,
    ReplaySteps,
    Seat,
    Turn,
    dealer_not_a_seat,
    seat_words,
    target_sentence,
)

# ------------------------------------------------------------------------ card points

def _points(card: int) -> int:
    rank = rank_of(card)
    if rank == QUEEN or card == KH:
        return 0
    if rank == ACE:
        return 1
    if rank == JACK:
        return 11
    if rank == KING:
        return 13
    return rank + 2  # 2..10 face value (rank 0 is the two, TEN is rank 8)


POINTS: tuple[int, ...] = tuple(_points(c) for c in range(52))
"""Points of every card, indexed by card int: queens and KH 0, ace 1, 2-10 face
value, jack 11, KS KD KC 13."""

# Queens and the king of hearts: the five zero cards ("fem nollkort").
ZERO_CARDS: frozenset[int] = frozenset(c for c in range(52) if POINTS[c] == 0)

# The deck's point values, most valuable first (for score-sheet bounds).
_VALUES_DESC: tuple[int, ...] = tuple(sorted(POINTS, reverse=True))
_VALUES_ASC: tuple[int, ...] = tuple(sorted(POINTS))

# Mean points of a card the seat has not seen (303 / 52): the bot's estimate.
_UNSEEN_VALUE = sum(POINTS) / 52

_DECK_SET = frozenset(range(52))
# The deck check of the hot path, in C: the 52 dealt cards as bytes make a
# translation table that marks each card dealt (bytes.maketrans), and the deck
# translated by it is all marks exactly when every card is dealt; with 52 dealt,
# then each is dealt once.
_DECK_BYTES = bytes(range(52))
_DEALT = b"\xff" * 52

MAX_ROW = 7
MAX_SECRET = 2


def card_points(card: int) -> int:
    """The points one card is worth at the end of a deal."""
    return POINTS[card]


def cards_points(cards) -> int:
    """The points of some cards (a row, its secret cards, or both)."""
    return sum(POINTS[c] for c in cards)


def _reachable_sums(ncards: int) -> frozenset[int]:
    """Every total that ``ncards`` distinct cards of the deck can be worth."""
    counts: dict[int, int] = {}
    for value in POINTS:
        counts[value] = counts.get(value, 0) + 1
    # sums[j] = set of totals of j cards chosen so far
    sums: list[set[int]] = [set() for _ in range(ncards + 1)]
    sums[0].add(0)
    for value, copies in counts.items():
        new = [set(s) for s in sums]
        for j in range(ncards + 1):
            for total in sums[j]:
                for take in range(1, min(copies, ncards - j) + 1):
                    new[j + take].add(total + take * value)
        sums = new
    return frozenset(sums[ncards])


# Per number of cards a seat ends with (row + secret, 1..9): the possible totals.
_REACHABLE: tuple[frozenset[int], ...] = tuple(
    _reachable_sums(m) for m in range(MAX_ROW + MAX_SECRET + 1))


# --------------------------------------------------------------------------- notation

def _format(move: int) -> str:
    return ("D" if move & 1 else "S") + str(move >> 1)


# Every token a well-formed record is likely to use, precomputed: parsing is one
# dict lookup on the hot path; anything else goes through the lenient parser.
_TOKENS: dict[str, int] = {}
for _k in range(MAX_ROW + 1):
    for _source, _letter in ((0, "S"), (1, "D")):
        _TOKENS[f"{_letter}{_k}"] = 2 * _k + _source
        _TOKENS[f"{_letter.lower()}{_k}"] = 2 * _k + _source
del _k, _source, _letter

# The replay's fast loop spells a turn differently: ``k`` for ``S<k>`` and
# ``_PILE + k`` for ``D<k>`` (a comparison and a subtraction are cheaper than the
# bit operations). Per row length: the tokens of the turns that swap at most that
# many positions.
_PILE = MAX_ROW + 1
_ROW_TOKENS: tuple[dict[str, int], ...] = tuple(
    {token: (_PILE if move & 1 else 0) + (move >> 1)
     for token, move in _TOKENS.items() if move >> 1 <= row}
    for row in range(MAX_ROW + 1))

_STOCK_MOVES: tuple[tuple[int, ...], ...] = tuple(
    tuple(2 * k for k in range(row + 1)) for row in range(MAX_ROW + 1))
_PILE_MOVES: tuple[tuple[int, ...], ...] = tuple(
    tuple(2 * k + 1 for k in range(row + 1)) for row in range(MAX_ROW + 1))


def _places_low_best(scores: list[int]) -> list[int]:
    """Competition places (1, 2, 2, 4), lowest score best, as
    :func:`~tourney.engines.base.places_from_scores` gives them: the first index
    of a score in the sorted list counts the scores below it (behind one lower
    number, the index is the place)."""
    ordered = sorted(scores)
    return list(map([ordered[0] - 1, *ordered].index, scores))


# Each card's points as a byte (a translation table: 256 bytes, past the cards 0):
# a seat's cards as bytes, translated, are their points, summed in C. (Cards are
# checked before: see RowGame._deal.)
_POINTS_BYTES = bytes(POINTS).ljust(256, b"\0")
_POINTS_LIST = list(POINTS)


def _outcome(rows: list[list[int]], secrets: list[list[int]] | None,
             events: list[DealEvent], moves: int) -> DealOutcome:
    """A finished deal's outcome from its final rows and secret cards (``None``
    without secret cards); events beyond ``events`` are built when read."""
    try:
        if secrets is None:
            scores = [sum(bytes(cards).translate(_POINTS_BYTES)) for cards in rows]
        else:
            scores = [sum(bytes(cards + secret).translate(_POINTS_BYTES))
                      for cards, secret in zip(rows, secrets)]
    except (TypeError, ValueError):  # not all ints 0-255: the list says what is wrong
        points = _POINTS_LIST.__getitem__
        if secrets is None:
            scores = [sum(map(points, cards)) for cards in rows]
        else:
            scores = [sum(map(points, cards + secret)) for cards, secret in zip(rows, secrets)]
    return LazyEventsOutcome(scores, _places_low_best(scores), "moves", None, moves,
                             _deal_events, (events, rows, secrets, scores, moves))


def _deal_events(events: list[DealEvent], rows: list[list[int]],
                 secrets: list[list[int]] | None, scores: list[int],
                 moves: int) -> list[DealEvent]:
    """A finished deal's events (built only when read: see LazyEventsOutcome): the
    ones play gave, then ``secret-decides`` if the secret cards (``None`` without
    any; ``scores`` counts them) change the order of the rows."""
    events = list(events)
    if secrets is None:
        return events
    row_scores = [cards_points(cards) for cards in rows]
    if _places_low_best(scores) != _places_low_best(row_scores):
        events.append(DealEvent(
            moves, None, "secret-decides",
            "the secret cards change the order: rows "
            + ";".join(map(str, row_scores)) + ", with the secret cards "
            + ";".join(map(str, scores))))
    return events


# ------------------------------------------------------------------------------ state

class RowState:
    """One deal of a row game, mutated in place.

    ``rows[seat]`` are the positions left to right; ``stock`` has its top card
    *last* (so drawing is ``pop()``); ``pile`` has its top card last. ``known[seat]``
    is a bit mask of the row positions that seat has seen (for the bots only).
    """

    __slots__ = (
        "dealer",
        "events",
        "known",
        "moves",
        "nplayers",
        "pile",
        "row",
        "rows",
        "seat",
        "secret",
        "secrets",
        "stock",
    )

    def __init__(self, nplayers, dealer, row, secret, rows, secrets, stock):
        self.nplayers = nplayers
        self.dealer = dealer
        self.row = row
        self.secret = secret
        self.rows = rows
        self.secrets = secrets
        self.stock = stock
        self.pile: list[int] = []
        self.seat = (dealer + 1) % nplayers
        self.moves = 0
        self.known = [0] * nplayers
        self.events: list[DealEvent] = []

    def __repr__(self) -> str:
        """The deal as it stands, for a developer (seats from 0, as the data)."""
        rows = [format_cards(row) for row in self.rows]
        secrets = None if self.secrets is None else [format_cards(s) for s in self.secrets]
        pile = CARD_NAMES[self.pile[-1]] if self.pile else None
        return (f"<RowState seat={self.seat} rows={rows} secrets={secrets} pile_top={pile!r} "
                f"stock_left={len(self.stock)}>")


# ------------------------------------------------------------------------------- game

def _secret_sentence(value) -> Message:
    if not value:
        return Message(N_("No secret card beside the row."))
    if value == 1:
        return Message(N_("One secret card beside the row, never swapped."))
    return Message(N_("%(n)s secret cards beside the row, never swapped."), {"n": value})


class RowGame(Game):
    """The row-game engine; an instance is one preset (variant id)."""

    uses_dealer = True
    higher_is_better = False

    event_sentences = {"secret-decides": N_("The secret cards change the order of the players")}

    def __init__(self, id: str, name: str, min_players: int, max_players: int,
                 row: int, secret: int, title: str = "", tagline: str = ""):
        self.id = id
        self.name = name
        self.title = title
        self.tagline = tagline
        self.min_players = min_players
        self.max_players = max_players
        self.default_row = row
        self.default_secret = secret
        self.option_specs = (
            OptionSpec("row", "int", row,
                       "swappable positions in each seat's row (sexkortsversionen: 5)",
                       choices=tuple(range(1, MAX_ROW + 1)), minimum=1,
                       sentence=lambda value: Message(
                           N_("Rows of %(n)s cards that can be swapped."), {"n": value})),
            OptionSpec("secret", "int", secret,
                       "secret cards beside the row: never swapped, counted at the end",
                       choices=tuple(range(MAX_SECRET + 1)), minimum=0,
                       sentence=_secret_sentence),
            deal_option("deals"),
            OptionSpec("target", "int", None,
                       "the deal in which some seat's running total reaches this is the last",
                       minimum=1, sentence=target_sentence),
            dealer_option(("rotate",), "the dealer moves clockwise from deal to deal"),
        )

    # ---- options and matches

    def _shape(self, options) -> tuple[int, int]:
        row = options.get("row")
        secret = options.get("secret")
        return (self.default_row if row is None else row,
                self.default_secret if secret is None else secret)

    def match_rules(self, options: dict) -> MatchRules:
        return MatchRules(deals=options.get("deals"), target=options.get("target"),
                          tie_extra=False, dealer=options.get("dealer") or "rotate",
                          higher_is_better=False)

    def _check_table(self, nplayers: int, row: int, secret: int) -> None:
        if not self.min_players <= nplayers <= self.max_players:
            raise RecordError(
                Message(N_("%(game)s is played by %(low)s-%(high)s players, not %(n)s"),
                        {"game": self.id, "low": self.min_players, "high": self.max_players,
                         "n": nplayers}), rule="player-count", column="players")
        if nplayers * (row + secret) >= 52:
            raise RecordError(
                Message(N_("%(n)s seats of %(row)s row + %(secret)s secret cards take %(cards)s "
                           "cards and leave no stock"),
                        {"n": nplayers, "row": row, "secret": secret,
                         "cards": nplayers * (row + secret)}),
                rule="deck-too-small", column="players")

    # ---- a deal

    def new_deal(self, setup: DealSetup, options: dict) -> RowState:
        n, dealer, row, secret, hands, secrets, stock = self._deal(setup, options)
        return RowState(n, dealer, row, secret, list(map(list, hands)),
                        list(map(list, secrets)), stock[::-1])

    def _deal(self, setup: DealSetup, options: dict) -> tuple:
        """The checks of :meth:`new_deal`; the deal as ``(nplayers, dealer, row,
        secret, hands, secrets, stock)``, the setup's own lists (not to be changed:
        the caller copies what it plays with) and ``[]`` per seat for no secrets."""
        row, secret = self._shape(options)
        n = setup.nplayers
        if not self.min_players <= n <= self.max_players or n * (row + secret) >= 52:
            self._check_table(n, row, secret)
        dealer = setup.dealer
        if type(dealer) is not int or not 0 <= dealer < n:
            raise RecordError(dealer_not_a_seat(n, quoted(dealer)), rule="dealer", column="dealer")
        hands = setup.hands
        if hands is None:
            raise RecordError(Message(N_("the record gives no hands (each seat's row)")),
                              rule="hand-size", column="hands")
        if len(hands) != n:
            raise RecordError(Message(N_("the hands name %(count)s seats; the table has %(n)s"),
                                      {"count": len(hands), "n": n}),
                              rule="hand-size", column="hands")
        if set(map(len, hands)) != {row}:  # the loop names the first seat that is wrong
            for seat, hand in enumerate(hands):
                if len(hand) != row:
                    raise RecordError(
                        Message(N_("%(seat)s's row has %(count)s cards; %(game)s deals %(row)s "
                                   "(row=%(row)s)"),
                                {"seat": seat_words(seat), "count": len(hand), "game": self.id,
                                 "row": row}), rule="hand-size", column="hands")
        secrets = setup.secrets
        if secrets is None:
            if secret:
                raise RecordError(
                    Message(N_("each seat needs %(n)s secret card after '|' (secret=%(n)s)")
                            if secret == 1 else
                            N_("each seat needs %(n)s secret cards after '|' (secret=%(n)s)"),
                            {"n": secret}), rule="secret-size", column="hands")
            secrets = [[]] * n
        elif len(secrets) != n:
            raise RecordError(Message(N_("the secret cards name %(count)s seats; the table has "
                                         "%(n)s"), {"count": len(secrets), "n": n}),
                              rule="secret-size", column="hands")
        elif set(map(len, secrets)) != {secret}:  # the loop names the seat
            for seat, cards in enumerate(secrets):
                if len(cards) != secret:
                    raise RecordError(
                        Message(N_("%(seat)s has %(count)s secret cards after '|'; %(game)s deals "
                                   "%(secret)s (secret=%(secret)s)"),
                                {"seat": seat_words(seat), "count": len(cards), "game": self.id,
                                 "secret": secret}), rule="secret-size", column="hands")
        stock = setup.stock or []
        # The hands and secrets have their sizes: the count is theirs plus the stock's.
        if n * (row + secret) + len(stock) != 52:
            self._deck_error(hands, secrets, stock)
        try:  # cards as bytes: see _DEALT
            dealt = bytes(chain(*hands, *secrets, stock))
        except Exception:  # not all ints 0-255: the careful way
            dealt = None
        if (_DECK_BYTES.translate(bytes.maketrans(dealt, _DEALT)) != _DEALT
                if dealt is not None and len(dealt) == 52
                else set(chain(*hands, *secrets, stock)) != _DECK_SET):
            self._deck_error(hands, secrets, stock)
        return n, dealer, row, secret, hands, secrets, stock

    @staticmethod
    def _deck_error(hands, secrets, stock) -> None:
        """Say which card is wrong: not a card, twice, or missing."""
        seen: dict[int, Message] = {}
        places = [(Message(N_("%(seat)s's row"), {"seat": seat_words(s)}), "hands", h)
                  for s, h in enumerate(hands)]
        places += [(Message(N_("%(seat)s's secret cards"), {"seat": seat_words(s)}), "hands", c)
                   for s, c in enumerate(secrets)]
        places.append((Message(N_("the stock")), "stock", stock))
        for where, column, cards in places:
            for card in cards:
                if type(card) is not int or not 0 <= card < 52:
                    raise RecordError(Message(N_("%(card)s in %(where)s is not a card"),
                                              {"card": quoted(card), "where": where}),
                                      rule="not-a-card", column=column)
                if card in seen:
                    raise RecordError(
                        Message(N_("%(card)s is dealt twice: in %(first)s and in %(where)s"),
                                {"card": Card(card), "first": seen[card], "where": where}),
                        rule="duplicate-card", column=column)
                seen[card] = where
        missing = Cards(c for c in range(52) if c not in seen)  # named where shown
        raise RecordError(Message(N_("every card must be dealt once; missing: %(cards)s"),
                                  {"cards": missing}),
                          rule="missing-card", column="stock")

    def to_move(self, state: RowState) -> int | None:
        return state.seat if state.stock else None

    def is_over(self, state: RowState) -> bool:
        # The deal ends once the turn that drew the last stock card is complete;
        # a pile turn never empties the stock, so "stock empty" is exactly that.
        return not state.stock

    def legal_moves(self, state: RowState) -> list[int]:
        if not state.stock:
            return []
        moves = list(_STOCK_MOVES[state.row])
        if state.pile:  # empty only before the first turn
            moves.extend(_PILE_MOVES[state.row])
        return moves

    def play(self, state: RowState, move: int) -> None:
        stock = state.stock
        if not stock:
            raise IllegalMove("deal-over", Message(N_("the deal is over: the last stock card has "
                                                      "been drawn")))
        row = state.row
        k = move >> 1
        if k > row:
            raise IllegalMove("swap-count", Message(
                N_("a turn swaps 0 to %(row)s positions (the row has %(row)s); %(move)s swaps %(k)s"),
                {"row": row, "move": _format(move), "k": k}))
        seat = state.seat
        pile = state.pile
        if move & 1:
            if not pile:  # empty only before the first turn
                raise IllegalMove("pile-first-turn", Message(
                    N_("the deal's first turn draws from the stock: the discard pile is empty")))
            state.moves += 1
            card = pile.pop()
            if card in ZERO_CARDS:
                state.events.append(self._zero_event(state.moves, seat, card))
        else:
            state.moves += 1
            card = stock.pop()
        if k:
            cards = state.rows[seat]
            cards.insert(0, card)
            card = cards.pop(k)
            state.known[seat] |= (1 << k) - 1
        pile.append(card)
        seat += 1
        state.seat = 0 if seat == state.nplayers else seat

    # ---- the replay page

    def replay_steps(self, setup: DealSetup, tokens, options: dict) -> ReplaySteps:
        """The rows as dealt, then turn by turn: the card taken from the stock or
        the discard pile, the positions swapped, the card discarded and the seat's
        row after the turn; the rows at the end."""
        state = self.new_deal(setup, options)
        steps = ReplaySteps("turns", hands=[list(h) for h in setup.hands or []],  # positions
                            secrets=[list(s) for s in setup.secrets] if setup.secrets else None)
        turns = []
        for number, token in enumerate(tokens, 1):
            move = self.parse_move(token)
            from_pile = bool(move & 1)
            seat = self.to_move(state)
            source = state.pile if from_pile else state.stock
            drawn = source[-1] if source else None
            self.play(state, move)
            turns.append(Turn(number, seat, "pile" if from_pile else "stock", drawn, move >> 1,
                              state.pile[-1] if state.pile else None, list(state.rows[seat]),
                              self.format_move(move)))
        steps.steps = turns
        steps.final_rows = [list(r) for r in state.rows]
        self.finish_steps(state, steps, options, lambda move: move - 1)
        return steps

    def note(self, event: DealEvent, steps: ReplaySteps, options: dict) -> Note:
        if event.kind == "zero-taken" and event.seat is not None and 0 < event.move <= len(steps.steps):
            return Note(event.move, event.seat, event.kind, Message(
                N_("%(player)s takes %(card)s (0 points) from the discard pile"),
                {"player": Seat(event.seat), "card": Card(steps.steps[event.move - 1].drawn)}))
        return super().note(event, steps, options)

    @staticmethod
    def _zero_event(move: int, seat: int, card: int) -> DealEvent:
        return DealEvent(move, seat, "zero-taken",
                         f"{seat_text(seat)} takes {CARD_NAMES[card]} (0 points) from the discard pile")

    def outcome(self, state: RowState) -> DealOutcome:
        return _outcome(state.rows, state.secrets if state.secret else None, state.events,
                        state.moves)

    # ---- replay: the hot path

    def replay(self, setup: DealSetup, tokens, options: dict) -> DealOutcome:
        """:meth:`Game.replay`, inlined for valid records.

        The loop below only handles what is legal. A doubtful record goes whole
        to the generic move-by-move replay, which raises the error with its
        position: a token not in the table of this row's turns (a lenient
        spelling, a swap longer than the row), a first turn from the pile (the
        pile is empty only then), a stock turn with the stock empty, or a record
        that does not end with the turn that draws the last stock card.
        """
        n, dealer, row, secret, hands, secrets, stock = self._deal(setup, options)
        try:
            moves = list(map(_ROW_TOKENS[row].__getitem__, tokens))
        except (KeyError, TypeError):
            moves = None
        if moves and moves[0] < _PILE:
            rows = list(map(list, hands))
            first = (dealer + 1) % n
            stock = stock[::-1]  # top last
            draw = stock.pop
            zero = ZERO_CARDS
            events: list[DealEvent] = []
            # Only the pile's top card is ever taken (every turn ends with a
            # discard), so the pile is that one card.
            top = -1
            try:
                for number, move, cards in zip(count(1), moves,
                                               cycle(rows[first:] + rows[:first])):
                    if move < _PILE:  # S<move>
                        card = draw()  # IndexError once the stock is empty
                    else:  # D<move - _PILE>
                        card = top
                        move -= _PILE
                        if card in zero:
                            events.append(self._zero_event(number, (first + number - 1) % n,
                                                           card))
                    if move:  # swap `move` positions
                        cards.insert(0, card)
                        card = cards.pop(move)
                    top = card
            except IndexError:
                pass
            else:
                if not stock and moves[-1] < _PILE:
                    return _outcome(rows, secrets if secret else None, events, len(moves))
        return Game.replay(self, setup, tokens, options)

    # ---- notation

    def parse_move(self, token: str) -> int:
        try:
            move = _TOKENS.get(token)
        except TypeError:  # unhashable (a list): no token, said below
            move = None
        if move is not None:
            return move
        text = token.strip() if isinstance(token, str) else ""
        # At most 3 digits: no row is longer, and int() of a huge digit string raises
        # (Python's max-str-digits) rather than saying "not a turn".
        if (2 <= len(text) <= 4 and text[0] in "SDsd" and text[1:].isascii()
                and text[1:].isdigit()):
            return 2 * int(text[1:]) + (text[0] in "Dd")
        raise IllegalMove("notation", Message(
            N_("not a turn: %(token)s (a turn is S or D, then the number of positions swapped, "
               "e.g. S3 or D0)"), {"token": quoted(token)}))

    def format_move(self, move: int) -> str:
        return _format(move)

    # ---- score sheets

    def check_score_sheet(self, setup: DealSetup, scores: list, options: dict) -> DealOutcome:
        row, secret = self._shape(options)
        n = setup.nplayers if setup is not None and setup.nplayers else len(scores)
        self._check_table(n, row, secret)
        if len(scores) != n:
            raise IllegalMove("score-sheet-count", Message(
                N_("%(count)s scores for a table of %(n)s seats"), {"count": len(scores), "n": n}))
        per_seat = row + secret
        reachable = _REACHABLE[per_seat]
        low, high = min(reachable), max(reachable)
        cards = Message(N_("%(n)s card") if per_seat == 1 else N_("%(n)s cards"), {"n": per_seat})
        for seat, score in enumerate(scores):
            if type(score) is not int:
                raise IllegalMove("score-sheet-value", Message(
                    N_("score %(score)s is not a whole number"), {"score": quoted(score)}), seat=seat)
            if not low <= score <= high:
                raise IllegalMove("score-sheet-range", Message(
                    N_("score %(score)s: in %(game)s a seat's %(cards)s (row=%(row)s, "
                       "secret=%(secret)s) are worth %(low)s to %(high)s"),
                    {"score": score, "game": self.id, "cards": cards, "row": row,
                     "secret": secret, "low": low, "high": high}), seat=seat)
            if score not in reachable:
                raise IllegalMove("score-sheet-range", Message(
                    N_("score %(score)s: no %(cards)s of the deck are worth %(score)s together"),
                    {"score": score, "cards": cards}), seat=seat)
        # Seats hold distinct cards: any j seats together hold j * per_seat cards.
        ordered = sorted(range(n), key=lambda s: scores[s])
        for j in range(2, n + 1):
            top = ordered[n - j:]
            most = sum(_VALUES_DESC[:j * per_seat])
            together = sum(scores[s] for s in top)
            if together > most:
                raise IllegalMove("score-sheet-total", self._total_message(
                    top, together, j * per_seat, True, most))
            bottom = ordered[:j]
            least = sum(_VALUES_ASC[:j * per_seat])
            together = sum(scores[s] for s in bottom)
            if together < least:
                raise IllegalMove("score-sheet-total", self._total_message(
                    bottom, together, j * per_seat, False, least))
        return DealOutcome(scores=list(scores), places=places_from_scores(scores),
                           verified="scores", events=[], moves=0)

    def _total_message(self, seats, together, ncards, at_most: bool, value) -> Message:
        return Message(N_("seats %(seats)s score %(together)s together; their %(ncards)s distinct "
                          "cards are worth at most %(value)s in %(game)s") if at_most else
                       N_("seats %(seats)s score %(together)s together; their %(ncards)s distinct "
                          "cards are worth at least %(value)s in %(game)s"),
                       {"seats": seat_numbers(sorted(seats)), "together": together,
                        "ncards": ncards, "value": value, "game": self.id})

    # ---- bots

    def random_setup(self, nplayers: int, dealer: int | None, deal_number: int,
                     options: dict, rng: random.Random) -> DealSetup:
        row, secret = self._shape(options)
        self._check_table(nplayers, row, secret)
        deck = list(range(52))
        rng.shuffle(deck)
        hands = [deck[s * row:(s + 1) * row] for s in range(nplayers)]
        used = nplayers * row
        secrets = None
        if secret:
            secrets = [deck[used + s * secret:used + (s + 1) * secret] for s in range(nplayers)]
            used += nplayers * secret
        if dealer is None:
            dealer = rng.randrange(nplayers)
        return DealSetup(nplayers=nplayers, dealer=dealer, hands=hands, secrets=secrets,
                         stock=deck[used:], deal_number=deal_number)

    def choose_move(self, state: RowState, rng: random.Random, skill: float = 1.0) -> int:
        if rng.random() < skill:
            return self._heuristic_move(state)
        return rng.choice(self.legal_moves(state))

    @staticmethod
    def _heuristic_move(state: RowState) -> int:
        """A turn chosen from what the seat knows.

        Every position the seat has not seen counts as an average card. The card in
        hand goes along the row while some position still ahead is (or is expected
        to be) worth more than it; once the card in hand is the worst in sight, it
        is discarded. A turn swapping ``k`` positions in effect replaces the card
        that was at position ``k`` by the card first taken, so this keeps taking out
        the worst card the seat can find. The pile's top card is taken when it is
        below average and below the worst position in sight.
        """
        seat = state.seat
        cards = state.rows[seat]
        known = state.known[seat]
        row = state.row
        estimate = [POINTS[cards[p]] if known >> p & 1 else _UNSEEN_VALUE
                    for p in range(row)]
        # worst_ahead[p]: the worst estimate among positions p..row-1
        worst_ahead = estimate[:]
        for p in range(row - 2, -1, -1):
            worst_ahead[p] = max(worst_ahead[p], worst_ahead[p + 1])
        source = 0
        pile = state.pile
        # The move cap keeps two bots from trading pile cards for ever.
        if pile and state.moves < 200:
            top = POINTS[pile[-1]]
            if top < _UNSEEN_VALUE and top < worst_ahead[0]:
                source = 1
        hand = POINTS[pile[-1]] if source else POINTS[state.stock[-1]]
        k = 0
        while k < row and hand < worst_ahead[k]:
            hand = POINTS[cards[k]]  # the card swapped out: now seen
            k += 1
        return 2 * k + source


KORTRAD = RowGame(
    "kortrad", "Dam med kortrad (Korpen)", 2, 4, row=6, secret=1,
    title=N_("Dam med kortrad (Korpen)"),
    tagline=N_("Each player improves a row of face-down cards by swapping in cards from "
               "the stock or the discard pile; the lowest points win."))
KORTRAD.summary = (
    "Each seat has a face-down row of 6 cards and 1 secret card. On a turn, take the top "
    "card of the stock or of the discard pile, then either discard it or swap it into the "
    "next row position (from position 1 on) and go on with the card taken from there. The "
    "deal ends with the turn that draws the last stock card. Score: the row and the secret "
    "card (queens and the king of hearts 0, ace 1, 2-10 face value, jack 11, other kings "
    "13). Lowest total wins.")
"""``kortrad``: 2-4 players, a row of six and one secret card."""

SJU_DOLDA = RowGame(
    "sju-dolda", "Dam med sju dolda kort", 2, 6, row=7, secret=0,
    title=N_("Dam med sju dolda kort"),
    tagline=N_("Each player improves a row of seven face-down cards by swapping in cards "
               "from the stock or the discard pile; the lowest points win."))
SJU_DOLDA.summary = (
    "Each seat has a face-down row of 7 cards. On a turn, take the top card of the stock "
    "or of the discard pile, then either discard it or swap it into the next row position "
    "(from position 1 on) and go on with the card taken from there. The deal ends with the "
    "turn that draws the last stock card. Score: the row's points (queens and the king of "
    "hearts 0, ace 1, 2-10 face value, jack 11, other kings 13). Lowest total wins.")
"""``sju-dolda``: 2-6 players, a row of seven and no secret card."""

__all__ = [
    "KORTRAD",
    "POINTS",
    "SJU_DOLDA",
    "ZERO_CARDS",
    "RowGame",
    "RowState",
    "card_points",
    "cards_points",
]
