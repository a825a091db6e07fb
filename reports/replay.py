"""Deal replays: a stored deal (canonical record text, the ``Deal`` table) turned into
the view of its replay page.

The engine tells the deal step by step (:meth:`Game.replay_steps
<tourney.engines.base.Game.replay_steps>`: tricks, exchanges, row turns, plies, or
a plain move list, with its notes as catalogue messages); this module only adds
what the page needs around the steps (players, dealer, the record's scores) and
says what went wrong when a record cannot be replayed. :func:`build_replay` gives a
:class:`ReplayView` whose ``kind`` is the shape of the steps (and so the page's
template): ``tricks``, ``exchanges``, ``turns``, ``board``, ``moves``, or
``score-sheet`` for a deal without moves.
"""
from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, field

from tourney.engines import get_game
from tourney.engines.presentation import Move, Note, display_hand, square_at
from tourney.errors import TourneyError
from tourney.records.csv_format import DealRecord, parse_row


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
    stock_label: str | None = None  # a msgid: what the stock is ("Set aside unseen:")
    passes: list[list[int]] | None = None
    pass_direction: str | None = None
    received: list[list[int]] | None = None  # hands after passing
    trump: int | None = None  # the trump indicator card
    steps: list = field(default_factory=list)
    moves: list[Move] = field(default_factory=list)
    events: list[Note] = field(default_factory=list)
    places: list[int] | None = None
    final_rows: list[list[int]] | None = None
    sampled: bool = False  # boards shown for a selection of plies only
    error: str | None = None

    @property
    def nplayers(self) -> int:
        return len(self.players)


def deal_record(number: int, players: str, dealer: str | None, hands: str, stock: str,
                passes: str, play: str, scores: str) -> DealRecord:
    """A stored deal (the ``Deal`` table's text columns) as a record."""
    return parse_row({
        "round": "1", "table": "1", "deal": str(number), "players": players,
        "dealer": dealer or "", "hands": hands or "", "stock": stock or "",
        "passes": passes or "", "play": play or "", "scores": scores or "",
    }, 0)


def build_replay(variant: str, options: dict, number: int, players: str,
                 dealer: str | None, hands: str, stock: str, passes: str, play: str,
                 scores: str, verified: str = "moves",
                 shapes: Collection[str] | None = None) -> ReplayView:
    """The replay view of one stored deal. ``shapes``: the step shapes the caller
    can show (``None``: any); steps of another shape are shown as the move list.

    A record the rules refuse (a deal stored before a rule changed, an engine gone)
    does not fail the publish: the view's ``error`` says what went wrong and
    ``moves`` lists the record's moves.
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
    tokens = record.play
    try:
        game = get_game(variant)
    except TourneyError as err:
        view.error = str(err)
        view.moves = [Move(i, None, t) for i, t in enumerate(tokens, 1)]
        return view
    setup = record.setup()
    try:
        steps = game.replay_steps(setup, tokens, options)
    except TourneyError as err:  # a record the engine no longer accepts
        view.error = str(err)
        view.hands, view.secrets = record.hands, record.secrets
        view.moves = game.move_list(setup, tokens, options)
        return view
    view.events = steps.notes
    view.places = steps.places
    if not view.scores and steps.scores is not None:
        view.scores = [game.format_score(s) for s in steps.scores]
    if shapes is not None and steps.kind not in shapes:
        view.moves = game.move_list(setup, tokens, options)
        return view
    view.kind = steps.kind
    view.steps = steps.steps
    view.hands = steps.hands
    view.secrets = steps.secrets
    if steps.passes is not None:
        view.passes = steps.passes
    view.pass_direction = steps.pass_direction
    view.received = steps.received
    view.stock_label = steps.stock_label
    view.trump = steps.trump
    view.final_rows = steps.final_rows
    view.sampled = steps.sampled
    if steps.kind == "moves":
        view.moves = steps.steps
    return view


__all__ = [
    "ReplayView",
    "build_replay",
    "deal_record",
    "display_hand",
    "square_at",
]
