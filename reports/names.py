"""Names the pages show that come from the catalogue rather than the database: cards,
suits, ranks, games, statuses and the options (house rules) in words.

Every string here is marked with ``N_`` (or is a ``pgettext`` call site's msgid) so
``pybabel extract`` puts it in ``messages.pot``; a translator can write "spader dam"
for "queen of spades" and "D" for the queen's rank letter. :class:`Names` holds one
language's translations, looked up once per publish, not per card.

Card HTML is built here, from these constants and the catalogue only (never from
user text), as ``<abbr class="card ..." title="queen of spades">Q♠</abbr>``: the
symbol form reads at a glance, the title gives the words, and hearts and diamonds
are red through the stylesheet.
"""
from __future__ import annotations

from gettext import NullTranslations
from typing import Any

from markupsafe import Markup

from tourney.cards import CARD_NAMES, SUIT_SYMBOLS

from .i18n import N_

SUIT_IDS = (N_("spades"), N_("hearts"), N_("diamonds"), N_("clubs"))
SUIT_CLASS = ("s", "h", "d", "c")

# Rank letters are translated with the context "card rank": "Q" may become "D" (dam).
RANK_IDS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")

CARD_NAME_IDS = (
    N_("two of spades"), N_("three of spades"), N_("four of spades"), N_("five of spades"),
    N_("six of spades"), N_("seven of spades"), N_("eight of spades"), N_("nine of spades"),
    N_("ten of spades"), N_("jack of spades"), N_("queen of spades"), N_("king of spades"),
    N_("ace of spades"),
    N_("two of hearts"), N_("three of hearts"), N_("four of hearts"), N_("five of hearts"),
    N_("six of hearts"), N_("seven of hearts"), N_("eight of hearts"), N_("nine of hearts"),
    N_("ten of hearts"), N_("jack of hearts"), N_("queen of hearts"), N_("king of hearts"),
    N_("ace of hearts"),
    N_("two of diamonds"), N_("three of diamonds"), N_("four of diamonds"),
    N_("five of diamonds"), N_("six of diamonds"), N_("seven of diamonds"),
    N_("eight of diamonds"), N_("nine of diamonds"), N_("ten of diamonds"),
    N_("jack of diamonds"), N_("queen of diamonds"), N_("king of diamonds"),
    N_("ace of diamonds"),
    N_("two of clubs"), N_("three of clubs"), N_("four of clubs"), N_("five of clubs"),
    N_("six of clubs"), N_("seven of clubs"), N_("eight of clubs"), N_("nine of clubs"),
    N_("ten of clubs"), N_("jack of clubs"), N_("queen of clubs"), N_("king of clubs"),
    N_("ace of clubs"),
)

GAME_NAMES = {
    "svarta-maja": N_("Svarta Maja (Spader dam)"),
    "kortrad": N_("Dam med kortrad (Korpen)"),
    "sju-dolda": N_("Dam med sju dolda kort"),
    "dam-stick": N_("Dam, the queens trick game"),
    "spardame": N_("Spardame (Norwegian)"),
    "dam-brade": N_("Dam, the board game (checkers, Alga rules)"),
}

GAME_SUMMARIES = {
    "svarta-maja": N_("A shedding game with one loser: the player left holding the "
                      "queen of spades."),
    "kortrad": N_("Each player improves a row of face-down cards by swapping in cards "
                  "from the stock or the discard pile; the lowest points win."),
    "sju-dolda": N_("Each player improves a row of seven face-down cards by swapping in "
                    "cards from the stock or the discard pile; the lowest points win."),
    "dam-stick": N_("A trick game without trumps in which the queens are penalties; "
                    "the lowest total wins."),
    "spardame": N_("A trick game without trumps like hearts: every heart and the queen "
                   "of spades are penalties; cards are passed before play."),
    "dam-brade": N_("Checkers on the dark squares of an 8x8 board; a skipped capture "
                    "may be punished by a huff."),
}

STATUS_LABELS = {
    "upcoming": N_("Upcoming"),
    "running": N_("Running"),
    "finished": N_("Finished"),
}

SEATING_LABELS = {
    "balanced": N_("balanced (few repeated meetings)"),
    "swiss": N_("Swiss (equal scores meet)"),
    "random": N_("random"),
}

COLOUR_NAMES = (N_("Black"), N_("White"))

# Tiebreak column headings; an unknown tiebreak shows its id.
TIEBREAK_LABELS = {
    "score": N_("Relative score"),
    "buchholz": N_("Buchholz"),
    "wins": N_("Wins"),
    "matches": N_("Matches played"),
    "lot": N_("Lot"),
}

# What each tie-break means, for the note under the standings.
TIEBREAK_NOTES = {
    "score": N_("Relative score: the player's deal scores against the mean of their tables, "
                "summed (in the card games lower is better)."),
    "buchholz": N_("Buchholz: the match points of the opponents met, summed."),
    "wins": N_("Wins: the number of first places."),
    "matches": N_("Matches played: more ranks higher."),
    "lot": N_("Lot: a drawing of lots, seeded by the event."),
}


# Options in words. Each entry maps an option value to a sentence; "%(n)s" is the
# value formatted as a number in the page's locale. ``None`` values mean "not set".
def option_sentence(variant: str, key: str, value: Any) -> tuple[str, dict] | None:
    """The sentence (msgid, params) stating an option as it is in force; ``None``
    when the option states nothing (e.g. no fixed number of deals)."""
    if key == "hand_size":
        return N_("Hands of %(n)s cards, refilled from the stock while it lasts."), {"n": value}
    if key == "spade_trump":
        return ((N_("A spade may be the trump indicator; the queen of spades still beats "
                    "nothing and cannot be beaten."), {}) if value else
                (N_("A spade may not be the trump indicator."), {}))
    if key == "deals":
        if value is None:
            return None
        if value == 1:  # the singular has a sentence of its own ("1 deals" reads wrong)
            return N_("A match is one deal."), {}
        return N_("A match is %(n)s deals, with no extra deals on a tie."), {"n": value}
    if key == "games":
        if value is None:
            return None
        if value == 1:
            return N_("A match is one game."), {}
        return N_("A match is %(n)s games; the colours alternate."), {"n": value}
    if key == "losses":
        if value is None:
            return None
        if value == 1:
            return N_("A match ends after the first deal a player loses."), {}
        return (N_("A match ends after the deal in which a player has lost %(n)s deals."),
                {"n": value})
    if key == "target":
        if value is None:
            return None
        if variant == "dam-stick":
            return (N_("A match ends with the deal in which a player's total reaches %(n)s, "
                       "unless the lowest total is shared: then extra deals are played."),
                    {"n": value})
        return (N_("A match ends with the deal in which a player's total reaches %(n)s."),
                {"n": value})
    if key == "dealer":
        return {
            "rotate": (N_("The deal passes clockwise."), {}),
            "loser-deals": (N_("The loser of a deal deals the next one."), {}),
            "free": (N_("The dealer is chosen freely."), {}),
        }.get(value, (N_("Dealer: %(value)s"), {"value": value}))
    if key == "row":
        return N_("Rows of %(n)s cards that can be swapped."), {"n": value}
    if key == "secret":
        if not value:
            return N_("No secret card beside the row."), {}
        if value == 1:
            return N_("One secret card beside the row, never swapped."), {}
        return N_("%(n)s secret cards beside the row, never swapped."), {"n": value}
    if key == "no_queen_first_trick":
        return ((N_("No queen may be discarded on the first trick unless the hand holds "
                    "nothing else."), {}) if value else
                (N_("Queens may be discarded on the first trick."), {}))
    if key == "pass":
        return ((N_("Cards are passed left, right, across and not at all, by deal number."), {})
                if value == "cycle" else (N_("Cards are passed to the left every deal."), {}))
    if key == "protect_ace_hearts":
        return ((N_("The ace of hearts may not be passed."), {}) if value else None)
    if key == "qs_with_jd":
        return ((N_("The queen of spades may be passed only together with the jack of "
                    "diamonds."), {}) if value else
                (N_("The queen of spades may not be passed."), {}))
    if key == "three_no_twos":
        return ((N_("With three players all four twos are removed."), {}) if value else None)
    if key == "hearts_break":
        return ((N_("Hearts may not be led until a heart has been discarded."), {})
                if value else (N_("Any suit may be led, hearts included."), {}))
    if key == "no_points_first_trick":
        return ((N_("No heart or queen of spades on the first trick unless the hand holds "
                    "nothing else."), {}) if value else None)
    if key == "jd_bonus":
        if not value:
            return None
        return N_("The jack of diamonds scores %(n)s."), {"n": value}
    if key == "no_trick_bonus":
        if not value:
            return None
        return N_("A player who takes no trick scores %(n)s."), {"n": value}
    if key == "huff":
        return ((N_("A player who skipped a capture may lose only a piece that could "
                    "have captured (huff)."), {}) if value == "capturer" else
                (N_("A player who skipped a capture may lose any one of their pieces "
                    "(huff)."), {}))
    return None


class Names:
    """One language's names of cards, suits, games and labels."""

    def __init__(self, translations: NullTranslations):
        gettext = translations.gettext
        pgettext = translations.pgettext
        self.gettext = gettext
        self.suit = tuple(gettext(s) for s in SUIT_IDS)
        # Ranks 2-10 are digits everywhere; the letters are the catalogue's, with a
        # context so "Q" the rank letter is not "Q" anywhere else.
        letters = {
            "J": pgettext("card rank", "J"), "Q": pgettext("card rank", "Q"),
            "K": pgettext("card rank", "K"), "A": pgettext("card rank", "A"),
        }
        self.rank = tuple(letters.get(r, r) for r in RANK_IDS)
        self.card = tuple(gettext(n) for n in CARD_NAME_IDS)
        self.card_html = tuple(
            Markup('<abbr class="card {cls}" title="{name}">{rank}{symbol}</abbr>').format(
                cls=SUIT_CLASS[c // 13], name=self.card[c], rank=self.rank[c % 13],
                symbol=SUIT_SYMBOLS[c // 13])
            for c in range(52))
        self.colour = tuple(gettext(c) for c in COLOUR_NAMES)

    def cards_html(self, cards) -> Markup:
        """Several cards, space-separated; an em dash for none."""
        if not cards:
            return Markup("&#8212;")
        html = self.card_html
        return Markup(" ").join(html[c] for c in cards)

    def cards_words(self, cards) -> str:
        return ", ".join(self.card[c] for c in cards)

    def game(self, variant: str) -> str:
        msgid = GAME_NAMES.get(variant)
        return self.gettext(msgid) if msgid else variant

    def game_summary(self, variant: str) -> str:
        msgid = GAME_SUMMARIES.get(variant)
        return self.gettext(msgid) if msgid else ""

    def status(self, status: str) -> str:
        return self.gettext(STATUS_LABELS.get(status, status))

    def seating(self, method: str) -> str:
        msgid = SEATING_LABELS.get(method)
        return self.gettext(msgid) if msgid else method

    def tiebreak(self, name: str) -> str:
        msgid = TIEBREAK_LABELS.get(name)
        return self.gettext(msgid) if msgid else name

    def tiebreak_note(self, name: str) -> str:
        msgid = TIEBREAK_NOTES.get(name)
        return self.gettext(msgid) if msgid else ""


def card_code(card: int) -> str:
    """The canonical spelling (QS), for data attributes and tests."""
    return CARD_NAMES[card]
