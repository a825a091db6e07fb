"""What a game shows on the pages, given by its engine as plain data.

The engines own every piece of game knowledge the site and the CLI show: the game's
name and summary, the words for one record row and the seats' roles
(:class:`Vocabulary`: "deal" and "dealer" in the card games, "game" and the colours
in checkers), its options in sentences, the cards that count in a trick, and a
deal's replay as typed steps (:class:`Trick`, :class:`Exchange`, :class:`Turn`,
:class:`Ply`, :class:`Move`) with its notes. The reports only render them.

Every sentence is a :class:`Message`: a catalogue msgid marked with :func:`N_`
(``pybabel extract`` reads this package too) and its parameters, which the pages
translate and fill in. Parameters are typed so a renderer knows what they are: a
:class:`Seat` becomes the player's name, a :class:`Card` or :class:`Cards` card
names, a number is formatted for the page's locale, text is shown as it is.

Nothing here is built on the replay hot path: :meth:`Game.replay_steps
<tourney.engines.base.Game.replay_steps>` runs only when a page asks for a deal.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..cards import CARD_NAMES, SUIT_NAMES
from ..errors.words import (  # noqa: F401  (the words' home; re-exported)
    N_,
    UNKNOWN_NAMES,
    Message,
    Quoted,
    Seat,
    did_you_mean,
    either_words,
    not_a_card,
    or_words,
    then_words,
    unknown_name_words,
)


class Card(int):
    """A message parameter naming one card (0..51); shown as its name."""

    __slots__ = ()

    def english(self) -> str:
        return CARD_NAMES[self]


class Cards(tuple):
    """A message parameter naming several cards; shown as their names."""

    __slots__ = ()

    def english(self) -> str:
        return ", ".join(CARD_NAMES[c] for c in self)


# ------------------------------------------------------------- errors in words
# An engine's or the record reader's error is raised with a Message (a RecordError
# or IllegalMove keeps it as ``words`` beside its English ``message``), built only
# when the error is raised. Parameters: card tokens, player names and numbers as
# they are, Card/Cards where a page should name the cards, and a nested Message for
# words inside a sentence (a seat, a suit, a reason), so nothing English is left.

def seat_words(seat: int) -> Message:
    """``seat 3`` for the 0-based seat 2, as an error says it (English as
    :func:`tourney.errors.seats.seat_text`)."""
    return Message(N_("seat %(number)s"), {"number": seat + 1})


def seats_words(seats) -> Message:
    """``seat 2`` for one seat, ``seats 2, 3`` for several (0-based given; English as
    :func:`tourney.errors.seats.seats_text`)."""
    seats = list(seats)
    if len(seats) == 1:
        return seat_words(seats[0])
    return Message(N_("seats %(numbers)s"), {"numbers": [s + 1 for s in seats]})


def dealer_not_a_seat(n: int, dealer: str | Message) -> Message:
    """The one wording of a dealer who is not one of the seats."""
    return Message(N_("the dealer must be one of the %(n)s seats, not %(dealer)s"),
                   {"n": n, "dealer": dealer})


def record_goes_on() -> Message:
    """A record with moves after its deal is over (every game's replay)."""
    return Message(N_("the deal is already over; the record goes on"))


def record_stops(moves: int) -> Message:
    """A record that ends before its deal is over (every game's replay)."""
    return Message(N_("the record stops before the deal is over (after %(n)s moves)"), {"n": moves})


def suit_words(suit: int) -> Message:
    """A suit's name (0 spades .. 3 clubs) as words a page translates: the English
    names of tourney.cards, which the catalogue has (marked for the site's card
    names in reports/translated_words.py)."""
    return Message(SUIT_NAMES[suit])


def message_json(message: Message) -> dict:
    """A message as JSON (a stored error's words), its parameters tagged with their
    types: ``{"msgid": ..., "params": {"n": 3, "card": {"card": 10}}}``."""
    data = {"msgid": message.msgid,
            "params": {k: _param_json(v) for k, v in message.params.items()}}
    if not message.translate:
        data["translate"] = False
    return data


def _param_json(value):
    if isinstance(value, Message):
        return {"message": message_json(value)}
    for kind in (Seat, Card):
        if isinstance(value, kind):
            return {kind.__name__.lower(): int(value)}
    if isinstance(value, Quoted):
        return {"quoted": str(value)}
    if isinstance(value, Cards):
        return {"cards": [int(c) for c in value]}
    return value


def message_from_json(data: dict) -> Message:
    """The message :func:`message_json` wrote."""
    return Message(data["msgid"], {k: _param_from_json(v)
                                   for k, v in (data.get("params") or {}).items()},
                   translate=data.get("translate", True))


def _param_from_json(value):
    if isinstance(value, dict):
        if "message" in value:
            return message_from_json(value["message"])
        if "seat" in value:
            return Seat(value["seat"])
        if "card" in value:
            return Card(value["card"])
        if "cards" in value:
            return Cards(value["cards"])
        if "quoted" in value:
            return Quoted(value["quoted"])
    return value


@dataclass(frozen=True)
class Vocabulary:
    """How pages name one record row (a deal, a game) and the seats' roles."""

    deal: str  # "Deal %(n)s": a row's title
    deal_heading: str  # "round %(r)s, table %(t)s, deal %(n)s"
    deals: str  # "Deals": a heading over a match's rows
    deal_column: str  # "Deal": a column over row numbers
    deals_nav: str  # "Deals of this match": the label of the row pager
    seat_note: str  # what seat 1 does first: "Seat 1 deals the first deal."
    role: str  # the column naming each row's role holder: "Dealer", "Black"
    version_note: str  # a match result's version and how many rows were checked
    score_sheet_note: str  # what a row from a score sheet is


CARD_GAME_WORDS = Vocabulary(
    deal=N_("Deal %(n)s"),
    deal_heading=N_("round %(r)s, table %(t)s, deal %(n)s"),
    deals=N_("Deals"),
    deal_column=N_("Deal"),
    deals_nav=N_("Deals of this match"),
    seat_note=N_("Seat 1 deals the first deal."),
    role=N_("Dealer"),
    version_note=N_("Version %(version)s of this result: %(deals)s deals, %(verified)s of "
                    "them checked move by move."),
    score_sheet_note=N_("A score-sheet deal has only its scores: they were checked for being "
                        "possible, and it has no replay."),
)

BOARD_GAME_WORDS = Vocabulary(
    deal=N_("Game %(n)s"),
    deal_heading=N_("round %(r)s, table %(t)s, game %(n)s"),
    deals=N_("Games"),
    deal_column=N_("Game"),
    deals_nav=N_("Games of this match"),
    seat_note=N_("Seat 1 plays Black in the first game."),
    role=N_("Black"),
    version_note=N_("Version %(version)s of this result: %(deals)s games, %(verified)s of "
                    "them checked move by move."),
    score_sheet_note=N_("A game from a score sheet has only its result: it was checked for "
                        "being possible, and it has no replay."),
)


# ------------------------------------------------------------------------ replay steps

@dataclass
class Note:
    """A rule-relevant event of a deal (queen taken, moon, huff...) in words,
    attached to the step it happened in."""

    move: int  # the move after which it happened (0: before play)
    seat: int | None
    kind: str  # the engine's event kind, for styling
    message: Message


@dataclass
class Trick:
    number: int
    leader: int
    cards: list  # per seat: the card played, or None
    order: list[int]  # seats in playing order
    winner: int
    counting: list[int]  # the cards of the trick that score
    events: list[Note] = field(default_factory=list)


@dataclass
class Exchange:
    number: int
    attacker: int
    defender: int | None
    pairs: list[tuple[int, int | None]]  # (attack card, the card that beat it or None)
    hands_after: list[list[int]] | None
    stock_left: int | None
    events: list[Note] = field(default_factory=list)

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
    events: list[Note] = field(default_factory=list)


@dataclass
class Ply:
    number: int
    side: int | None
    token: str
    kind: str  # "start", "step", "capture", "huff", "result"
    squares: tuple[int, ...]
    board: list[list[str]] | None  # 8 rows of 8 cells: "" light, "." empty, b w B W
    events: list[Note] = field(default_factory=list)


@dataclass
class Move:
    number: int
    seat: int | None
    token: str
    events: list[Note] = field(default_factory=list)


@dataclass
class ReplaySteps:
    """A deal step by step, as its engine tells it.

    ``kind`` names the shape of the steps and so the page that shows them:
    ``tricks``, ``exchanges``, ``turns``, ``board`` or ``moves`` (a plain list,
    which every game can give). The other fields are what that shape shows beside
    the steps; a game leaves the ones it has no use for empty.
    """

    kind: str
    steps: list = field(default_factory=list)
    notes: list[Note] = field(default_factory=list)
    hands: list[list[int]] | None = None  # as dealt, in the order a player holds them
    secrets: list[list[int]] | None = None
    passes: list[list[int]] | None = None
    pass_direction: str | None = None  # "left", "right", "across", "none"
    received: list[list[int]] | None = None  # hands after passing
    stock: list[int] | None = None  # the record's stock, top first
    stock_label: str | None = None  # what the record's stock is ("Set aside unseen:")
    trump: int | None = None  # the trump indicator card
    final_rows: list[list[int]] | None = None
    sampled: bool = False  # boards shown for a selection of plies only
    places: list[int] | None = None
    scores: list | None = None  # the engine's scores, when the record has none


def square_at(row: int, col: int) -> int | None:
    """The square (1-32) of a cell of a ``board`` step (8x8, numbered on the dark
    squares from the top row), ``None`` for a light square."""
    if (row + col) % 2 == 0:
        return None
    return row * 4 + col // 2 + 1


def attach_notes(steps: list, notes: list[Note], step_of_move) -> None:
    """Put each note on the step it happened in (``step_of_move(move)`` gives the
    step's index, or ``None`` for a note of the whole deal)."""
    for note in notes:
        index = step_of_move(note.move) if note.move > 0 else None
        if index is not None and 0 <= index < len(steps):
            steps[index].events.append(note)


def display_hand(cards) -> list[int]:
    """Cards in the order a player holds them: spades, hearts, diamonds, clubs,
    high to low within a suit."""
    return sorted(cards, key=lambda c: (c // 13, -(c % 13)))


# ------------------------------------------------------------------ rules in force

def rules_sentence(games, rules=None, event: str | None = None) -> Message:
    """Which rules a check used, as ``tourney validate`` says it: ``games`` are the
    variant ids the records were checked with, ``rules`` the house rules given
    (key -> value as given), ``event`` the event whose rules they are, if any.
    Command-line words (English, not catalogue messages): :meth:`Message.english`."""
    games = list(games)
    options = ", ".join(f"{key}={value}" for key, value in sorted((rules or {}).items()))
    params = {"event": event, "game": ", ".join(games), "options": options}
    if event is not None:
        if options:
            return _cli("checked with the rules of event %(event)s (%(game)s with "
                        "%(options)s)", params)
        return _cli("checked with the rules of event %(event)s (%(game)s's default rules)",
                    params)
    if not games:
        return _cli("no deal was checked, so no rules were used", params)
    if len(games) > 1:
        if options:
            return _cli("checked with each variant's rules (%(game)s) with %(options)s", params)
        return _cli("checked with each variant's default rules (%(game)s)", params)
    if options:
        return _cli("checked with %(game)s's rules with %(options)s", params)
    return _cli("checked with %(game)s's default rules", params)


def _cli(text: str, params: dict) -> Message:
    return Message(text, params, translate=False)


__all__ = [
    "BOARD_GAME_WORDS", "CARD_GAME_WORDS", "Card", "Cards", "Exchange", "Message", "Move",
    "N_", "Note", "Ply", "ReplaySteps", "Seat", "Trick", "Turn", "Vocabulary",
    "attach_notes", "display_hand", "rules_sentence", "square_at",
]


# ------------------------------------------------------------------ option sentences
# Each option in words as it is in force ("%(n)s": the value, formatted as a number
# on the page); ``None``: the option states nothing (no fixed number of deals). An
# OptionSpec carries its sentence; these are the ones several games share.

def deals_sentence(value) -> Message | None:
    if value is None:
        return None
    if value == 1:  # the singular has a sentence of its own ("1 deals" reads wrong)
        return Message(N_("A match is one deal."))
    return Message(N_("A match is %(n)s deals, with no extra deals on a tie."), {"n": value})


def target_sentence(value) -> Message | None:
    if value is None:
        return None
    return Message(N_("A match ends with the deal in which a player's total reaches %(n)s."),
                   {"n": value})


def target_tie_extra_sentence(value) -> Message | None:
    if value is None:
        return None
    return Message(N_("A match ends with the deal in which a player's total reaches %(n)s, "
                      "unless the lowest total is shared: then extra deals are played."),
                   {"n": value})


_DEALER_SENTENCES = {
    "rotate": N_("The deal passes clockwise."),
    "loser-deals": N_("The loser of a deal deals the next one."),
    "free": N_("The dealer is chosen freely."),
}


def dealer_sentence(value) -> Message | None:
    msgid = _DEALER_SENTENCES.get(value)
    return Message(msgid) if msgid else Message(N_("Dealer: %(value)s"), {"value": value})


def flag_sentence(on: str | None, off: str | None = None):
    """The sentence of a true/false option: ``on`` when set, ``off`` when not
    (``None``: that state states nothing)."""
    def sentence(value) -> Message | None:
        msgid = on if value else off
        return Message(msgid) if msgid else None
    return sentence


def amount_sentence(msgid: str, zero: str | None = None):
    """The sentence of a points option: ``msgid`` with the amount, ``zero`` while it
    is 0 (``None``: 0 states nothing)."""
    def sentence(value) -> Message | None:
        if value:
            return Message(msgid, {"n": value})
        return Message(zero) if zero else None
    return sentence
