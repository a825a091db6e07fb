"""Names the pages show that come from the catalogue rather than the database: cards,
suits, ranks, games, statuses. A game's own words (its name, tagline, seat roles,
options in sentences) are its engine's (:mod:`tourney.engines.presentation`);
this module only translates them.

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

from markupsafe import Markup

from tourney.cards import SUIT_SYMBOLS
from tourney.engines import get_game
from tourney.engines.base import Game
from tourney.errors import TourneyError
from tourney.tournament.tiebreaks import TIEBREAKS

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
        self._games: dict[str, Game | None] = {}

    def cards_html(self, cards) -> Markup:
        """Several cards, space-separated; an em dash for none."""
        if not cards:
            return Markup("&#8212;")
        html = self.card_html
        return Markup(" ").join(html[c] for c in cards)

    def cards_words(self, cards) -> str:
        return ", ".join(self.card[c] for c in cards)

    def rules(self, variant: str) -> Game:
        """The engine of a variant; a plain :class:`Game` (default words, no
        options) for a variant no engine knows any more."""
        game = self._games.get(variant)
        if game is None:
            try:
                game = get_game(variant)
            except TourneyError:
                game = Game()
            self._games[variant] = game
        return game

    def game(self, variant: str) -> str:
        msgid = self.rules(variant).title
        return self.gettext(msgid) if msgid else variant

    def game_summary(self, variant: str) -> str:
        msgid = self.rules(variant).tagline
        return self.gettext(msgid) if msgid else ""

    def say(self, msgid: str, **params) -> str:
        """One of a game's own words (a msgid its engine gives, never user text),
        translated, with ``params`` filled in."""
        text = self.gettext(msgid)
        return text % params if params else text

    def seat_roles(self, variant: str) -> tuple[str, ...]:
        """The colours of the seats (checkers: Black, White), translated."""
        return tuple(self.gettext(r) for r in self.rules(variant).seat_roles)

    def status(self, status: str) -> str:
        return self.gettext(STATUS_LABELS.get(status, status))

    def seating(self, method: str) -> str:
        msgid = SEATING_LABELS.get(method)
        return self.gettext(msgid) if msgid else method

    def tiebreak(self, name: str) -> str:
        """A tie-break's column heading; an id no longer defined shows as it is."""
        tiebreak = TIEBREAKS.get(name)
        return self.gettext(tiebreak.label) if tiebreak else name

    def tiebreak_note(self, name: str, variant: str | None = None) -> str:
        """What a tie-break measures, one sentence (its direction as the game's scores go)."""
        tiebreak = TIEBREAKS.get(name)
        if tiebreak is None:
            return ""
        return self.gettext(tiebreak.note_for(self.rules(variant).higher_is_better
                                              if variant else False))
