"""Peer engines for ``bench/bench_engines.py``: the same deals replayed elsewhere.

Bench-only: neither peer is a dependency of the project (``pip install open_spiel
py-draughts``, see bench/README.md). Each adapter raises :class:`PeerUnavailable`
from its constructor when its package is missing, and the bench then skips its
column.

* :class:`OpenSpielHearts`: DeepMind OpenSpiel's ``hearts`` (C++ behind pybind11)
  replays our 4-player ``spardame`` deals. Passing is switched off and OpenSpiel is
  dealt the hands *after* our passes; every special rule that spardame lacks is
  switched off too, so exactly the same card sequence is legal in both.
* :class:`PyDraughtsAmerican`: py-draughts' ``AmericanBoard`` (pure Python,
  bitboards) replays our ``dam-brade`` games that are also English checkers
  games: no capture skipped, hence no huff.

Each adapter has ``prepare(records)`` (untimed: converts our records to the peer's
moves and replays every one once, checking that the peer agrees with our engine;
records it cannot take are left out with the reason counted) and ``replay_all``
(the timed loop, as lean as the peer allows).
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from importlib import metadata
from types import MappingProxyType

from tourney.cards import AH, CARD_NAMES, HEARTS, QS, SUIT_MASKS


class PeerUnavailable(Exception):
    """The peer's package is not installed (the message says what to install)."""


@dataclass
class Prepared:
    """A peer's input, ready for :meth:`replay_all`, and what was left out."""

    items: list
    records: list  # our records that the items replay, in the same order
    skipped: Counter = field(default_factory=Counter)


def _version(*distributions: str) -> str:
    for name in distributions:
        try:
            return metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return "?"


# ------------------------------------------------------------------ OpenSpiel hearts

class OpenSpielHearts:
    """OpenSpiel's ``hearts`` set up to accept spardame's play.

    Parameters (``pyspiel.load_game("hearts").get_parameters()`` lists them):
    ``pass_cards=False`` (the pass-direction chance node then has the one outcome
    "No Pass" and OpenSpiel is dealt our post-pass hands), ``no_pts_on_first_trick``,
    ``must_break_hearts``, ``can_lead_any_club``, ``qs_breaks_hearts``,
    ``jd_bonus``, ``avoid_all_tricks_bonus`` and ``can_lead_hearts_instead_of_qs``
    all ``False``. What remains is spardame's default play: the holder of 2C leads
    it, follow suit, any card when void, highest of the suit led wins, the winner
    leads. OpenSpiel deals the k-th chance outcome (a card) to player ``k % 4`` and
    plays clockwise ``p -> p + 1``, as our seats do; its players 0-3 are our seats
    0-3. Its card actions are ``rank * 4 + suit`` with suits C D H S; we map our
    card ints to them by name (``action_to_string`` at a deal node).
    """

    name = "OpenSpiel hearts"
    checks = ("OpenSpiel's player to move is our seat at every card, every card legal there, and "
              "both engines' scores are those of the same tricks, so the QS taker is the same")
    PARAMS = MappingProxyType({
        "pass_cards": False,
        "no_pts_on_first_trick": False,
        "must_break_hearts": False,
        "can_lead_any_club": False,
        "qs_breaks_hearts": False,
        "jd_bonus": False,
        "avoid_all_tricks_bonus": False,
        "can_lead_hearts_instead_of_qs": False,
    })
    NO_PASS = 0  # the only pass-direction outcome when pass_cards is False

    def __init__(self):
        try:
            import pyspiel
        except ImportError:
            raise PeerUnavailable("OpenSpiel is not installed (pip install open_spiel)") from None
        self.version = _version("open_spiel", "open-spiel")
        self.game = pyspiel.load_game("hearts", dict(self.PARAMS))  # not timed
        state = self.game.new_initial_state()
        assert state.legal_actions() == [self.NO_PASS], "pass_cards=False should leave only No Pass"
        state.apply_action(self.NO_PASS)
        by_name = {state.action_to_string(a): a for a in state.legal_actions()}
        self.action_of_card = tuple(by_name[name] for name in CARD_NAMES)

    @staticmethod
    def post_pass_hands(record) -> list[list[int]]:
        """Each seat's cards after passing to the left (spardame's default)."""
        n = len(record.players)
        hands = [set(h) for h in record.hands]
        for seat, cards in enumerate(record.passes or [[]] * n):
            hands[seat].difference_update(cards)
            hands[(seat + 1) % n].update(cards)
        return [sorted(h) for h in hands]

    def prepare(self, records, engine_outcomes) -> Prepared:
        """Deal and play actions for each 4-player spardame deal; every deal is
        replayed once here and checked against our engine (see :meth:`_check`)."""
        action = self.action_of_card
        out = Prepared([], [])
        for record, outcome in zip(records, engine_outcomes):
            if len(record.players) != 4:
                out.skipped["not 4 players"] += 1
                continue
            hands = self.post_pass_hands(record)
            if any(len(h) != 13 for h in hands):
                out.skipped["hands are not 13 cards each"] += 1
                continue
            deal = [action[hands[seat][k]] for k in range(13) for seat in range(4)]
            cards = [CARD_NAMES.index(t) for t in record.play]
            plays = [action[c] for c in cards]
            problem = self._check(hands, cards, deal, plays, outcome.scores)
            if problem:
                out.skipped[problem] += 1
                continue
            out.items.append((deal, plays))
            out.records.append(record)
        return out

    def _check(self, hands, cards, deal, plays, our_scores) -> str | None:
        """Replay once with checks: OpenSpiel's player to move is our seat at every
        card, and both engines' scores are those of the tricks worked out here
        (spardame: QS 100, AH 20, other hearts 10; OpenSpiel: QS 13, hearts 1;
        both: a seat taking every heart and QS gets 0, the others the full
        penalty, 100 or 26). So the QS taker is the same seat in both."""
        state = self.game.new_initial_state()
        state.apply_action(self.NO_PASS)
        for a in deal:
            state.apply_action(a)
        holder = {c: seat for seat, hand in enumerate(hands) for c in hand}
        seat = holder[CARD_NAMES.index("2C")]
        taken = [0, 0, 0, 0]  # masks of cards each seat took
        trick = []
        for card, a in zip(cards, plays):
            if state.current_player() != seat or holder[card] != seat:
                return "seat to move differs"
            try:
                state.apply_action_with_legality_check(a)
            except RuntimeError:  # pyspiel.SpielError, a RuntimeError: an illegal action
                return "illegal in OpenSpiel"
            trick.append((seat, card))
            if len(trick) == 4:
                led = trick[0][1] // 13
                seat = max((c, s) for s, c in trick if c // 13 == led)[1]
                for _s, c in trick:
                    taken[seat] |= 1 << c
                trick = []
            else:
                seat = (seat + 1) % 4
        if not state.is_terminal():
            return "OpenSpiel deal not over"
        points = [26 - r for r in state.returns()]
        hearts = SUIT_MASKS[HEARTS]
        qs_taker = next(s for s in range(4) if taken[s] >> QS & 1)
        moon = next((s for s in range(4) if taken[s] & hearts == hearts and s == qs_taker), None)
        expect_os, expect_ours = [], []
        for s in range(4):
            h = (taken[s] & hearts).bit_count()
            q = 1 if s == qs_taker else 0
            if moon is None:
                expect_os.append(13 * q + h)
                expect_ours.append(100 * q + 10 * h + (10 if taken[s] >> AH & 1 else 0))
            else:
                expect_os.append(0 if s == moon else 26)
                expect_ours.append(0 if s == moon else 100)
        if points != expect_os:
            return "OpenSpiel points differ from the tricks"
        if list(our_scores) != expect_ours:
            return "our scores differ from the tricks"
        # Both engines' points are those of the same tricks, so in particular the
        # seat that took QS is the same in both.
        return None

    def replay_all(self, items) -> None:
        """The timed loop: a fresh state, the pass-direction and 52 deal chance
        actions, then every card with OpenSpiel's legality check, then returns."""
        new_state = self.game.new_initial_state
        no_pass = self.NO_PASS
        for deal, plays in items:
            state = new_state()
            apply = state.apply_action
            apply(no_pass)
            for a in deal:
                apply(a)
            play = state.apply_action_with_legality_check
            for a in plays:
                play(a)
            state.returns()


# ------------------------------------------------------------- py-draughts checkers

class PyDraughtsAmerican:
    """py-draughts' ``AmericanBoard`` replaying dam-brade games.

    Colours and squares: English checkers (and dam-brade) put Black on 1-12 and
    Black moves first. py-draughts' AmericanBoard starts with *White* to move, its
    White men on its squares 21-32 and Black on 1-12 (``STARTING_COLOR`` is
    WHITE). Our Black is therefore its White, and the board is turned half a turn:
    our square ``s`` is its square ``33 - s`` (a 180-degree rotation keeps every
    diagonal). A move ``11-15`` is pushed as ``22-18``, a capture ``15x24x31`` as
    ``18x9x2``. Result tokens and huffs are ours only (games with a huff are left
    out before this).

    py-draughts' American rules offer captures as optional and have no majority
    rule; its men crossing the crown row during a capture stop there (they cannot
    jump on forward). English checkers makes capturing compulsory, so the bench
    feeds only games in which every capture available was taken: those are legal
    English checkers, legal dam-brade and legal in py-draughts.
    """

    name = "py-draughts AmericanBoard"
    checks = ("every move legal there, and games our rules decide by a side with no piece or "
              "move end there with the same side to move and no legal move")

    def __init__(self):
        try:
            import draughts
            board_class = draughts.AmericanBoard
        except (ImportError, AttributeError):
            raise PeerUnavailable(
                "py-draughts is not installed (pip install py-draughts; note that pydraughts "
                "installs the same module name 'draughts' and overwrites it)") from None
        self.version = getattr(draughts, "__version__", None) or _version("py-draughts")
        self.Board = board_class

    @staticmethod
    def uci(token: str) -> str | None:
        """Our token as a py-draughts move string (``None`` for a result token)."""
        if token in ("1-0", "0-1", "1/2-1/2"):
            return None
        if "x" in token:
            return "x".join(str(33 - int(s)) for s in token.split("x"))
        a, b = token.split("-")
        return f"{33 - int(a)}-{33 - int(b)}"

    def prepare(self, records, engine_outcomes) -> Prepared:
        out = Prepared([], [])
        for record, outcome in zip(records, engine_outcomes):
            moves = [m for m in (self.uci(t) for t in record.play) if m is not None]
            problem = self._check(moves, outcome)
            if problem:
                out.skipped[problem] += 1
                continue
            out.items.append(moves)
            out.records.append(record)
        return out

    def _check(self, moves, outcome) -> str | None:
        """Every move legal in py-draughts; a game our rules decide by a side
        having no piece or no move ends the same way there (the loser is to move
        with no legal move). Draws are not compared: py-draughts has its own draw
        rules (40 quiet king moves, threefold repetition), dam-brade has none."""
        board = self.Board()
        for m in moves:
            try:
                board.push_uci(m)
            except ValueError:
                return "illegal in py-draughts"
        kinds = {e.kind for e in outcome.events}
        if "won" in kinds:
            if board.legal_moves:
                return "py-draughts game not over"
            # its side to move lost: WHITE (our Black) to move -> our White won (0-1)
            from draughts.models import Color
            ours_black_won = outcome.scores[0] > outcome.scores[1]
            if (board.turn == Color.WHITE) == ours_black_won:
                return "winner differs"
        return None

    def replay_all(self, items) -> None:
        """The timed loop: a fresh board, then every move through ``push_uci``
        (which matches the move against py-draughts' legal moves)."""
        board_class = self.Board
        for moves in items:
            board = board_class()
            push = board.push_uci
            for m in moves:
                push(m)
