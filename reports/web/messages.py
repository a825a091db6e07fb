"""What is wrong with a result, said in the players' language.

The engines' messages are English and precise (which card, which rule). A table
page leads with where the problem is (deal, seat, column) and, for the rules
players meet at a table, a sentence in their language; the engine's own words
follow as the detail.
"""
from __future__ import annotations

from dataclasses import dataclass

from tourney.errors import RecordError
from tourney.reports.i18n import N_, translations
from tourney.seats import seat_number

# Rule id -> a sentence players can act on (translated where shown).
RULE_SENTENCES = {
    "score-sheet-total": N_("The scores of this deal do not add up as the game's rules say."),
    "score-sheet-value": N_("This score is not possible in this game."),
    "score-sheet-range": N_("This score is not possible in this game."),
    "score-missing": N_("The score is missing."),
    "score-cell": N_("This is not a score: enter one number in each box."),
    "seat-count": N_("Enter one score for every player."),
    "scores-mismatch": N_("The scores do not match the moves of this deal."),
    "follow-suit": N_("A player did not follow suit though they could."),
    "card-not-held": N_("A player played a card they do not hold."),
    "not-a-card": N_("Something is not a card."),
    "card": N_("Something is not a card."),
    "score-sheet-loser": N_("This deal needs exactly one loser."),
    "score-sheet-count": N_("Enter one score for every player."),
    "score-sheet-seats": N_("Enter one score for every player."),
    "score": N_("A score is not a number."),
    "match": N_("The match is not complete by its rules (too few or too many deals)."),
    "match-empty": N_("No deal was entered."),
    "no-deals": N_("No deal was entered."),
    "nothing-filled-in": N_("No deal was entered."),
    "dealer": N_("The dealer is not the one the rules say."),
    "first-dealer": N_("The first dealer must be the player in seat 1."),
    "other-table": N_("This link takes results only for its own table."),
    "match-changed": N_("A different result for this table is already stored."),
    "not-seated": N_("These are not the players seated at this table."),
    "notation": N_("Something in the record cannot be read."),
    "header": N_("The pasted text is not a record file (its first line names the columns)."),
}
COLUMN_NAMES = {
    "scores": N_("scores"), "dealer": N_("dealer"), "players": N_("players"),
    "play": N_("moves"), "hands": N_("hands"), "deal": N_("deal"), "table": N_("table"),
    "round": N_("round"), "event": N_("event"),
}


@dataclass
class ErrorLine:
    where: str
    sentence: str
    detail: str
    rule: str | None
    # the engine's English words: shown on an English page, or where no sentence
    # in the page's language says what is wrong
    show_detail: bool = True
    # the score box at fault (deal number, seat from 0), to mark on the grid
    cell: tuple[int, int] | None = None


def error_lines(errors: list[RecordError], lang: str,
                line_deals: dict[int, int] | None = None) -> list[ErrorLine]:
    """Each error as (where, sentence, detail) in ``lang``; ``line_deals`` maps the
    lines of a score sheet built from the form to its deal numbers."""
    _ = translations(lang).gettext
    out = []
    for err in errors:
        parts = []
        deal = (line_deals or {}).get(err.line) if err.line is not None else None
        if deal is not None:
            parts.append(_("deal %(number)s") % {"number": deal})
        elif err.line is not None:
            parts.append(_("line %(number)s") % {"number": err.line})
        if err.column:
            parts.append(_(COLUMN_NAMES.get(err.column, err.column)))
        if err.move is not None:
            parts.append(_("move %(number)s") % {"number": err.move})
        if err.seat is not None:
            parts.append(_("seat %(number)s") % {"number": seat_number(err.seat)})
        if err.player:
            parts.append(err.player)
        sentence = _(RULE_SENTENCES[err.rule]) if err.rule in RULE_SENTENCES else ""
        cell = (deal, err.seat) if (deal is not None and err.seat is not None
                                    and err.column == "scores") else None
        out.append(ErrorLine(", ".join(parts), sentence, err.message, err.rule,
                             show_detail=not sentence or lang == "en", cell=cell))
    return out


def bad_cells(lines: list[ErrorLine]) -> set[str]:
    """The names of the score boxes the errors are about (``score-<deal>-<seat>``)."""
    return {f"score-{line.cell[0]}-{line.cell[1]}" for line in lines if line.cell}
