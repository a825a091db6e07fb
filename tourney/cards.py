"""Cards as small ints.

A card is an ``int`` in ``0..51``: ``suit * 13 + rank``, where rank ``0`` is the two
and ``12`` the ace, and suits are ``S H D C`` in that order. Within a suit a higher
int is a higher card, so trick comparison is integer comparison. A set of cards is a
bit mask (``1 << card``) where speed matters.

Canonical spelling is rank then suit (``QS``, ``TH``, ``2C``). Input also accepts
``10`` for ``T``, lower case, and the suit symbols ``♠ ♥ ♦ ♣``.
"""
from __future__ import annotations

from typing import Iterable

from .errors import CardError

RANKS = "23456789TJQKA"
SUITS = "SHDC"
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
SUIT_SYMBOLS = "♠♥♦♣"

TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)

DECK = tuple(range(52))
FULL_DECK_MASK = (1 << 52) - 1

CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)


__all__ = [
    "RANKS", "SUITS", "SPADES", "HEARTS", "DIAMONDS", "CLUBS", "SUIT_NAMES", "SUIT_SYMBOLS",
    "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "JACK", "QUEEN",
    "KING", "ACE", "DECK", "FULL_DECK_MASK", "CARD_NAMES", "SUIT_MASKS", "CardError",
    "make_card", "rank_of", "suit_of", "parse_card", "card_name", "parse_cards",
    "format_cards", "mask_of", "cards_of",
]


def make_card(rank: int, suit: int) -> int:
    """The card of a rank (``TWO``..``ACE``) and a suit (``SPADES``..``CLUBS``)."""
    return suit * 13 + rank


def rank_of(card: int) -> int:
    """A card's rank, ``TWO`` (0) to ``ACE`` (12)."""
    return card % 13


def suit_of(card: int) -> int:
    """A card's suit: ``SPADES``, ``HEARTS``, ``DIAMONDS`` or ``CLUBS`` (0 to 3)."""
    return card // 13


def _spellings() -> dict[str, int]:
    table: dict[str, int] = {}
    for card, name in enumerate(CARD_NAMES):
        rank, suit = name[0], name[1]
        ranks = [rank] + (["10"] if rank == "T" else [])
        suits = [suit, SUIT_SYMBOLS[SUITS.index(suit)]]
        for r in ranks:
            for s in suits:
                for text in (r + s, (r + s).lower()):
                    table[text] = card
    return table


# Every accepted spelling, precomputed: parsing a card is one dict lookup.
_SPELLINGS = _spellings()

QS = _SPELLINGS["QS"]
KH = _SPELLINGS["KH"]
AH = _SPELLINGS["AH"]
JD = _SPELLINGS["JD"]
TWO_CLUBS = _SPELLINGS["2C"]
THREE_CLUBS = _SPELLINGS["3C"]

SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))


def parse_card(text: str) -> int:
    """The card a spelling names; :class:`CardError` if it names none (or is no text)."""
    try:
        return _SPELLINGS[text]
    except (KeyError, TypeError):  # TypeError: a list, say, which no dict key can be
        card = (_SPELLINGS.get(text.strip().upper().replace("10", "T", 1))
                if isinstance(text, str) and text else None)
        if card is None:
            raise CardError(text) from None
        return card


def card_name(card: int) -> str:
    """A card's canonical spelling, rank then suit (``QS``, ``TH``): the inverse of
    :func:`parse_card`; :class:`CardError` for anything but a card (an int 0..51)."""
    try:
        if card >= 0:
            return CARD_NAMES[card]
    except (IndexError, TypeError):
        pass
    raise CardError(card)


def parse_cards(text: str) -> list[int]:
    """Whitespace-separated cards."""
    return [parse_card(t) for t in text.split()]


def format_cards(cards: Iterable[int]) -> str:
    """Cards as a record writes them, space-separated (``QS TH 2C``): the inverse of
    :func:`parse_cards`."""
    return " ".join([card_name(card) for card in cards])


def mask_of(cards: Iterable[int]) -> int:
    """The bit mask of a set of cards (``1 << card`` each)."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, lowest int first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
