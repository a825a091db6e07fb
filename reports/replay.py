"""Deal replays: a stored deal (canonical record text, the ``Deal`` table) turned into
a step-by-step view for the replay pages, by replaying it through its engine.

:func:`build_replay` gives a :class:`ReplayView` whose ``kind`` says how the deal is
shown:

- ``tricks`` (``dam-stick``, ``spardame``): the hands as dealt, the passes and the
  hands after passing, then trick by trick: who led, each seat's card, who won and
  the cards that count;
- ``exchanges`` (``svarta-maja``): the trump indicator, then exchange by exchange:
  attacker and defender, each attack card with the card that beat it or "taken",
  and every seat's hand after the exchange;
- ``turns`` (``kortrad``, ``sju-dolda``): the rows as dealt, then turn by turn: the
  card taken from the stock or the discard pile, the positions swapped, the card
  discarded, and the seat's row after the turn;
- ``board`` (``dam-brade``): every move with the 8x8 position after it;
- ``moves``: the plain list of moves, the fallback when a view cannot be built (an
  engine that changed shape); the page still shows the deal and its scores.

Only the engine interface is needed for the moves (``new_deal``, ``to_move``,
``parse_move``, ``play``, ``outcome``); what a step shows beyond the move (hands
after an exchange, a row after a turn, the board) is read from the engine's state
object, each read guarded so that a state that changed shape degrades to ``moves``
instead of failing a publish.

Rule-relevant events (:class:`~tourney.engines.base.DealEvent`: queen taken, moon,
huff, crowning...) become :class:`EventView`: a catalogue message chosen by the
event's ``kind`` with the player's name and cards filled in, so pages translate
them; a kind this module does not know shows the engine's English text with "seat
N" replaced by the player's name.

Score-sheet deals (``verified == "scores"``) have no moves and get no replay
(:func:`build_replay` returns a view with ``kind="score-sheet"``).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from tourney.cards import CARD_NAMES, HEARTS, QS, QUEEN, cards_of
from tourney.engines import get_game
from tourney.engines.base import DealOutcome, Game
from tourney.errors import TourneyError
from tourney.records.csv_format import DealRecord, parse_row

from .i18n import N_

# ------------------------------------------------------------------------ view data

@dataclass
class EventView:
    """One rule-relevant event, ready for a template: ``_(message, **params)``."""

    move: int
    seat: int | None
    kind: str
    message: str  # a catalogue msgid, or the engine's English text for unknown kinds
    params: dict = field(default_factory=dict)
    translate: bool = True


@dataclass
class Trick:
    number: int
    leader: int
    cards: list  # per seat: the card played, or None
    order: list[int]  # seats in playing order
    winner: int
    counting: list[int]  # the cards of the trick that score (queens; hearts and QS)
    events: list[EventView] = field(default_factory=list)


@dataclass
class Exchange:
    number: int
    attacker: int
    defender: int | None
    pairs: list[tuple[int, int | None]]  # (attack card, the card that beat it or None)
    hands_after: list[list[int]] | None
    stock_left: int | None
    events: list[EventView] = field(default_factory=list)

    @property
    def taken(self) -> list[int]:
        return [a for a, b in self.pairs if b is None]


@dataclass
class Turn:
    number: int
    seat: int
    source: str  # "stock" or "pile"
    drawn: int | None
    swapped: int
    discarded: int | None
    row_after: list[int] | None
    token: str
    events: list[EventView] = field(default_factory=list)


@dataclass
class Ply:
    number: int
    side: int | None
    token: str
    kind: str  # "step", "capture", "huff", "result"
    squares: tuple[int, ...]
    board: list[list[str]] | None  # 8 rows of 8 cells: "" light, "." empty, b w B W
    events: list[EventView] = field(default_factory=list)


@dataclass
class Move:
    number: int
    seat: int | None
    token: str


@dataclass
class ReplayView:
    variant: str
    kind: str  # tricks, exchanges, turns, board, moves, score-sheet
    players: list[str]
    dealer: int | None
    verified: str
    scores: list[str]
    hands: list[list[int]] | None = None  # as dealt (display order)
    secrets: list[list[int]] | None = None
    stock: list[int] | None = None
    passes: list[list[int]] | None = None
    pass_direction: str | None = None
    received: list[list[int]] | None = None  # hands after passing
    trump: int | None = None  # svarta-maja: the indicator card
    steps: list = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    events: list[EventView] = field(default_factory=list)
    places: list[int] | None = None
    final_rows: list[list[int]] | None = None
    sampled: bool = False  # dam-brade: boards shown for a selection of plies only
    error: str | None = None

    @property
    def nplayers(self) -> int:
        return len(self.players)


# ------------------------------------------------------------------------ messages

EVENT_MESSAGES: dict[str, str] = {
    "queen-taken": N_("%(player)s takes the %(cards)s in trick %(trick)s"),
    "queens-set-aside": N_("Set aside unseen: %(cards)s"),
    "moon": N_("%(player)s takes every heart and the queen of spades: shoots the moon"),
    "jd-bonus": N_("%(player)s took the jack of diamonds: bonus"),
    "no-trick": N_("%(player)s took no trick: bonus"),
    "out": N_("%(player)s is out"),
    "lost": N_("%(player)s is left with the queen of spades and loses the deal"),
    "zero-taken": N_("%(player)s takes %(card)s (0 points) from the discard pile"),
    "secret-decides": N_("The secret cards change the order of the players"),
    "crowned": N_("%(player)s crowns a king on %(square)s"),
    "multi-capture": N_("%(player)s captures %(count)s pieces in one move"),
    "huff": N_("%(player)s huffs the piece on %(square)s: a capture was skipped"),
    "draw-agreed": N_("Drawn by agreement"),
    "resigned": N_("%(player)s resigns"),
    "draw-lone-kings": N_("Drawn: each side has one king only"),
    "won": N_("%(player)s wins"),
}
MAJA_QUEEN_TAKEN = N_("%(player)s takes the queen of spades")

_SEAT_WORDS = re.compile(r"\bseat (\d+)")
_SQUARES = re.compile(r"\b(\d{1,2})\b")


def _fallback_event(ev, players: Sequence[str]) -> EventView:
    def name(match: re.Match) -> str:
        seat = int(match.group(1))
        return players[seat] if 0 <= seat < len(players) else match.group(0)

    return EventView(ev.move, ev.seat, ev.kind, _SEAT_WORDS.sub(name, ev.text), {}, False)


# ------------------------------------------------------------------------ parsing

def deal_record(number: int, players: str, dealer: str | None, hands: str, stock: str,
                passes: str, play: str, scores: str) -> DealRecord:
    """A stored deal (the ``Deal`` table's text columns) as a record."""
    return parse_row({
        "round": "1", "table": "1", "deal": str(number), "players": players,
        "dealer": dealer or "", "hands": hands or "", "stock": stock or "",
        "passes": passes or "", "play": play or "", "scores": scores or "",
    }, 0)


def display_hand(cards: Sequence[int]) -> list[int]:
    """Cards in the order a player holds them: spades, hearts, diamonds, clubs,
    high to low within a suit."""
    return sorted(cards, key=lambda c: (c // 13, -(c % 13)))


# ------------------------------------------------------------------------ building

def build_replay(variant: str, options: dict, number: int, players: str,
                 dealer: str | None, hands: str, stock: str, passes: str, play: str,
                 scores: str, verified: str = "moves") -> ReplayView:
    """The replay view of one stored deal.

    Never raises for a bad or surprising deal: the view's ``error`` says what went
    wrong and ``moves`` still lists the record's moves.
    """
    seat_names = players.split(";")
    score_list = scores.split(";") if scores else []
    try:
        record = deal_record(number, players, dealer, hands, stock, passes, play, scores)
    except TourneyError as err:
        return ReplayView(variant, "moves", seat_names, None, verified, score_list,
                          error=str(err))
    view = ReplayView(variant, "moves", record.players, record.dealer_seat(), verified,
                      score_list, stock=record.stock, passes=record.passes)
    if verified == "scores" or not record.play:
        view.kind = "score-sheet"
        return view
    try:
        game = get_game(variant)
    except TourneyError as err:
        view.error = str(err)
        view.moves = [Move(i, None, t) for i, t in enumerate(record.play, 1)]
        return view
    builder = _BUILDERS.get(variant, _build_moves)
    try:
        builder(game, options, record, view)
    except TourneyError as err:  # a record the engine no longer accepts
        view.error = str(err)
        _build_moves(game, options, record, view, keep_error=True)
    except (AttributeError, TypeError, IndexError, KeyError, ValueError):
        # The state object changed shape: show the moves only.
        _build_moves(game, options, record, view)
    return view


def _play(game: Game, state, token: str):
    move = game.parse_move(token)
    seat = game.to_move(state)
    game.play(state, move)
    return move, seat


def _finish(game: Game, state, view: ReplayView, event_view) -> DealOutcome | None:
    """Outcome, places and events; the events attached to their steps."""
    outcome = game.outcome(state)
    view.places = list(outcome.places)
    if not view.scores:
        view.scores = [game.format_score(s) for s in outcome.scores]
    for ev in outcome.events:
        shown = event_view(ev)
        view.events.append(shown)
    return outcome


def _attach(view: ReplayView, step_of_move) -> None:
    """Put each event on the step it happened in (by its move number)."""
    if not view.steps:
        return
    for ev in view.events:
        index = step_of_move(ev.move)
        if index is not None and 0 <= index < len(view.steps):
            view.steps[index].events.append(ev)


# ---- fallback: the moves only

def _build_moves(game: Game, options: dict, record: DealRecord, view: ReplayView,
                 keep_error: bool = False) -> None:
    view.kind = "moves"
    view.steps = []
    view.events = []
    view.moves = []
    view.hands = record.hands
    view.secrets = record.secrets
    seat: int | None = None
    try:
        state = game.new_deal(record.setup(), options)
    except TourneyError as err:
        if not keep_error:
            view.error = str(err)
        state = None
    for number, token in enumerate(record.play or [], 1):
        if state is not None:
            try:
                seat = game.to_move(state)
                game.play(state, game.parse_move(token))
            except Exception:  # noqa: BLE001 - the page shows the moves regardless
                state, seat = None, None
        view.moves.append(Move(number, seat, token))


# ---- trick games

def _counting_cards(variant: str, cards: Sequence[int]) -> list[int]:
    if variant == "dam-stick":
        return [c for c in cards if c % 13 == QUEEN]
    return [c for c in cards if c // 13 == HEARTS or c == QS]


def _build_tricks(game: Game, options: dict, record: DealRecord, view: ReplayView) -> None:
    n = len(record.players)
    setup = record.setup()
    state = game.new_deal(setup, options)
    view.kind = "tricks"
    view.hands = [display_hand(h) for h in record.hands or []]
    if record.passes is not None:
        view.passes = [display_hand(p) for p in record.passes]
    direction = getattr(state, "direction", None)
    view.pass_direction = direction if isinstance(direction, str) else None
    start = getattr(state, "start_hands", None)
    if record.passes and any(record.passes) and start is not None:
        view.received = [display_hand(cards_of(mask)) for mask in start]
    tricks: list[Trick] = []
    current: Trick | None = None
    for token in record.play or []:
        card, seat = _play(game, state, token)
        if current is None:
            current = Trick(len(tricks) + 1, seat, [None] * n, [], -1, [])
        current.cards[seat] = card
        current.order.append(seat)
        if len(current.order) == n:
            winners = getattr(state, "winners", None)
            if isinstance(winners, list) and len(winners) >= current.number:
                current.winner = winners[current.number - 1]
            else:  # no trumps: the highest card of the suit led
                led = current.cards[current.leader] // 13
                current.winner = max((c, s) for s, c in enumerate(current.cards)
                                     if c is not None and c // 13 == led)[1]
            played = [current.cards[s] for s in current.order]
            current.counting = _counting_cards(view.variant, played)
            tricks.append(current)
            current = None
    view.steps = tricks

    named: dict[int, int] = {}  # trick number -> queens already named by an event

    def event_view(ev) -> EventView:
        message = EVENT_MESSAGES.get(ev.kind)
        player = record.players[ev.seat] if ev.seat is not None and ev.seat < n else ""
        if ev.kind == "queen-taken" and 0 < ev.move <= len(tricks) * n and player:
            # One event per queen: the k-th event of a trick names its k-th queen.
            trick = tricks[(ev.move - 1) // n]
            queens = [c for c in trick.counting if c % 13 == QUEEN]
            if view.variant == "spardame":
                queens = [c for c in queens if c == QS]
            k = named.get(trick.number, 0)
            if k < len(queens) and trick.winner == ev.seat:
                named[trick.number] = k + 1
                return EventView(ev.move, ev.seat, ev.kind, message,
                                 {"player": player, "cards": [queens[k]], "trick": trick.number})
        if ev.kind == "queens-set-aside":
            aside = [c for c in (record.stock or []) if c % 13 == QUEEN]
            return EventView(ev.move, ev.seat, ev.kind, message, {"cards": aside})
        if ev.kind in ("moon", "jd-bonus", "no-trick") and player:
            return EventView(ev.move, ev.seat, ev.kind, message, {"player": player})
        return _fallback_event(ev, record.players)

    _finish(game, state, view, event_view)
    _attach(view, lambda move: (move - 1) // n if move > 0 else None)


# ---- svarta-maja

def _build_exchanges(game: Game, options: dict, record: DealRecord, view: ReplayView) -> None:
    n = len(record.players)
    state = game.new_deal(record.setup(), options)
    view.kind = "exchanges"
    view.hands = [display_hand(h) for h in record.hands or []]
    view.trump = record.stock[-1] if record.stock else None
    exchanges: list[Exchange] = []
    for number, token in enumerate(record.play or [], 1):
        defender = getattr(state, "defender", None)
        (attack, answers), attacker = _play(game, state, token)
        pairs = [(a, b if b is not None and b >= 0 else None) for a, b in zip(attack, answers)]
        hands_after = [display_hand(state.hand(s)) for s in range(n)]
        stock_left = len(state.stock_left())
        exchanges.append(Exchange(number, attacker, defender, pairs, hands_after, stock_left))
    view.steps = exchanges

    def event_view(ev) -> EventView:
        player = record.players[ev.seat] if ev.seat is not None and ev.seat < n else ""
        if not player:
            return _fallback_event(ev, record.players)
        if ev.kind == "queen-taken":
            return EventView(ev.move, ev.seat, ev.kind, MAJA_QUEEN_TAKEN, {"player": player})
        if ev.kind in ("out", "lost"):
            return EventView(ev.move, ev.seat, ev.kind, EVENT_MESSAGES[ev.kind],
                             {"player": player})
        return _fallback_event(ev, record.players)

    _finish(game, state, view, event_view)
    _attach(view, lambda move: move - 1 if move > 0 else None)


# ---- row games

def _build_turns(game: Game, options: dict, record: DealRecord, view: ReplayView) -> None:
    n = len(record.players)
    state = game.new_deal(record.setup(), options)
    view.kind = "turns"
    view.hands = [list(h) for h in record.hands or []]  # positions: never re-sorted
    view.secrets = [list(s) for s in record.secrets] if record.secrets else None
    turns: list[Turn] = []
    for number, token in enumerate(record.play or [], 1):
        move = game.parse_move(token)
        from_pile = bool(move & 1)
        seat = game.to_move(state)
        drawn = state.pile[-1] if from_pile and state.pile else (
            state.stock[-1] if state.stock else None)
        game.play(state, move)
        turns.append(Turn(number, seat, "pile" if from_pile else "stock", drawn, move >> 1,
                          state.pile[-1] if state.pile else None, list(state.rows[seat]),
                          game.format_move(move)))
    view.steps = turns
    view.final_rows = [list(r) for r in state.rows]

    def event_view(ev) -> EventView:
        player = record.players[ev.seat] if ev.seat is not None and ev.seat < n else ""
        if ev.kind == "zero-taken" and player and 0 < ev.move <= len(turns):
            return EventView(ev.move, ev.seat, ev.kind, EVENT_MESSAGES[ev.kind],
                             {"player": player, "card": turns[ev.move - 1].drawn})
        if ev.kind == "secret-decides":
            return EventView(ev.move, ev.seat, ev.kind, EVENT_MESSAGES[ev.kind], {})
        return _fallback_event(ev, record.players)

    _finish(game, state, view, event_view)
    _attach(view, lambda move: move - 1 if move > 0 else None)


# ---- dam-brade

# Games up to this many plies show the board after every ply; longer ones (a bot
# game can run to hundreds of quiet moves) after every capture, huff and crowning,
# every BOARD_SAMPLE_EVERY-th ply and the last ply: a page stays readable and small.
BOARD_EVERY_PLY_LIMIT = 160
BOARD_SAMPLE_EVERY = 20


def board_cells(state) -> list[list[str]]:
    """The board as 8 rows of 8 cells, Black's back row (squares 1-4) first: ``""``
    a light square, ``"."`` an empty dark one, ``b``/``w`` men, ``B``/``W`` kings."""
    cells = [["" for _ in range(8)] for _ in range(8)]
    for r in range(8):
        for c in range(8):
            if (r + c) % 2:
                cells[r][c] = "."
    for side, letter in ((0, "b"), (1, "w")):
        for kings, code in ((False, letter), (True, letter.upper())):
            for square in state.squares(side, kings=kings):
                r, i = divmod(square - 1, 4)
                cells[r][2 * i + (1 - r % 2)] = code
    return cells


def square_at(row: int, col: int) -> int | None:
    """The notation square (1-32) of a board cell, ``None`` for a light square."""
    if (row + col) % 2 == 0:
        return None
    return row * 4 + col // 2 + 1


def _build_board(game: Game, options: dict, record: DealRecord, view: ReplayView) -> None:
    state = game.new_deal(record.setup(), options)
    view.kind = "board"
    tokens = record.play or []
    every = len(tokens) <= BOARD_EVERY_PLY_LIMIT
    view.sampled = not every
    plies: list[Ply] = [Ply(0, None, "", "start", (), board_cells(state))]
    kings = 0
    for number, token in enumerate(tokens, 1):
        move, side = _play(game, state, token)
        kind = {"-": "step", "x": "capture", "H": "huff", "R": "result"}.get(move[0], "step")
        squares = tuple(s for s in move[1:] if isinstance(s, int))
        board = None
        if kind != "result":
            now_kings = len(state.squares(0, kings=True)) + len(state.squares(1, kings=True))
            if (every or kind != "step" or now_kings != kings or number % BOARD_SAMPLE_EVERY == 0
                    or number >= len(tokens) - 1):
                board = board_cells(state)
            kings = now_kings
        plies.append(Ply(number, side, game.format_move(move), kind, squares, board))
    view.steps = plies
    n = len(record.players)

    def event_view(ev) -> EventView:
        player = record.players[ev.seat] if ev.seat is not None and ev.seat < n else ""
        message = EVENT_MESSAGES.get(ev.kind)
        ply = plies[ev.move] if 0 < ev.move < len(plies) else None
        if ev.kind in ("draw-agreed", "draw-lone-kings"):
            return EventView(ev.move, ev.seat, ev.kind, message, {})
        if not player:
            return _fallback_event(ev, record.players)
        if ev.kind in ("resigned", "won"):
            return EventView(ev.move, ev.seat, ev.kind, message, {"player": player})
        if ev.kind == "crowned" and ply is not None and ply.squares:
            return EventView(ev.move, ev.seat, ev.kind, message,
                             {"player": player, "square": ply.squares[-1]})
        if ev.kind == "huff" and ply is not None and ply.kind == "huff":
            return EventView(ev.move, ev.seat, ev.kind, message,
                             {"player": player, "square": ply.squares[0]})
        if ev.kind == "multi-capture" and ply is not None and ply.kind == "capture":
            return EventView(ev.move, ev.seat, ev.kind, message,
                             {"player": player, "count": len(ply.squares) - 1})
        return _fallback_event(ev, record.players)

    _finish(game, state, view, event_view)
    # A ply's number is its index in ``plies`` (0 is the opening position).
    _attach(view, lambda move: move if move > 0 else None)


_BUILDERS = {
    "dam-stick": _build_tricks,
    "spardame": _build_tricks,
    "svarta-maja": _build_exchanges,
    "kortrad": _build_turns,
    "sju-dolda": _build_turns,
    "dam-brade": _build_board,
}


def card_code(card: int) -> str:
    return CARD_NAMES[card]


__all__ = [
    "EVENT_MESSAGES",
    "EventView",
    "Exchange",
    "Move",
    "Ply",
    "ReplayView",
    "Trick",
    "Turn",
    "board_cells",
    "build_replay",
    "deal_record",
    "display_hand",
    "square_at",
]
