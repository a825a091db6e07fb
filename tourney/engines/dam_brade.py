"""`dam-brade`: Dam, the board game (checkers with the Alga rules); docs/guide/rules.md,
"Dam, the board game".

Squares are numbered 1-32 as in English checkers notation: Black's men start on 1-12
and move towards 32 ("down"), White's start on 21-32 and move towards 1 ("up").
Black moves first. Seat 0 is the game's Black (named first in ``players``), seat 1
White. The "deal" of this game is one game: no dealer, no hands, no stock.

Board representation: a mask per side and one mask of kings, in a "ghost square"
layout (as in Scan and py-draughts): the 4 dark squares of each row take consecutive
bits, with one padding bit after an even row (counted from Black's back row 1-4)
and two after an odd row, 42 bits in all. Every diagonal step is then a shift by 5
or 6 (down: ``+5``, ``+6``; up: ``-5``, ``-6``) and a jump by 10 or 12, whose jumped
square is the midpoint; steps off the side of the board land on padding bits, which
are never occupied and never empty. Whether a side can capture or move at all is a
handful of whole-mask shifts, and a recorded move is checked by index arithmetic, so
replaying a record never generates move lists.

Moves are tuples whose first item names the kind (squares in notation, 1-32):

* ``("-", 11, 15)``: a step;
* ``("x", 15, 24, 31)``: a capture, with every landing square;
* ``("H", 18)``: a huff: the mover removes the opponent's piece on 18;
* ``("R", "1-0")``: a result token (``"1-0"``, ``"0-1"``, ``"1/2-1/2"``).

A game's scores are floats: ``[1.0, 0.0]``, ``[0.0, 1.0]`` or ``[0.5, 0.5]``.

Decisions (the rules are silent or leave them to the engine):

* **Result token after a decided end: optional.** Where the rules decide the game
  (a side without pieces, a side without a legal move, one king each) the record may
  end there or add one result token, which must agree with the position. Where the
  rules do not decide it, a result token is required and any of the three is
  accepted (resignation or agreed draw), at any point, also between a huff and the
  huffer's move. Nothing follows a result token. A record of only a result token is
  a game resigned or drawn unplayed; a record with no token at all is incomplete.
* **"No legal move" is judged before the huff.** A player with no legal step or
  capture at the start of the turn loses, even when the opponent's last move skipped
  a capture (the huff is part of a turn the player no longer has). After a huff the
  huffer always still has a move (removing an opposing piece only frees squares), so
  a huff ends the game only by taking the opponent's last piece or by leaving one
  king against one king.
* **One huff per turn**, only as the first token of the turn right after the
  opponent's step that skipped a capture; the right lapses with the turn's move.
* **``huff=capturer``**: the huffable pieces are those that could have captured in
  the position the offence was made from (after the offender's own huff); the piece
  that moved is huffable on its new square.
* **Jumped pieces stay on the board until the capture ends**: they can be neither
  jumped again nor landed on; the capturing piece's own start square counts as empty
  (a king may come back to it).
* **Legal-move list**: :meth:`DamBrade.legal_moves` lists huffs, steps (also steps
  that skip a possible capture: the rules allow them, at the price of a huff) and
  every capture sequence. Result tokens are always accepted by :meth:`DamBrade.play`
  while the game is on but are not listed (a random bot would resign at random).
* **Setup**: a record names two players and nothing else; a dealer (rule
  ``no-dealer``) or any hand, stock or pass cards (rule ``no-cards``) are refused.
* **Notation leniency**: ``h18``, ``15X24``, an en dash in ``11–15``, surrounding
  blanks, ``½-½`` for ``1/2-1/2``; output is always canonical.
* **Bots**: a simulated game that goes :data:`QUIET_PLY_LIMIT` (100) plies without a
  capture, crowning or huff, or :data:`GAME_PLY_LIMIT` (400) plies in all, is ended
  by the bot to move with an agreed draw, ``1/2-1/2``.
"""
from __future__ import annotations

import math
import random
import re

from ..errors import IllegalMove, OptionError, RecordError
from ..errors.words import quoted
from .base import (
    DealEvent,
    DealOutcome,
    DealSetup,
    Game,
    MatchRules,
    OptionSpec,
    places_from_scores,
)
from .presentation import (
    BOARD_GAME_WORDS,
    N_,
    Message,
    Note,
    Ply,
    ReplaySteps,
    Seat,
    or_words,
)

__all__ = [
    "BLACK",
    "DAM_BRADE",
    "GAME_PLY_LIMIT",
    "QUIET_PLY_LIMIT",
    "RESULT_TOKENS",
    "WHITE",
    "DamBrade",
    "DamBradeState",
    "has_piece_move",
    "jumpers",
    "mask_of",
    "squares_of",
]

BLACK, WHITE = 0, 1
COLOUR_NAMES = ("Black", "White")
# A game's end reasons (DamBradeState.end_reason, English) in words, for the errors
# that name them; built once here, never as a game is played.
_REASON_WORDS = {
    **{f"{COLOUR_NAMES[side]} has no pieces left": Message(
        N_("%(colour)s has no pieces left"), {"colour": Message(COLOUR_NAMES[side])})
       for side in (0, 1)},
    **{f"{COLOUR_NAMES[side]} has no legal move": Message(
        N_("%(colour)s has no legal move"), {"colour": Message(COLOUR_NAMES[side])})
       for side in (0, 1)},
    **{f"{COLOUR_NAMES[side]} resigned": Message(
        N_("%(colour)s resigned"), {"colour": Message(COLOUR_NAMES[side])}) for side in (0, 1)},
    "drawn by agreement": Message(N_("drawn by agreement")),
    "each side has one king only": Message(N_("each side has one king only")),
}
QUIET_PLY_LIMIT = 100
"""Plies without capture, crowning or huff after which a bot agrees a draw."""
GAME_PLY_LIMIT = 400
"""Plies after which a bot agrees a draw in any case (keeps simulated records short)."""
# the huff option's values: any piece, or only one that could have captured
HUFF_CHOICES = ("any", "capturer")

RESULT_TOKENS = ("1-0", "0-1", "1/2-1/2")
RESULT_SCORES = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}
SCORE_RESULTS = {scores: token for token, scores in RESULT_SCORES.items()}

# ------------------------------------------------------------------ board geometry

# Padding bits before each row: one after each even row, two after each odd row.
_ROW_OFFSET = (0, 1, 3, 4, 6, 7, 9, 10)
GHOST_BITS = 42
SQUARE_GHOST = (-1,) + tuple(
    (i // 4) * 4 + i % 4 + _ROW_OFFSET[i // 4] for i in range(32)
)
"""``SQUARE_GHOST[square]``: the bit index of notation square 1-32 (index 0 unused)."""
GHOST_SQUARE = tuple(SQUARE_GHOST.index(g) if g in SQUARE_GHOST[1:] else 0
                     for g in range(GHOST_BITS))
"""``GHOST_SQUARE[bit]``: the notation square of a bit index, 0 for a padding bit."""
BOARD = sum(1 << g for g in SQUARE_GHOST[1:])
"""The 32 real squares; padding bits are outside it."""

DOWN_STEPS, UP_STEPS = (5, 6), (-5, -6)
_IS_REAL = tuple(bool(GHOST_SQUARE[g]) for g in range(GHOST_BITS))


def _on_board(g: int) -> bool:
    return 0 <= g < GHOST_BITS and _IS_REAL[g]


def _step_table(deltas) -> tuple:
    return tuple(
        sum(1 << (g + d) for d in deltas if _on_board(g + d)) if _IS_REAL[g] else 0
        for g in range(GHOST_BITS)
    )


def _jump_table(deltas) -> tuple:
    # (jumped bit, landing bit, landing index) per direction that stays on the board
    return tuple(
        tuple((1 << (g + d), 1 << (g + 2 * d), g + 2 * d)
              for d in deltas if _on_board(g + d) and _on_board(g + 2 * d))
        if _IS_REAL[g] else ()
        for g in range(GHOST_BITS)
    )


STEP_TARGETS = (_step_table(DOWN_STEPS), _step_table(UP_STEPS),
                _step_table(DOWN_STEPS + UP_STEPS))
"""Step targets per bit index: ``[0]`` a Black man, ``[1]`` a White man, ``[2]`` a king."""
JUMPS = (_jump_table(DOWN_STEPS), _jump_table(UP_STEPS), _jump_table(DOWN_STEPS + UP_STEPS))
"""Jumps per bit index, indexed like :data:`STEP_TARGETS`."""

SQUARE_BIT = (0,) + tuple(1 << SQUARE_GHOST[s] for s in range(1, 33))
"""``SQUARE_BIT[square]``: the bit of notation square 1-32."""
MAN_STEPS_BY_SQUARE = tuple(
    (0,) + tuple(STEP_TARGETS[side][SQUARE_GHOST[s]] for s in range(1, 33)) for side in (0, 1)
)
KING_STEPS_BY_SQUARE = (0,) + tuple(STEP_TARGETS[2][SQUARE_GHOST[s]] for s in range(1, 33))

CROWN_ROW = (sum(1 << SQUARE_GHOST[s] for s in range(29, 33)),   # Black crowns on 29-32
             sum(1 << SQUARE_GHOST[s] for s in range(1, 5)))     # White crowns on 1-4
BACK_ROW = (CROWN_ROW[1], CROWN_ROW[0])
START_BLACK = sum(1 << SQUARE_GHOST[s] for s in range(1, 13))
START_WHITE = sum(1 << SQUARE_GHOST[s] for s in range(21, 33))


def jumpers(side: int, own: int, opp: int, kings: int) -> int:
    """The pieces of ``side`` (mask ``own``) that can capture, as a mask."""
    empty = BOARD ^ (own | opp)
    own_kings = own & kings
    if side == BLACK:
        down, up = own, own_kings
    else:
        down, up = own_kings, own
    found = 0
    if down:
        found = down & (((opp >> 5) & (empty >> 10)) | ((opp >> 6) & (empty >> 12)))
    if up:
        found |= up & (((opp << 5) & (empty << 10)) | ((opp << 6) & (empty << 12)))
    return found


def has_piece_move(side: int, own: int, opp: int, kings: int) -> bool:
    """Can ``side`` make any step or capture?"""
    empty = BOARD ^ (own | opp)
    own_kings = own & kings
    if side == BLACK:
        down, up = own, own_kings
    else:
        down, up = own_kings, own
    if down & ((empty >> 5) | (empty >> 6)) or up & ((empty << 5) | (empty << 6)):
        return True
    return bool(jumpers(side, own, opp, kings))


def squares_of(mask: int) -> list[int]:
    """The notation squares (1-32) of a mask, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(GHOST_SQUARE[low.bit_length() - 1])
        mask ^= low
    return out


def mask_of(squares) -> int:
    """The mask of notation squares."""
    mask = 0
    for s in squares:
        if not 1 <= s <= 32:
            raise ValueError(f"not a square 1-32: {s!r}")
        mask |= 1 << SQUARE_GHOST[s]
    return mask


def _square_list(mask: int) -> str:
    return ", ".join(str(s) for s in squares_of(mask)) or "none"


def _colour(side: int) -> Message:
    """Black or White in words (the seats' roles, which the catalogue has)."""
    return Message(COLOUR_NAMES[side])


def _not_a_move(token, why: Message | None = None) -> Message:
    if why is None:
        return Message(N_("not a dam-brade move: %(token)s"), {"token": quoted(token)})
    return Message(N_("not a dam-brade move: %(token)s (%(why)s)"), {"token": quoted(token), "why": why})


def _two_players(n) -> Message:
    return Message(N_("dam-brade is played by 2 players, not %(n)s"), {"n": n})


def _reason_words(reason: str) -> Message | str:
    """A game's end reason (``state.end_reason``, English) in words, for an error."""
    return _REASON_WORDS.get(reason, reason)


# ------------------------------------------------------------------------ notation

_RESULT_SPELLINGS = {
    "1-0": "1-0", "0-1": "0-1", "1/2-1/2": "1/2-1/2", "½-½": "1/2-1/2",
    "0.5-0.5": "1/2-1/2", "0,5-0,5": "1/2-1/2",
}


STEP_MOVES = {
    delta: tuple(
        ("-", GHOST_SQUARE[g], GHOST_SQUARE[g + delta]) if _on_board(g) and _on_board(g + delta)
        else None
        for g in range(GHOST_BITS)
    )
    for delta in DOWN_STEPS + UP_STEPS
}
"""``STEP_MOVES[delta][bit]``: the step move from a bit index by a shift (one tuple
per step, shared, so listing moves allocates none)."""


def _build_token_table() -> dict:
    """Canonical spellings of every one-step move, single jump, huff and result."""
    table: dict = {}
    for steps in STEP_MOVES.values():
        for move in steps:
            if move is not None:
                table[f"{move[1]}-{move[2]}"] = move
    for a in range(1, 33):
        g = SQUARE_GHOST[a]
        for _over, _land, land_index in JUMPS[2][g]:
            b = GHOST_SQUARE[land_index]
            table[f"{a}x{b}"] = ("x", a, b)
        table[f"H{a}"] = ("H", a)
    for spelling, token in _RESULT_SPELLINGS.items():
        table[spelling] = ("R", token)
    return table


TOKEN_TABLE = _build_token_table()
"""Canonical token -> move for the common tokens (the replay's fast path)."""


def _build_step_table() -> dict:
    """Canonical step token -> what the replay's fused loop needs to play it."""
    table: dict = {}
    for token, move in TOKEN_TABLE.items():
        if move[0] != "-":
            continue
        a, b = move[1], move[2]
        man_side = BLACK if b > a else WHITE  # the side whose men step that way
        crowns = b >= 29 if man_side == BLACK else b <= 4
        bit, target = SQUARE_BIT[a], SQUARE_BIT[b]
        table[token] = (bit, target, bit | target, man_side, crowns, move)
    return table


def _build_capture_table() -> dict:
    """Canonical single-jump token -> what the replay's fused loop needs to play it."""
    table: dict = {}
    for token, move in TOKEN_TABLE.items():
        if move[0] != "x":
            continue
        a, b = move[1], move[2]
        ga, gb = SQUARE_GHOST[a], SQUARE_GHOST[b]
        man_side = BLACK if b > a else WHITE
        crowns = b >= 29 if man_side == BLACK else b <= 4
        bit, over, land = 1 << ga, 1 << ((ga + gb) >> 1), 1 << gb
        table[token] = (bit, over, land, bit | land, man_side, crowns, gb, move)
    return table


STEP_TABLE = _build_step_table()
"""Canonical step token -> ``(from bit, to bit, both bits, the side whose men step
that way, whether such a man is crowned there, the move)``: a step in
:meth:`DamBrade.replay` is a few mask operations, with no call."""
CAPTURE_TABLE = _build_capture_table()
"""Canonical single-jump token -> ``(from bit, jumped bit, landing bit, from and
landing bits, the side whose men jump that way, whether such a man is crowned
there, the landing bit index, the move)``, for :meth:`DamBrade.replay`."""
PARSE_CACHE_SIZE = 4096
"""Tokens outside :data:`TOKEN_TABLE` (multi-jumps, other spellings) whose parse a
:class:`DamBrade` keeps; once full, the cache is cleared and starts again."""
_SQUARE_RE = re.compile(r"^\d{1,2}$")


def _parse_square(text: str, token: str) -> int:
    if not _SQUARE_RE.match(text):
        raise IllegalMove("notation", _not_a_move(token, Message(
            N_("%(text)s is not a square 1-32"), {"text": quoted(text)})))
    square = int(text)
    if not 1 <= square <= 32:
        raise IllegalMove("notation", _not_a_move(token, Message(
            N_("square %(square)s is not 1-32"), {"square": str(square)})))
    return square


def _crowned_event(ply: int, side: int, square: int) -> DealEvent:
    return DealEvent(ply, side, "crowned", f"{COLOUR_NAMES[side]} crowned a king on {square}")


class MultiCaptureEvent(DealEvent):
    """The ``multi-capture`` event, its text worded when first read (replay runs
    far more often than anything reads the events). Equal to a :class:`DealEvent`
    with the same values."""

    def __init__(self, move: int, seat: int, jumped: int):
        self.move = move
        self.seat = seat
        self.kind = "multi-capture"
        self.jumped = jumped  # the captured pieces, a mask
        self._text: str | None = None

    @property
    def text(self) -> str:
        if self._text is None:
            self._text = (f"{COLOUR_NAMES[self.seat]} captured {self.jumped.bit_count()} "
                          f"pieces: {_square_list(self.jumped)}")
        return self._text

    @text.setter
    def text(self, value: str) -> None:
        self._text = value

    def __eq__(self, other):
        if not isinstance(other, DealEvent):
            return NotImplemented
        return ((self.move, self.seat, self.kind, self.text)
                == (other.move, other.seat, other.kind, other.text))


# --------------------------------------------------------------------------- state


class DamBradeState:
    """One game in progress, mutated in place by :meth:`DamBrade.play`.

    ``pieces[side]``: masks (ghost layout); ``kings``: both sides' kings; ``turn``:
    0 Black, 1 White. ``last_step`` (the move, ``None`` when the last token was not a
    step) and ``step_kings`` (the kings before it) are kept so that the huff right is
    worked out only when asked for (:meth:`DamBrade.huff_mask`), not on every move;
    ``huff_ply``: the token number of the last huff. ``result``: the scores once over;
    ``decided``: the rules ended the game; ``token_seen``: a result token was played;
    ``ply``: tokens played; ``noisy_ply``: the token number of the last capture,
    crowning or huff.
    """

    __slots__ = (
        "capturer_only",
        "decided",
        "end_reason",
        "events",
        "huff_ply",
        "kings",
        "last_step",
        "noisy_ply",
        "pieces",
        "ply",
        "result",
        "step_kings",
        "token_seen",
        "turn",
    )

    def __init__(self, black: int, white: int, kings: int, turn: int, capturer_only: bool):
        self.pieces = [black, white]
        self.kings = kings
        self.turn = turn
        self.last_step: tuple | None = None
        self.step_kings = 0
        self.huff_ply = 0
        self.capturer_only = capturer_only
        self.result: tuple | None = None
        self.decided = False
        self.token_seen = False
        self.end_reason = ""
        self.ply = 0
        self.noisy_ply = 0
        self.events: list[DealEvent] = []

    @property
    def quiet(self) -> int:
        """Plies since the last capture, crowning or huff."""
        return self.ply - self.noisy_ply

    def copy(self) -> DamBradeState:
        other = DamBradeState(self.pieces[0], self.pieces[1], self.kings, self.turn,
                              self.capturer_only)
        other.last_step = self.last_step
        other.step_kings = self.step_kings
        other.huff_ply = self.huff_ply
        other.result = self.result
        other.decided = self.decided
        other.token_seen = self.token_seen
        other.end_reason = self.end_reason
        other.ply = self.ply
        other.noisy_ply = self.noisy_ply
        other.events = list(self.events)
        return other

    def squares(self, side: int, kings: bool | None = None) -> list[int]:
        """Notation squares of ``side``'s pieces (only kings / only men if asked)."""
        mask = self.pieces[side]
        if kings is True:
            mask &= self.kings
        elif kings is False:
            mask &= ~self.kings
        return squares_of(mask)

    def board_cells(self) -> list[list[str]]:
        """The board for a page (the ``board`` step shape of
        :mod:`~tourney.engines.presentation`): 8 rows of 8 cells, Black's back row
        (squares 1-4) first: ``""`` a light square, ``"."`` an empty dark one,
        ``b``/``w`` men, ``B``/``W`` kings."""
        return [["" if cell == " " else cell for cell in row]
                for row in self.board_text().split("\n")]

    def __repr__(self) -> str:
        """The game as it stands, for a developer: whose turn (0 Black, 1 White) and
        the board (:meth:`board_text`)."""
        return f"<DamBradeState turn={self.turn} ply={self.ply}\n{self.board_text()}>"

    def board_text(self) -> str:
        """The board as 8 text rows, Black's back row (1-4) first: b/w men, B/W kings."""
        rows = []
        for r in range(8):
            cells = []
            for c in range(8):
                if (r + c) % 2 == 0:
                    cells.append(" ")
                    continue
                bit = 1 << SQUARE_GHOST[r * 4 + c // 2 + 1]
                king = self.kings & bit
                if self.pieces[BLACK] & bit:
                    cells.append("B" if king else "b")
                elif self.pieces[WHITE] & bit:
                    cells.append("W" if king else "w")
                else:
                    cells.append(".")
            rows.append("".join(cells))
        return "\n".join(rows)


# ---------------------------------------------------------------------------- game


def _games_sentence(value) -> Message | None:
    if value is None:
        return None
    if value == 1:
        return Message(N_("A match is one game."))
    return Message(N_("A match is %(n)s games; the colours alternate."), {"n": value})


_PLY_KINDS = {"-": "step", "x": "capture", "H": "huff", "R": "result"}


class DamBrade(Game):
    """Checkers with the Alga rules: compulsory capture enforced by huffing."""

    id = "dam-brade"
    name = "Dam (brädspel, Alga rules)"
    summary = (
        "Checkers on the dark squares of an 8x8 board, squares numbered 1-32; Black "
        "(named first) starts on 1-12 and moves first. Men step diagonally forward and "
        "capture forward only; a capturing piece goes on jumping while it can. A man on "
        "the far row becomes a king, which steps and captures both ways. Capturing is "
        "compulsory but not enforced: the opponent may huff (remove) a piece of a player "
        "who skipped a capture before making their own move. No pieces or no legal move "
        "loses; one king each is a draw. A game gives 1, 1/2 or 0; colours alternate "
        "from game to game.")
    title = N_("Dam, the board game (checkers, Alga rules)")
    tagline = N_("Checkers on the dark squares of an 8x8 board; a skipped capture "
                 "may be punished by a huff.")
    vocabulary = BOARD_GAME_WORDS
    seat_roles = (N_("Black"), N_("White"))
    min_players = 2
    max_players = 2
    preferred_players = 2
    uses_dealer = False
    higher_is_better = True
    option_specs = (
        OptionSpec(
            "huff", "choice", "any",
            "which piece a player who skipped a capture may lose: any of their pieces "
            "(Alga: 'en av dina brickor') or only a piece that could have captured",
            choices=HUFF_CHOICES,
            sentence=lambda value: Message(
                N_("A player who skipped a capture may lose only a piece that could have "
                   "captured (huff).") if value == "capturer" else
                N_("A player who skipped a capture may lose any one of their pieces (huff).")),
        ),
        OptionSpec(
            "games", "int", 1,
            "games in a match; colours alternate, each game's players name its Black first",
            minimum=1, sentence=_games_sentence,
        ),
    )
    event_sentences = {
        "draw-agreed": N_("Drawn by agreement"),
        "resigned": N_("%(player)s resigns"),
        "draw-lone-kings": N_("Drawn: each side has one king only"),
        "won": N_("%(player)s wins"),
    }

    # ---- the replay page

    # Games up to this many plies show the board after every ply; longer ones (a bot
    # game can run to hundreds of quiet moves) after every capture, huff and crowning,
    # every BOARD_SAMPLE_EVERY-th ply and the last ply: a page stays readable and small.
    BOARD_EVERY_PLY_LIMIT = 160
    BOARD_SAMPLE_EVERY = 20

    def replay_steps(self, setup: DealSetup, tokens, options: dict) -> ReplaySteps:
        """Every ply with the board after it (after a selection of plies in a long
        game); ply 0 is the opening position."""
        state = self.new_deal(setup, options)
        every = len(tokens) <= self.BOARD_EVERY_PLY_LIMIT
        plies = [Ply(0, None, "", "start", (), state.board_cells())]
        kings = 0
        for number, token in enumerate(tokens, 1):
            move = self.parse_move(token)
            side = self.to_move(state)
            self.play(state, move)
            kind = _PLY_KINDS.get(move[0], "step")
            squares = tuple(s for s in move[1:] if isinstance(s, int))
            board = None
            if kind != "result":
                now_kings = (state.kings & (state.pieces[0] | state.pieces[1])).bit_count()
                if (every or kind != "step" or now_kings != kings
                        or number % self.BOARD_SAMPLE_EVERY == 0 or number >= len(tokens) - 1):
                    board = state.board_cells()
                kings = now_kings
            plies.append(Ply(number, side, self.format_move(move), kind, squares, board))
        steps = ReplaySteps("board", plies, sampled=not every)
        # A ply's number is its index in ``plies`` (0 is the opening position).
        self.finish_steps(state, steps, options, lambda move: move)
        return steps

    def note(self, event: DealEvent, steps: ReplaySteps, options: dict) -> Note:
        plies = steps.steps
        ply = plies[event.move] if 0 < event.move < len(plies) else None
        if ply is not None and event.seat is not None:
            player = Seat(event.seat)
            if event.kind == "crowned" and ply.squares:
                return Note(event.move, event.seat, event.kind, Message(
                    N_("%(player)s crowns a king on %(square)s"),
                    {"player": player, "square": ply.squares[-1]}))
            if event.kind == "huff" and ply.kind == "huff":
                return Note(event.move, event.seat, event.kind, Message(
                    N_("%(player)s huffs the piece on %(square)s: a capture was skipped"),
                    {"player": player, "square": ply.squares[0]}))
            if event.kind == "multi-capture" and ply.kind == "capture":
                return Note(event.move, event.seat, event.kind, Message(
                    N_("%(player)s captures %(count)s pieces in one move"),
                    {"player": player, "count": len(ply.squares) - 1}))
        return super().note(event, steps, options)

    def __init__(self) -> None:
        # token -> move for tokens outside TOKEN_TABLE; a cache of the notation,
        # not deal state (the rule book stays stateless)
        self._parse_cache: dict[str, tuple] = {}

    # ---- options and matches

    def check_options(self, options: dict) -> None:
        super().check_options(options)
        if options.get("huff") not in HUFF_CHOICES:
            raise OptionError(Message(N_("option %(key)s takes %(allowed)s, not %(value)s"),
                                      {"key": "huff", "allowed": or_words(HUFF_CHOICES),
                                       "value": quoted(options.get("huff"))}), key="huff")

    def match_rules(self, options: dict) -> MatchRules:
        return MatchRules(
            deals=options.get("games") or 1,
            dealer=None,
            higher_is_better=True,
            alternate_colours=True,
        )

    # ---- a game

    def new_deal(self, setup: DealSetup, options: dict) -> DamBradeState:
        if setup.nplayers != 2:
            raise RecordError(_two_players(setup.nplayers), rule="player-count", column="players")
        if setup.dealer is not None:
            raise RecordError(Message(N_("dam-brade has no dealer")), rule="no-dealer",
                              column="dealer")
        for column, value in (("hands", setup.hands), ("stock", setup.stock),
                              ("passes", setup.passes)):
            if value and any(value):
                raise RecordError(
                    Message(N_("dam-brade is a board game: a record has no %(column)s (every game "
                               "starts from the fixed opening position)"), {"column": column}),
                    rule="no-cards", column=column,
                )
        return DamBradeState(START_BLACK, START_WHITE, 0, BLACK, self._capturer_only(options))

    @staticmethod
    def _capturer_only(options: dict | None) -> bool:
        return (options or {}).get("huff", "any") == "capturer"

    def position(self, black, white, kings=(), turn: int = BLACK,
                 options: dict | None = None) -> DamBradeState:
        """A state from a position (for tests and analysis): the notation squares of
        Black's and White's pieces, the squares that hold kings, the side to move.
        It has no huff right; it is not judged (the end rules apply as moves are made)."""
        b, w, k = mask_of(black), mask_of(white), mask_of(kings)
        if b & w or k & ~(b | w):
            raise ValueError("pieces overlap, or a king stands on an empty square")
        return DamBradeState(b, w, k, turn, self._capturer_only(options))

    def to_move(self, state: DamBradeState) -> int | None:
        return None if state.result is not None else state.turn

    def is_over(self, state: DamBradeState) -> bool:
        return state.result is not None

    def outcome(self, state: DamBradeState) -> DealOutcome:
        if state.result is None:
            raise IllegalMove("record-incomplete", Message(N_("the game is not over")))
        scores = list(state.result)
        return DealOutcome(
            scores=scores,
            places=places_from_scores(scores, higher_is_better=True),
            verified="moves",
            events=list(state.events),
            moves=state.ply,
        )

    def huff_mask(self, state: DamBradeState) -> int:
        """The opponent pieces the side to move may huff now, as a mask (0: none).

        Worked out from the last step: was a capture possible in the position it was
        made from? The opponent's pieces are unchanged since (the side to move has
        not huffed yet: a huff clears ``last_step``)."""
        step = state.last_step
        if step is None or state.result is not None:
            return 0
        offender = 1 - state.turn
        moved_from = SQUARE_BIT[step[1]]
        moved_to = SQUARE_BIT[step[2]]
        now = state.pieces[offender]
        before = now ^ moved_from ^ moved_to
        could = jumpers(offender, before, state.pieces[state.turn], state.step_kings)
        if not could:
            return 0
        if not state.capturer_only:
            return now
        if could & moved_from:
            return (could ^ moved_from) | moved_to
        return could

    # ---- legal moves

    def legal_moves(self, state: DamBradeState) -> list:
        """Huffs (when allowed now), every step (also steps that skip a possible
        capture: the rules allow them, at the price of a huff) and every capture
        sequence. Result tokens are not listed (see the module docstring)."""
        if state.result is not None:
            return []
        side = state.turn
        own, opp = state.pieces[side], state.pieces[1 - side]
        kings = state.kings
        moves: list = []
        if state.last_step is not None:
            moves.extend(("H", s) for s in squares_of(self.huff_mask(state)))
        empty = BOARD ^ (own | opp)
        if side == BLACK:
            down, up = own, own & kings
        else:
            down, up = own & kings, own
        append = moves.append
        if down:
            for delta in DOWN_STEPS:
                table = STEP_MOVES[delta]
                movers = down & (empty >> delta)
                while movers:
                    low = movers & -movers
                    movers ^= low
                    append(table[low.bit_length() - 1])
        if up:
            for delta in UP_STEPS:
                table = STEP_MOVES[delta]
                movers = up & (empty << -delta)
                while movers:
                    low = movers & -movers
                    movers ^= low
                    append(table[low.bit_length() - 1])
        if jumpers(side, own, opp, kings):
            moves.extend(self.capture_moves(state))
        return moves

    def capture_moves(self, state: DamBradeState) -> list:
        """Every capture sequence of the side to move (empty when none)."""
        if state.result is not None:
            return []
        side = state.turn
        own, opp = state.pieces[side], state.pieces[1 - side]
        kings = state.kings
        found: list = []
        rest = jumpers(side, own, opp, kings)
        while rest:
            low = rest & -rest
            rest ^= low
            self._capture_paths(side, low.bit_length() - 1, own, opp, kings, found)
        return found

    @staticmethod
    def _capture_paths(side: int, start: int, own: int, opp: int, kings: int,
                       found: list) -> None:
        king = kings >> start & 1
        table = JUMPS[2] if king else JUMPS[side]
        crown = 0 if king else CROWN_ROW[side]
        occupied = (own | opp) ^ (1 << start)

        def extend(cur: int, path: list, jumped: int) -> None:
            went_on = False
            for over, land, land_index in table[cur]:
                if opp & over and not jumped & over and not occupied & land:
                    went_on = True
                    longer = path + [GHOST_SQUARE[land_index]]
                    if crown & land:
                        found.append(("x", *longer))  # crowned: the move ends here
                    else:
                        extend(land_index, longer, jumped | over)
            if not went_on and len(path) > 1:
                found.append(("x", *path))

        extend(start, [GHOST_SQUARE[start]], 0)

    # ---- play: the hot path

    def play(self, state: DamBradeState, move) -> None:
        """Apply a move in place; :class:`IllegalMove` (state untouched) if illegal."""
        if state.result is not None:
            self._play_after_end(state, move)
            return
        kind = move[0]
        if kind != "-":
            if kind == "x":
                self._play_capture(state, move)
            elif kind == "H":
                self._play_huff(state, move[1])
            elif kind == "R":
                self._play_result(state, move[1])
            else:
                raise IllegalMove("notation", _not_a_move(move))
            return
        # a step, inline and lean: most tokens of a record are steps
        side = state.turn
        pieces = state.pieces
        own = pieces[side]
        opp = pieces[1 - side]
        a = move[1]
        bit = SQUARE_BIT[a]
        target = SQUARE_BIT[move[2]]
        if not own & bit:
            raise IllegalMove("no-piece", self._no_piece_message(state, a))
        if (own | opp) & target:
            raise IllegalMove("square-occupied", Message(N_("square %(square)s is not empty"),
                                                         {"square": str(move[2])}))
        kings = state.kings
        if kings & bit:
            if not KING_STEPS_BY_SQUARE[a] & target:
                raise IllegalMove("not-a-step", Message(
                    N_("a king moves one step diagonally: %(to)s is not next to %(from)s"),
                    {"to": str(move[2]), "from": str(a)}))
            state.kings = kings ^ bit ^ target
        elif not MAN_STEPS_BY_SQUARE[side][a] & target:
            if MAN_STEPS_BY_SQUARE[1 - side][a] & target:
                raise IllegalMove("man-backwards", Message(
                    N_("a man moves forward only: %(move)s goes backward"),
                    {"move": f"{a}-{move[2]}"}))
            raise IllegalMove("not-a-step", Message(
                N_("a man moves one step diagonally forward: %(to)s is not next to %(from)s"),
                {"to": str(move[2]), "from": str(a)}))
        elif CROWN_ROW[side] & target:
            state.kings = kings | target
            state.noisy_ply = state.ply + 1
            state.events.append(_crowned_event(state.ply + 1, side, move[2]))
        own ^= bit | target
        pieces[side] = own
        state.last_step = move
        state.step_kings = kings
        state.ply += 1
        state.turn = 1 - side
        # the usual case, cheaply: the opponent's men can still step somewhere and
        # nothing was crowned (a crowning may leave one king each)
        if state.noisy_ply != state.ply:
            empty = BOARD ^ (own | opp)
            if side:
                if opp & ((empty >> 5) | (empty >> 6)):
                    return
            elif opp & ((empty << 5) | (empty << 6)):
                return
        self._judge(state, side)

    def _play_capture(self, state: DamBradeState, move) -> None:
        side = state.turn
        pieces = state.pieces
        own, opp = pieces[side], pieces[1 - side]
        kings = state.kings
        last = len(move) - 1
        if last < 2:
            raise IllegalMove("notation", Message(N_("a capture names its start and landing squares")))
        start = SQUARE_GHOST[move[1]]
        bit = 1 << start
        if not own & bit:
            raise IllegalMove("no-piece", self._no_piece_message(state, move[1]))
        king = kings & bit
        occupied = (own | opp) ^ bit
        crown = 0 if king else CROWN_ROW[side]
        cur = start
        jumped = 0
        for n in range(2, last + 1):
            nxt = SQUARE_GHOST[move[n]]
            delta = nxt - cur
            if delta != 10 and delta != 12 and delta != -10 and delta != -12:
                raise IllegalMove("not-a-jump", Message(
                    N_("a jump goes two squares diagonally over a piece: %(jump)s is not a jump"),
                    {"jump": f"{move[n - 1]}x{move[n]}"}))
            if not king and (delta > 0) != (side == BLACK):
                raise IllegalMove("man-backwards", Message(
                    N_("a man captures forward only: %(jump)s goes backward"),
                    {"jump": f"{move[n - 1]}x{move[n]}"}))
            over_index = cur + (delta >> 1)
            over = 1 << over_index
            if not opp & over:
                between = {"square": str(GHOST_SQUARE[over_index]), "from": str(move[n - 1]),
                           "to": str(move[n])}
                raise IllegalMove("not-a-jump", Message(
                    N_("a capture jumps an opposing piece: %(square)s (between %(from)s and "
                       "%(to)s) is an own piece") if own & over else
                    N_("a capture jumps an opposing piece: %(square)s (between %(from)s and "
                       "%(to)s) is empty"), between))
            if jumped & over:
                raise IllegalMove("jumped-twice", Message(
                    N_("a piece can be jumped only once in a move: %(square)s was already jumped"),
                    {"square": str(GHOST_SQUARE[over_index])}))
            if occupied >> nxt & 1:
                raise IllegalMove("square-occupied", Message(
                    N_("a capture lands on an empty square: %(square)s is not empty"),
                    {"square": str(move[n])}))
            jumped |= over
            cur = nxt
            if crown >> nxt & 1 and n < last:
                raise IllegalMove("crowned-ends-move", Message(
                    N_("a man crowned during a capture ends its move there: crowned on "
                       "%(square)s, the record jumps on"), {"square": str(move[n])}))
        target = 1 << cur
        crowned = crown & target
        if not crowned:
            for over, land, land_index in JUMPS[2 if king else side][cur]:
                if opp & over and not jumped & over and not occupied & land:
                    raise IllegalMove("must-continue", Message(
                        N_("a capture must go on while the piece can jump: from %(square)s it "
                           "can still jump %(over)s to %(land)s"),
                        {"square": str(move[last]), "over": str(GHOST_SQUARE[over.bit_length() - 1]),
                         "land": str(GHOST_SQUARE[land_index])}))
        pieces[side] = own ^ bit ^ target
        pieces[1 - side] = opp ^ jumped
        kings &= ~jumped
        if king:
            kings ^= bit ^ target
        elif crowned:
            kings |= target
        state.kings = kings
        state.ply += 1
        state.noisy_ply = state.ply
        state.last_step = None
        state.turn = 1 - side
        if last > 2:
            state.events.append(MultiCaptureEvent(state.ply, side, jumped))
        if crowned:
            state.events.append(_crowned_event(state.ply, side, move[last]))
        self._judge(state, side)

    def _play_huff(self, state: DamBradeState, square: int) -> None:
        side = state.turn
        if state.huff_ply and state.huff_ply == state.ply:
            raise IllegalMove("huff-not-allowed", Message(N_("only one huff per turn")))
        allowed = self.huff_mask(state)
        if not allowed:
            raise IllegalMove("huff-not-allowed", Message(
                N_("a huff is allowed only at the start of a turn right after the opponent "
                   "skipped a capture: %(colour)s's last move did not"),
                {"colour": _colour(1 - side)}))
        opp = state.pieces[1 - side]
        bit = 1 << SQUARE_GHOST[square]
        if not opp & bit:
            raise IllegalMove("huff-no-piece", Message(
                N_("a huff removes an opposing piece: %(colour)s has no piece on %(square)s"),
                {"colour": _colour(1 - side), "square": str(square)}))
        if not allowed & bit:
            raise IllegalMove("huff-not-capturer", Message(
                N_("with huff=capturer only a piece that could have captured may be huffed: "
                   "%(squares)s, not %(square)s"),
                {"squares": _square_list(allowed), "square": str(square)}))
        opp ^= bit
        state.pieces[1 - side] = opp
        state.kings &= ~bit
        state.last_step = None
        state.ply += 1
        state.huff_ply = state.noisy_ply = state.ply
        state.events.append(DealEvent(
            state.ply, side, "huff",
            f"{COLOUR_NAMES[side]} huffed {COLOUR_NAMES[1 - side]}'s piece on {square} "
            "(a capture was skipped)"))
        if not opp:
            self._decide(state, side, f"{COLOUR_NAMES[1 - side]} has no pieces left")
        elif self._lone_kings(state):
            self._draw_lone_kings(state)

    def _play_result(self, state: DamBradeState, token: str) -> None:
        scores = RESULT_SCORES.get(token)
        if scores is None:
            raise IllegalMove("notation", Message(N_("not a result token: %(token)s"),
                                                  {"token": quoted(token)}))
        state.result = scores
        state.token_seen = True
        state.ply += 1
        if token == "1/2-1/2":
            state.end_reason = "drawn by agreement"
            state.events.append(DealEvent(state.ply, None, "draw-agreed",
                                          "the game was drawn by agreement (1/2-1/2)"))
        else:
            loser = WHITE if token == "1-0" else BLACK
            state.end_reason = f"{COLOUR_NAMES[loser]} resigned"
            state.events.append(DealEvent(state.ply, loser, "resigned",
                                          f"{COLOUR_NAMES[loser]} resigned ({token})"))

    def _play_after_end(self, state: DamBradeState, move) -> None:
        if state.token_seen:
            raise IllegalMove("after-result", Message(
                N_("the game is already over (%(reason)s): nothing may follow a result token"),
                {"reason": _reason_words(state.end_reason)}))
        if move[0] != "R":
            raise IllegalMove("record-too-long", Message(
                N_("the game is already over (%(reason)s); the record goes on"),
                {"reason": _reason_words(state.end_reason)}))
        token = move[1]
        expected = SCORE_RESULTS[state.result]
        if token != expected:
            raise IllegalMove(
                "result-disagrees",
                Message(N_("the result must agree with the position: %(reason)s, so the game is "
                           "%(expected)s, not %(token)s"),
                        {"reason": _reason_words(state.end_reason), "expected": expected,
                         "token": token}),
            )
        state.token_seen = True
        state.ply += 1

    # ---- end of game

    def _judge(self, state: DamBradeState, mover: int) -> None:
        """After ``mover``'s move: does the other side lose, or is it one king each?"""
        other = 1 - mover
        opp = state.pieces[other]
        if not opp:
            self._decide(state, mover, f"{COLOUR_NAMES[other]} has no pieces left")
        elif self._lone_kings(state):
            self._draw_lone_kings(state)
        elif not has_piece_move(other, opp, state.pieces[mover], state.kings):
            self._decide(state, mover, f"{COLOUR_NAMES[other]} has no legal move")

    @staticmethod
    def _lone_kings(state: DamBradeState) -> bool:
        black, white = state.pieces
        both = black | white
        return (bool(black) and bool(white) and not black & (black - 1)
                and not white & (white - 1) and both & state.kings == both)

    def _draw_lone_kings(self, state: DamBradeState) -> None:
        state.result = (0.5, 0.5)
        state.decided = True
        state.end_reason = "each side has one king only"
        state.events.append(DealEvent(state.ply, None, "draw-lone-kings",
                                      "drawn: each side has one king only"))

    def _decide(self, state: DamBradeState, winner: int, reason: str) -> None:
        state.result = (1.0, 0.0) if winner == BLACK else (0.0, 1.0)
        state.decided = True
        state.end_reason = reason
        state.events.append(DealEvent(state.ply, winner, "won",
                                      f"{COLOUR_NAMES[winner]} wins: {reason}"))

    @staticmethod
    def _no_piece_message(state: DamBradeState, square: int) -> Message:
        side = state.turn
        bit = 1 << SQUARE_GHOST[square]
        return Message(N_("%(colour)s has no piece on %(square)s (the square is an opposing piece)")
                       if state.pieces[1 - side] & bit else
                       N_("%(colour)s has no piece on %(square)s (the square is empty)"),
                       {"colour": _colour(side), "square": str(square)})

    # ---- replay

    def replay(self, setup: DealSetup, tokens, options: dict) -> DealOutcome:
        """As :meth:`Game.replay`, but one result token may follow a decided end
        (it must agree), and a missing result token is named as such.

        The hot path: a step (crowning included) and a plain capture (one jump
        that cannot go on and crowns nothing, leaving the other side two pieces
        or more) are played here on masks held in locals; anything else, or a
        move that is not plainly legal, goes through :meth:`play` (after the
        locals are written back), which also raises the errors. After a plain
        move (a step that crowns nothing, or a plain capture) the end-of-game
        check waits for the next token: a legal step or capture by the other side
        shows that side had a move, so the check runs only before any other token
        and at the end of the record. A plain move can bring only that end ("no
        legal move"): it takes at most one piece of two or more, and crowns
        nothing.
        """
        state = self.new_deal(setup, options)
        steps = STEP_TABLE.get
        captures = CAPTURE_TABLE.get
        play = self.play
        pieces = state.pieces
        side = state.turn
        kings = state.kings
        ply = state.ply
        last_step = state.last_step
        step_kings = state.step_kings
        occupied = pieces[0] | pieces[1]
        on = state.result is None
        judge_due = False  # the last token was a plain move whose end check waits
        number = 0
        for token in tokens:
            number += 1
            step = steps(token)
            if step is not None and on:
                bit, target, path, man_side, crowns, move = step
                own = pieces[side]
                if own & bit and not occupied & target:
                    king = kings & bit
                    if king or man_side == side:
                        pieces[side] = own ^ path
                        occupied ^= path
                        last_step = move
                        step_kings = kings
                        ply += 1
                        if king:
                            kings ^= path
                        elif crowns:
                            # Crowned: the event, and the full end check at once
                            # (a crowning may leave one king each).
                            kings |= target
                            state.noisy_ply = ply
                            state.events.append(_crowned_event(ply, side, move[2]))
                            state.turn = side ^ 1
                            state.kings = kings
                            state.ply = ply
                            state.last_step = last_step
                            state.step_kings = step_kings
                            self._judge(state, side)
                            side ^= 1
                            judge_due = False
                            on = state.result is None
                            continue
                        side ^= 1
                        judge_due = True
                        continue
            elif on:
                capture = captures(token)
                if capture is not None:
                    bit, over, land, path, man_side, crowns, land_index, move = capture
                    own = pieces[side]
                    opp = pieces[1 - side]
                    if own & bit and opp & over and not occupied & land:
                        king = kings & bit
                        left = opp ^ over
                        if (king or (man_side == side and not crowns)) and left & (left - 1):
                            # The jump ends the move unless the piece can jump on
                            # (the jumped piece stays until the move ends, and the
                            # start square is empty).
                            still = occupied ^ bit
                            for next_over, next_land, _ in JUMPS[2 if king else side][land_index]:
                                if left & next_over and not still & next_land:
                                    break
                            else:
                                pieces[side] = own ^ path
                                pieces[1 - side] = left
                                occupied ^= path | over
                                kings &= ~over
                                if king:
                                    kings ^= path
                                last_step = None
                                ply += 1
                                state.noisy_ply = ply
                                side ^= 1
                                judge_due = True
                                continue
            # Anything else: through play(), with the state written back first.
            state.turn = side
            state.kings = kings
            state.ply = ply
            state.last_step = last_step
            state.step_kings = step_kings
            played = False
            if judge_due:
                judge_due = False
                # A step or capture that play() accepts shows the side had a move;
                # before anything else (a huff, a result, an error) the end check runs.
                move = step[5] if step is not None else TOKEN_TABLE.get(token)
                if move is not None and (move[0] == "-" or move[0] == "x"):
                    played = self._try_play(state, move)
                if not played:
                    self._judge_step(state, 1 - side)
            try:
                if not played:
                    play(state, step[5] if step is not None else self._parse_cached(token))
            except IllegalMove as err:
                # play raises before changing anything, so the state names the mover
                seat = state.turn if state.result is None else None
                raise RecordError.from_illegal(
                    err, column="play", move=number, seat=seat, token=token
                ) from None
            pieces = state.pieces
            side = state.turn
            kings = state.kings
            ply = state.ply
            last_step = state.last_step
            step_kings = state.step_kings
            occupied = pieces[0] | pieces[1]
            on = state.result is None
        state.turn = side
        state.kings = kings
        state.ply = ply
        state.last_step = last_step
        state.step_kings = step_kings
        if judge_due:
            self._judge_step(state, 1 - side)
        if state.result is None:
            raise RecordError(
                Message(N_("the record stops after %(n)s moves while the game is not over: a game "
                           "the rules do not decide must end with a result token (1-0, 0-1 or "
                           "1/2-1/2)"), {"n": number}),
                rule="record-incomplete", column="play",
            )
        return self.outcome(state)

    def _try_play(self, state: DamBradeState, move) -> bool:
        """:meth:`play` the move if it is legal (``True``); else leave the state
        untouched (``False``)."""
        try:
            self.play(state, move)
        except IllegalMove:
            return False
        return True

    def _judge_step(self, state: DamBradeState, mover: int) -> None:
        """The end check after ``mover``'s plain move (see :meth:`replay`), as
        :meth:`play` makes it after a step: the usual case, that the other side's
        men can still step somewhere (so it has pieces, not only kings, and a
        move), cheaply; else the full :meth:`_judge`."""
        pieces = state.pieces
        own, opp = pieces[mover], pieces[1 - mover]
        empty = BOARD ^ (own | opp)
        if mover:
            if opp & ((empty >> 5) | (empty >> 6)):
                return
        elif opp & ((empty << 5) | (empty << 6)):
            return
        self._judge(state, mover)

    def _parse_cached(self, token):
        """:meth:`parse_move`, remembering the tokens outside :data:`TOKEN_TABLE`
        (multi-jumps repeat across games). Only successful parses are kept."""
        move = TOKEN_TABLE.get(token)
        if move is not None:
            return move
        cache = self._parse_cache
        move = cache.get(token) if type(token) is str else None
        if move is None:
            move = self.parse_move(token)
            if type(token) is str:
                if len(cache) >= PARSE_CACHE_SIZE:
                    cache.clear()
                cache[token] = move
        return move

    # ---- notation

    def parse_move(self, token: str):
        try:
            move = TOKEN_TABLE.get(token)
        except TypeError:  # unhashable (a list): no token, said below
            move = None
        if move is not None:
            return move
        if not isinstance(token, str):
            raise IllegalMove("notation", _not_a_move(token))
        text = token.strip().replace("\u2013", "-").replace("\u2212", "-")
        move = TOKEN_TABLE.get(text) or TOKEN_TABLE.get(text.upper())
        if move is not None:
            return move
        low = text.lower()
        if not low:
            raise IllegalMove("notation", Message(N_("an empty token is not a dam-brade move")))
        if low in _RESULT_SPELLINGS:
            return ("R", _RESULT_SPELLINGS[low])
        if low[0] == "h":
            return ("H", _parse_square(low[1:], token))
        if "x" in low:
            return ("x", *(_parse_square(p, token) for p in low.split("x")))
        if "-" in low:
            parts = low.split("-")
            if len(parts) != 2:
                raise IllegalMove("notation", _not_a_move(token, Message(
                    N_("a move names two squares; a multi-jump is written with x"))))
            a, b = (_parse_square(p, token) for p in parts)
            return ("-", a, b)
        raise IllegalMove("notation", _not_a_move(token, Message(
            N_("expected a move 11-15, a capture 15x24, a huff H18 or a result 1-0, 0-1, "
               "1/2-1/2"))))

    def format_move(self, move) -> str:
        kind = move[0]
        if kind == "-":
            return f"{move[1]}-{move[2]}"
        if kind == "x":
            return "x".join(str(s) for s in move[1:])
        if kind == "H":
            return f"H{move[1]}"
        if kind == "R":
            return move[1]
        raise IllegalMove("notation", _not_a_move(move))

    # ---- scores

    def parse_score(self, text: str) -> float:
        """``1``, ``0``, ``0.5`` (also ``½``, ``1/2``, ``0,5``) as a float;
        :class:`ValueError` for anything that is not a number."""
        raw = str(text).strip()
        value = {"½": 0.5, "1/2": 0.5, "0,5": 0.5}.get(raw)
        if value is not None:
            return value
        try:
            value = float(raw)
        except ValueError:
            value = float("nan")
        if not math.isfinite(value):  # nan, inf: never a score (and would not format)
            raise ValueError(
                f"not a dam-brade score: {text!r} (game points are 1, 0.5 or 0)")
        return value

    def format_score(self, value) -> str:
        value = float(value)
        if value == int(value):
            return str(int(value))
        return repr(value)

    def check_score_sheet(self, setup: DealSetup, scores: list, options: dict) -> DealOutcome:
        if setup is not None and setup.nplayers != 2:
            raise IllegalMove("score-sheet-players", _two_players(setup.nplayers))
        try:
            pair = tuple(float(s) for s in scores)
        except (TypeError, ValueError):
            pair = None
        if pair is not None and not all(math.isfinite(x) for x in pair):
            scores, pair = [str(s) for s in scores], None
        if pair not in SCORE_RESULTS:
            shown = ";".join(self.format_score(s) if isinstance(s, (int, float)) else str(s)
                             for s in scores)
            raise IllegalMove("score-sheet-points", Message(
                N_("a dam-brade game gives 1;0, 0;1 or 0.5;0.5 game points, not %(shown)s"),
                {"shown": shown}))
        values = list(pair)
        return DealOutcome(
            scores=values,
            places=places_from_scores(values, higher_is_better=True),
            verified="scores",
        )

    # ---- bots

    def random_setup(self, nplayers: int, dealer, deal_number: int, options: dict,
                     rng: random.Random) -> DealSetup:
        """Every game starts from the fixed opening position: the setup is only the
        player count, which must be 2."""
        if nplayers != 2:
            raise RecordError(_two_players(nplayers), rule="player-count", column="players")
        return DealSetup(nplayers=nplayers, dealer=None, deal_number=deal_number)

    def choose_move(self, state: DamBradeState, rng: random.Random, skill: float = 1.0):
        """With probability ``skill`` a heuristic move: huff when allowed (kings and
        advanced men first), else the longest capture, else a step, preferring
        crowning and steps that leave nothing to capture; otherwise a uniformly
        random listed move (which may skip a capture and be huffed). After
        :data:`QUIET_PLY_LIMIT` quiet plies, or :data:`GAME_PLY_LIMIT` plies in all,
        the bot agrees a draw. Checkers is a game
        of full information: nothing is peeked."""
        if state.quiet >= QUIET_PLY_LIMIT or state.ply >= GAME_PLY_LIMIT:
            return ("R", "1/2-1/2")
        if rng.random() >= skill:
            return rng.choice(self.legal_moves(state))
        side = state.turn
        huffable = self.huff_mask(state)
        if huffable:
            kings = state.kings
            return ("H", max(squares_of(huffable), key=lambda s: (
                bool(kings & (1 << SQUARE_GHOST[s])), self._advance(1 - side, s),
                rng.random())))
        candidates = self.capture_moves(state)
        if candidates:
            longest = max(len(m) for m in candidates)
            candidates = [m for m in candidates if len(m) == longest]
        else:
            candidates = self.legal_moves(state)
        return max(candidates, key=lambda m: (self._after_score(state, m), rng.random()))

    @staticmethod
    def _advance(side: int, square: int) -> int:
        row = (square - 1) // 4
        return row if side == BLACK else 7 - row

    def _after_score(self, state: DamBradeState, move) -> int:
        """Heuristic value for the mover of the position after a step or capture."""
        side = state.turn
        own, opp = state.pieces[side], state.pieces[1 - side]
        kings = state.kings
        start = 1 << SQUARE_GHOST[move[1]]
        end_index = SQUARE_GHOST[move[-1]]
        end = 1 << end_index
        was_king = kings & start
        new_own = own ^ start ^ end
        new_opp = opp
        if move[0] == "x":
            prev = SQUARE_GHOST[move[1]]
            for square in move[2:]:
                nxt = SQUARE_GHOST[square]
                new_opp &= ~(1 << ((prev + nxt) >> 1))
                prev = nxt
        crowned = not was_king and CROWN_ROW[side] & end
        new_kings = kings & (new_own | new_opp) & ~start
        if was_king or crowned:
            new_kings |= end
        score = 40 if crowned else 0
        if not jumpers(1 - side, new_opp, new_own, new_kings):
            score += 20
        if not was_king:
            # keep the back row home while there are men: it stops the opponent crowning
            if BACK_ROW[side] & start:
                score -= 6
            score += self._advance(side, move[-1])
        return score


DAM_BRADE = DamBrade()
