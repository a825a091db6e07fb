"""The common interface of the game engines.

Modelled on python-chess: plain data (:class:`DealSetup`, the per-game state object,
moves as small ints or tuples), move generation and legality (:meth:`Game.legal_moves`,
:meth:`Game.play`) kept apart from notation (:meth:`Game.parse_move`,
:meth:`Game.format_move`). A :class:`Game` object holds no per-deal state; it is a
stateless rule book, so one instance serves every deal and thread.

Every engine module defines one subclass of :class:`Game` (or one parametrised class
with presets) and nothing here imports storage, CLI or reports.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from ..errors import IllegalMove, OptionError, RecordError, TourneyError
from ..errors.words import quoted
from .presentation import (
    CARD_GAME_WORDS,
    N_,
    Message,
    Move,
    Note,
    ReplaySteps,
    Seat,
    Vocabulary,
    attach_notes,
    dealer_sentence,
    deals_sentence,
    record_goes_on,
    record_stops,
)

# --------------------------------------------------------------------------- options

# No match comes near it (a dam-stick match to 100 takes some 20 deals); the
# engines' `deals` option, the record checker and the importer share this bound.
MAX_DEALS_PER_MATCH = 1000
# Any whole-number option (a points target, a hand size) stays below this unless
# its spec says less: a stored INTEGER is 32-bit on PostgreSQL, and a typo such as
# deals=99999999999999999999 must be refused when it is given, not grow a
# score sheet forever.
MAX_INT_OPTION = 1_000_000


def parse_yes_no(raw: Any) -> bool | None:
    """A bool as written (a game's option, a rating pool's setting): true/yes/1/on
    or false/no/0/off (any case, spaces around ignored), or a bool itself; ``None``
    for anything else. The one reading of a yes/no value."""
    if isinstance(raw, bool):
        return raw
    text = str(raw).strip().lower()
    if text in ("true", "yes", "1", "on"):
        return True
    if text in ("false", "no", "0", "off"):
        return False
    return None


@dataclass(frozen=True)
class OptionSpec:
    """One option (house rule) of a game.

    ``kind`` is ``"int"``, ``"bool"`` or ``"choice"``. ``default`` of ``None`` means
    "not set" (e.g. no ``target`` unless the event names one). ``sentence`` states
    a value in words for the pages (a :class:`~.presentation.Message`, or ``None``
    where the value states nothing).
    """

    key: str
    kind: str
    default: Any
    doc: str
    choices: tuple = ()
    minimum: int | None = None
    maximum: int = MAX_INT_OPTION
    sentence: Callable[[Any], Message | None] | None = field(default=None, compare=False)

    def parse(self, raw: Any) -> Any:
        if raw is None:
            return None
        if self.kind == "bool":
            value = parse_yes_no(raw)
            if value is None:
                raise OptionError(Message(N_("option %(key)s takes true or false, not %(value)s"),
                                          {"key": self.key, "value": quoted(raw)}), key=self.key)
            return value
        if self.kind == "int":
            try:
                value = int(str(raw).strip())
            except ValueError:
                raise OptionError(Message(N_("option %(key)s takes a whole number, not %(value)s"),
                                          {"key": self.key, "value": quoted(raw)}),
                                  key=self.key) from None
            if self.minimum is not None and value < self.minimum:
                raise OptionError(Message(N_("option %(key)s must be at least %(limit)s, not "
                                             "%(value)s"),
                                          {"key": self.key, "limit": self.minimum, "value": value}),
                                  key=self.key)
            if abs(value) > self.maximum:
                raise OptionError(Message(N_("option %(key)s must be at most %(limit)s, not "
                                             "%(value)s"),
                                          {"key": self.key, "limit": self.maximum, "value": value}),
                                  key=self.key)
            if self.choices and value not in self.choices:
                raise self.not_a_choice(value)
            return value
        text = str(raw).strip()
        if text not in [str(c) for c in self.choices]:
            raise self.not_a_choice(quoted(raw))
        for c in self.choices:
            if str(c) == text:
                return c
        return text  # pragma: no cover

    def not_a_choice(self, value) -> OptionError:
        """A value that is none of the choices (``value`` as the refusal shows it)."""
        allowed = ", ".join(str(c) for c in self.choices)
        return OptionError(Message(N_("option %(key)s takes one of %(allowed)s, not %(value)s"),
                                   {"key": self.key, "allowed": allowed, "value": value}),
                           key=self.key)

    def format(self, value: Any) -> str:
        """A value as ``--rule KEY=VALUE`` takes it: ``true``/``false``, a number, a
        choice; ``not set`` for ``None``."""
        if value is None:
            return "not set"
        if self.kind == "bool":
            return "true" if value else "false"
        return str(value)

    def describe(self) -> dict:
        return {
            "key": self.key,
            "kind": self.kind,
            "default": self.default,
            "choices": list(self.choices),
            "doc": self.doc,
        }


# ------------------------------------------------------------------ deals and matches

@dataclass
class DealSetup:
    """What a record says about a deal before the first move.

    ``hands`` are the cards as dealt (before passing), per seat; for the row games
    they are the row positions left to right and ``secrets`` the secret card(s) per
    seat (``None`` where the record has no ``|`` part). ``stock`` is top first.
    ``passes`` are the cards each seat passes (``spardame``). ``dealer`` is a seat
    index, or ``None`` for games without one. Fields a game does not use are
    ``None``.
    """

    nplayers: int
    dealer: int | None = None
    hands: list[list[int]] | None = None
    secrets: list[list[int]] | None = None
    stock: list[int] | None = None
    passes: list[list[int]] | None = None
    deal_number: int = 1


@dataclass
class DealEvent:
    """A rule-relevant event for the replay pages: queen taken, moon shot, huff."""

    move: int  # 1-based move number after which it happened (0: before play)
    seat: int | None
    kind: str  # short id: "queen-taken", "moon", "huff", "out", "crowned", ...
    text: str  # English words; pages may translate by kind


@dataclass
class DealOutcome:
    """The result of replaying a deal (or checking a score sheet)."""

    scores: list  # one number per seat: ints for card games, 1/0.5/0 for dam-brade
    places: list[int]  # finishing place per seat, 1 = best; shared places repeat
    verified: str = "moves"  # "moves" or "scores"
    events: list[DealEvent] = field(default_factory=list)
    moves: int = 0


class LazyEventsOutcome(DealOutcome):
    """A :class:`DealOutcome` whose ``events`` are built when first read.

    Replay is the hot path of imports and validation, which never read events (the
    site's replay pages do), so an engine hands over ``events_of`` and its
    arguments ``events_args`` instead of a list: ``events_of(*events_args)`` runs
    once, on the first read of ``events``, and later reads get that same list. It
    is otherwise a DealOutcome: the same fields and constructor (a given
    ``events`` list is used as is), ``events`` may be assigned, and it equals any
    DealOutcome with the same values.
    """

    def __init__(self, scores: list, places: list[int], verified: str = "moves",
                 events: list[DealEvent] | None = None, moves: int = 0,
                 events_of: Callable[..., list[DealEvent]] | None = None,
                 events_args: tuple = ()):
        self.scores = scores
        self.places = places
        self.verified = verified
        self.moves = moves
        if events is None and events_of is None:
            events = []
        self._events = events
        self._events_of = events_of
        self._events_args = events_args

    @property
    def events(self) -> list[DealEvent]:
        events = self._events
        if events is None:
            events = self._events = self._events_of(*self._events_args)
        return events

    @events.setter
    def events(self, value: list[DealEvent]) -> None:
        self._events = value

    def __eq__(self, other):
        if not isinstance(other, DealOutcome):
            return NotImplemented
        return ((self.scores, self.places, self.verified, self.events, self.moves)
                == (other.scores, other.places, other.verified, other.events, other.moves))

    __hash__ = None  # mutable, like DealOutcome


@dataclass(frozen=True)
class MatchRules:
    """How a match of this game is played, after options are resolved.

    ``deals``: fixed number of deals, no extra deals. ``target``: the deal in which
    some seat's running total reaches it is the last (``tie_extra``: unless the best
    total is shared, then deals go on until it is not). ``losses``: svarta-maja; the
    match ends after the deal in which some seat reaches this many lost deals.
    ``dealer``: ``rotate`` (clockwise), ``loser-deals``, ``free`` or ``None`` (no
    dealer). ``higher_is_better``: dam-brade game points. ``alternate_colours``:
    each game lists that game's first player (Black) first, so players may come
    in reversed order.
    """

    deals: int | None = None
    target: int | None = None
    losses: int | None = None
    tie_extra: bool = False
    dealer: str | None = "rotate"
    higher_is_better: bool = False
    alternate_colours: bool = False


# ------------------------------------------------------------------------- the game

class Game:
    """A rule book: stateless; deals live in state objects it creates.

    Get one with :func:`tourney.engines.get_game`, then play a deal as with
    python-chess::

        game = get_game("spardame")
        options = game.resolve_options({"pass": "cycle"})  # house rules, text values
        state = game.new_deal(game.random_setup(4, 0, 1, options, random.Random(1)),
                              options)
        while not game.is_over(state):
            move = game.legal_moves(state)[0]
            print(game.to_move(state), game.format_move(move))  # seat from 0, "2C"
            game.play(state, move)
        print(game.outcome(state).scores)

    Moves are whatever the engine finds fastest (an int 0..51 for a card, an int
    for a row turn, tuples for a svarta-maja exchange and a checkers move); only
    :meth:`parse_move` and :meth:`format_move` turn them into text and back.
    Seats are counted from 0 here, as in every data type of the library; the
    state object is the engine's own (read it through these methods).

    A new game subclasses it, sets the class attributes and implements the
    methods whose docstring says "every game implements it".
    """

    id: str = ""
    name: str = ""
    # The rules in a few sentences, for `tourney variants VARIANT` (the user guide's
    # "The games" page has them in full). Seats are counted from 1 here, as users do.
    summary: str = ""
    min_players: int = 2
    max_players: int = 2
    preferred_players: int | None = None
    option_specs: tuple[OptionSpec, ...] = ()
    # Whether a record of this game names a dealer (a column of the record).
    uses_dealer: bool = True
    higher_is_better: bool = False
    # True where one move involves several seats (a svarta-maja exchange is the
    # attack and the defence): bots then get every seat's skill, not one.
    move_spans_seats: bool = False

    # ---- presentation (tourney.engines.presentation): catalogue msgids, shown
    # translated by the pages and in English by the CLI
    title: str = ""  # the game's name
    tagline: str = ""  # the game in one sentence, for the site
    vocabulary: Vocabulary = CARD_GAME_WORDS
    # Names of the seats' roles by their place in a record's ``players`` where the
    # seats have colours (checkers: Black, White); empty where a dealer has the role.
    seat_roles: tuple[str, ...] = ()

    # ---- options

    def resolve_options(self, raw: Mapping[str, Any] | None = None) -> dict:
        """Defaults filled in, values parsed and checked; unknown keys refused."""
        specs = {s.key: s for s in self.option_specs}
        options = {s.key: s.default for s in self.option_specs}
        for key, value in (raw or {}).items():
            spec = specs.get(key)
            if spec is None:
                said = {"variant": self.id, "key": quoted(key), "known": ", ".join(sorted(specs))}
                raise OptionError(Message(N_("%(variant)s has no option %(key)s (options: "
                                             "%(known)s)"), said) if specs else
                                  Message(N_("%(variant)s has no option %(key)s (it has no "
                                             "options)"), said), key=str(key))
            options[key] = spec.parse(value)
        self.check_options(options)
        return options

    def check_options(self, options: dict) -> None:
        """Cross-option checks; raise :class:`OptionError`."""
        if options.get("deals") is not None and options.get("target") is not None:
            raise self.options_exclude("deals", "target")

    def options_exclude(self, first: str, second: str) -> OptionError:
        """Two options set that exclude each other (each names an end of the match)."""
        return OptionError(Message(N_("%(variant)s: options %(first)s and %(second)s exclude "
                                      "each other"),
                                   {"variant": self.id, "first": first, "second": second}))

    def match_rules(self, options: dict) -> MatchRules:
        """The match rules (:class:`MatchRules`) these resolved options give. Every
        game implements it."""
        raise NotImplementedError

    # ---- a deal

    def new_deal(self, setup: DealSetup, options: dict):
        """The state before the first move of the deal ``setup`` describes, under
        ``options`` (from :meth:`resolve_options`); the setup is checked first.
        Every game implements it.

        Raises :class:`RecordError` with ``column`` (``hands``, ``stock``,
        ``passes``, ``dealer``, ``players``) and ``rule`` set.
        """
        raise NotImplementedError

    def to_move(self, state) -> int | None:
        """The seat (from 0) whose move it is; ``None`` when the deal is over. Every
        game implements it."""
        raise NotImplementedError

    def legal_moves(self, state) -> list:
        """Every legal move in this position, as moves (:meth:`format_move` gives
        their notation); empty when the deal is over. Every game implements it."""
        raise NotImplementedError

    def play(self, state, move) -> None:
        """Apply ``move`` (a move, not its notation: :meth:`parse_move`) to
        ``state`` in place; :class:`IllegalMove` (its ``rule`` an id such as
        ``follow-suit``) if the rules forbid it. Every game implements it."""
        raise NotImplementedError

    def is_over(self, state) -> bool:
        """Whether the deal is over (then :meth:`outcome` has its scores). Every
        game implements it."""
        raise NotImplementedError

    def outcome(self, state) -> DealOutcome:
        """The :class:`DealOutcome` of a finished deal: scores, places and events,
        per seat from 0. Every game implements it."""
        raise NotImplementedError

    # ---- notation

    def parse_move(self, token: str):
        """The move a token of the record's ``play`` column spells (``QS``,
        ``7D,9D/JD,4H``, ``S3``, ``11-15``; docs/guide/records.md, "Moves");
        :class:`IllegalMove` with rule ``notation`` when the token is not a move
        at all. Whether the move is legal is :meth:`play`'s business. Every game
        implements it."""
        raise NotImplementedError

    def format_move(self, move) -> str:
        """A move's notation, as a record writes it: the inverse of
        :meth:`parse_move`. Every game implements it."""
        raise NotImplementedError

    def canonical_token(self, token: str) -> str:
        """A token as the record writes it (``qs`` gives ``QS``)."""
        return self.format_move(self.parse_move(token))

    # ---- replay: the hot path

    def replay(self, setup: DealSetup, tokens: Sequence[str], options: dict) -> DealOutcome:
        """Replay a record move by move; :class:`RecordError` names the move."""
        state = self.new_deal(setup, options)
        parse, play, is_over, to_move = self.parse_move, self.play, self.is_over, self.to_move
        for number, token in enumerate(tokens, 1):
            if is_over(state):
                raise RecordError(
                    record_goes_on(),
                    rule="record-too-long", column="play", move=number, token=token,
                )
            seat = to_move(state)
            try:
                play(state, parse(token))
            except IllegalMove as err:
                raise RecordError.from_illegal(
                    err, column="play", move=number, seat=seat, token=token
                ) from None
        if not is_over(state):
            raise RecordError(
                record_stops(len(tokens)),
                rule="record-incomplete", column="play",
            )
        return self.outcome(state)

    # ---- score sheets (docs/guide/records.md, "Score sheets")

    def check_score_sheet(self, setup: DealSetup, scores: list, options: dict) -> DealOutcome:
        """Are these claimed scores (per seat from 0) possible? :class:`IllegalMove`
        (rule ``score-sheet-...``) saying why not; else the outcome, verified
        ``"scores"``. Every game implements it."""
        raise NotImplementedError

    def parse_score(self, text: str):
        """One seat's score as written in ``scores``."""
        return int(text)

    def negative_scores(self, options: dict) -> bool:
        """Can a seat score below 0 under these house rules? (A score form then
        needs a keyboard with a minus sign.) Yes unless the game says otherwise."""
        return True

    def format_score(self, value) -> str:
        return str(value)

    def check_player_count(self, nplayers) -> None:
        """:class:`RecordError` (rule ``player-count``) unless the game is played by
        ``nplayers`` (:attr:`min_players` to :attr:`max_players`)."""
        if type(nplayers) is not int or not self.min_players <= nplayers <= self.max_players:
            raise RecordError(Message(N_("%(game)s is played by %(low)s to %(high)s players, "
                                         "not %(n)s"),
                                      {"game": self.id, "low": self.min_players,
                                       "high": self.max_players, "n": nplayers}),
                              rule="player-count", column="players")

    # ---- simulation (bots)

    def random_setup(self, nplayers: int, dealer: int | None, deal_number: int,
                     options: dict, rng: random.Random) -> DealSetup:
        """A shuffled legal deal (including passes where the game has them) for
        ``nplayers`` seats, ``dealer`` a seat from 0 (``None`` for a game without
        one), drawn from ``rng``. Every game implements it."""
        raise NotImplementedError

    def choose_move(self, state, rng: random.Random, skill: float = 1.0):
        """A bot's move: a sensible heuristic with probability ``skill``, else a
        uniformly random legal move. Where :attr:`move_spans_seats`, ``skill`` is a
        per-seat sequence. Every game implements it."""
        raise NotImplementedError

    # ---- presentation

    def role_seat(self, dealer: int | None) -> int | None:
        """The seat whose role :attr:`vocabulary` ``.role`` names in a deal: the
        dealer, or the seat of the first colour (a record lists it first)."""
        return 0 if self.seat_roles else dealer

    def option_sentence(self, key: str, value: Any) -> Message | None:
        """An option as it is in force, in words; ``None`` when it states nothing."""
        for spec in self.option_specs:
            if spec.key == key:
                return spec.sentence(value) if spec.sentence is not None else None
        return None

    def counting_cards(self, cards: Sequence[int]) -> list[int]:
        """The cards among ``cards`` that score (shown beside a trick)."""
        return []

    def replay_steps(self, setup: DealSetup, tokens: Sequence[str], options: dict) -> ReplaySteps:
        """A deal step by step for its replay page (built only when a page asks;
        never on the replay hot path). :class:`~tourney.errors.TourneyError` for a
        record the rules refuse. This default lists the moves with their seats; a
        game with more to show (tricks, rows, a board) overrides it."""
        state = self.new_deal(setup, options)
        moves = []
        for number, token in enumerate(tokens, 1):
            seat = self.to_move(state)
            self.play(state, self.parse_move(token))
            moves.append(Move(number, seat, token))
        steps = ReplaySteps("moves", moves)
        self.finish_steps(state, steps, options, lambda move: move - 1)
        return steps

    def move_list(self, setup: DealSetup, tokens: Sequence[str], options: dict) -> list[Move]:
        """The record's moves with the seat of each as far as the rules follow
        them: the page of a deal whose replay failed."""
        seat: int | None = None
        try:
            state = self.new_deal(setup, options)
        except TourneyError:
            state = None
        moves = []
        for number, token in enumerate(tokens, 1):
            if state is not None:
                try:
                    seat = self.to_move(state)
                    self.play(state, self.parse_move(token))
                except TourneyError:
                    state, seat = None, None
            moves.append(Move(number, seat, token))
        return moves

    def finish_steps(self, state, steps: ReplaySteps, options: dict, step_of_move) -> DealOutcome:
        """Fill in the outcome's places, scores and notes, each note on its step
        (``step_of_move(move)``: the index in ``steps.steps`` of a move's step)."""
        outcome = self.outcome(state)
        steps.places = list(outcome.places)
        steps.scores = list(outcome.scores)
        steps.notes = []
        for event in outcome.events:  # one by one: a note may depend on the ones before
            steps.notes.append(self.note(event, steps, options))
        attach_notes(steps.steps, steps.notes, step_of_move)
        return outcome

    def note(self, event: DealEvent, steps: ReplaySteps, options: dict) -> Note:
        """An event in words: the game's sentence for its kind (:attr:`event_sentences`,
        with the seat as ``player``), else the engine's English text as it is."""
        msgid = self.event_sentences.get(event.kind)
        if msgid is None:
            return Note(event.move, event.seat, event.kind, Message(event.text, translate=False))
        params = {} if event.seat is None else {"player": Seat(event.seat)}
        return Note(event.move, event.seat, event.kind, Message(msgid, params))

    # kind -> msgid of the events whose only parameter is the seat (``%(player)s``)
    event_sentences: dict[str, str] = {}

    # ---- description

    def describe(self) -> dict:
        return {
            "id": self.id,
            "name": self.name,
            "summary": self.summary,
            "players": [self.min_players, self.max_players],
            "options": [s.describe() for s in self.option_specs],
        }


def places_from_scores(scores: Sequence, higher_is_better: bool = False) -> list[int]:
    """Competition places (1, 2, 2, 4) from per-seat scores."""
    sign = -1 if higher_is_better else 1
    keyed = [sign * s for s in scores]
    return [1 + sum(1 for other in keyed if other < mine) for mine in keyed]


def deal_option(key: str, doc: str = "a fixed number of deals (no extra deals on a tie)") -> OptionSpec:
    return OptionSpec(key, "int", None, doc, minimum=1, maximum=MAX_DEALS_PER_MATCH,
                      sentence=deals_sentence)


def dealer_option(choices: tuple, doc: str) -> OptionSpec:
    return OptionSpec("dealer", "choice", choices[0], doc, choices=choices,
                      sentence=dealer_sentence)


