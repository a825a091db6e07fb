"""What is wrong with a result, said in the players' language.

The engines' messages are precise (which card, which rule). A table page says
each error in the page's language: where it is (deal, seat, player, column), a
sentence for its rule (a general one for a rule without its own), and the detail:
the error's own words (its ``words``, a catalogue message the engine or the record
reader raised it with) translated, and on a score sheet sent from the grid what
was typed in the boxes at fault. An error with no words (one stored before they
were kept, or text from elsewhere) shows its English message, marked as English.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from tourney.errors import RecordError, Remedy, SettingWay
from tourney.errors.seats import seat_number
from tourney.records.checked import error_text as english_error_text
from tourney.reports.i18n import N_, translations
from tourney.reports.site import Renderer

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
    "score-sheet-split": N_("These scores cannot come from one deal of this game."),
    "score-sheet-points": N_("The scores of this deal do not add up as the game's rules say."),
    "score-sheet-players": N_("Enter one score for every player."),
    "record-incomplete": N_("The deal or game is not finished by its rules."),
    "seat-order": N_("The players are not in their seat order."),
    "player-twice": N_("A player is named twice."),
    "match-split": N_("The deals of one match must stay together."),
    "match-too-long": N_("The match has more deals than its rules allow."),
    "invalid-deals": N_("Some deals do not pass the checks."),
    # the record readers' file-level errors: the pasted text as a whole
    "csv": N_("The pasted text is not a valid CSV file."),
    "ragged-row": N_("A row has another number of fields than the first line."),
    "encoding": N_("The record cannot be read as a whole."),
    "line-too-long": N_("The record cannot be read as a whole."),
    "record-too-large": N_("The record cannot be read as a whole."),
    "too-large": N_("The record cannot be read as a whole."),
    "xlsx": N_("The record cannot be read as a whole."),
    "withdrawn": N_("A player at this table has withdrawn from the event."),
}
# Said of an error whose rule has no sentence of its own.
ANY_RULE = N_("This does not pass the game's checks.")
COLUMN_NAMES = {
    "scores": N_("scores"), "dealer": N_("dealer"), "players": N_("players"),
    "play": N_("moves"), "hands": N_("hands"), "deal": N_("deal"), "table": N_("table"),
    "round": N_("round"), "event": N_("event"),
}
# Rules whose sentence is all there is to say: the error's own words would say it
# again ("The score is missing." then "the score is missing"), so a page shows no
# detail for them.
SAID_BY_THE_SENTENCE = frozenset({"score-missing"})

# What would get past a refusal (tourney.errors.Remedy), said as what to do on the
# organizer's page; a kind not here is not said: a page never shows a command line.
REMEDY_SENTENCES = {
    "enter-players": N_("Enter the players in the event first."),
    "forfeit-absent": N_("A forfeit scores table %(table)s without %(player)s."),
    "import-results": N_("Store the results still missing first."),
    "reseat-round": N_("Seat round %(round)s again first."),
    "seat-round": N_("Seat a round first."),
    "swap-seats": N_("Swap the two players instead."),
    "undo-absence": N_("Take back the absence of %(player)s first."),
    "undo-forfeit": N_("Take back the forfeit of table %(table)s first."),
}


def remedy_sentence(remedy: Remedy | None, lang: str) -> str | None:
    """What would get past a refusal, in ``lang``: ``None`` for no remedy, or one a
    page has no words for."""
    sentence = REMEDY_SENTENCES.get(remedy.kind) if remedy is not None else None
    return translations(lang).gettext(sentence) % remedy.data if sentence else None


# What the setting a refusal names would do (tourney.errors.SettingWay), as the
# organizer's page offers it: a sentence, and for a way the page's form takes as it
# is sent again, a button (its action, and the button's words); a kind not here is
# not offered (the command line's own: a score sheet, the links' list).
SETTING_WAY_SENTENCES = {
    "seat-anyway": N_("Or seat round %(round)s before those results are in:"),
    # the box is the move form's own (org_event.html), named as the form says it
    "move-anyway": N_("Or tick “%(box)s” and move the player again."),
}
SETTING_WAY_BUTTONS = {"seat-anyway": ("seat", N_("Seat round %(round)s anyway"))}
MOVE_ANYWAY_BOX = N_("even if it breaks the event's table sizes")


@dataclass(frozen=True)
class WayOffer:
    """A setting's way as a page offers it: ``sentence`` in the page's language and,
    where the page has one, a button posting ``action`` again with ``force``."""

    sentence: str
    action: str | None = None
    button: str | None = None


def setting_way_offer(way: SettingWay | None, lang: str, slug: str) -> WayOffer | None:
    """What the setting's way of a refusal is on the organizer's page of event
    ``slug``, in ``lang``: ``None`` for none, or one the page does not offer."""
    sentence = SETTING_WAY_SENTENCES.get(way.kind) if way is not None else None
    if sentence is None:
        return None
    _ = translations(lang).gettext
    said = {**way.data, "box": _(MOVE_ANYWAY_BOX)}
    button = SETTING_WAY_BUTTONS.get(way.kind)
    if button is None:
        return WayOffer(_(sentence) % said)
    return WayOffer(_(sentence) % said, f"/org/{slug}/{button[0]}", _(button[1]) % said)


def error_text(err: Exception, renderer: Renderer) -> tuple[str, str | None]:
    """A refusal's message as an organizer's or a phone's page says it: its words
    in the language of ``renderer``, and ``None``; or, for an error given as text
    only, its English and ``"en"`` (the page marks it as English)."""
    words = getattr(err, "words", None)
    if words is not None:
        return renderer.message(words), None
    return str(err), None if renderer.lang == "en" else "en"


@dataclass
class ErrorLine:
    where: str
    sentence: str
    detail: str
    rule: str | None
    # the language of ``detail`` when it is not the page's: the engine's English
    # words, where the page has nothing of its own to say (a pasted record)
    detail_lang: str | None = None
    # the form's fields at fault (``score-<deal>-<seat>``, ``dealer-<deal>``,
    # ``record``), marked on the page
    fields: tuple[str, ...] = ()


def error_lines(errors: list[RecordError], renderer: Renderer,
                line_deals: dict[int, int] | None = None,
                typed: dict[int, list[tuple[str, str]]] | None = None,
                pasted: bool = False) -> list[ErrorLine]:
    """Each error as (where, sentence, detail) in the language of ``renderer`` (the
    site's, which says an engine's words); ``line_deals`` maps the lines of a score
    sheet built from the form to its deal numbers, ``typed`` gives each deal's boxes
    as filled in (player, text; in seat order), ``pasted`` says the errors are of a
    record pasted into the form."""
    lang = renderer.lang
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
        sentence = _(RULE_SENTENCES.get(err.rule, ANY_RULE))
        boxes = (typed or {}).get(deal) if deal is not None else None
        detail, detail_lang = err.message, None
        if err.words is not None:
            detail = renderer.message(err.words)
        if err.rule == "nothing-filled-in" and typed is not None and not pasted:
            # the reader's words are for a file ("save, and import it again")
            detail = _("Type each deal's scores in the boxes, then send the sheet.")
        elif lang != "en" and typed is not None:  # sent from the grid
            entered = (_typed_detail(_, err, boxes) if deal is not None else
                       _("deals entered: %(count)s") % {"count": len(typed)})
            if err.words is None:
                detail = entered
            elif entered:
                detail = f"{detail} ({entered})"
        elif lang != "en" and err.words is None:
            detail_lang = "en"
        if err.rule in SAID_BY_THE_SENTENCE:
            detail, detail_lang = "", None
        out.append(ErrorLine(", ".join(parts), sentence, detail, err.rule, detail_lang,
                             _fields(err, deal, boxes, pasted)))
    return out


def _typed_detail(_, err: RecordError, boxes: list[tuple[str, str]] | None) -> str:
    """What was typed in the boxes an error is about, in the page's language: the
    box of its seat, or every box of its deal; "" when nothing was (a missing
    score says so itself) or the error is not about the grid's boxes."""
    if not boxes or err.column not in (None, "scores"):
        return ""
    if err.seat is not None:
        text = boxes[err.seat][1] if err.seat < len(boxes) else ""
        return _("entered: %(value)s") % {"value": text} if text else ""
    shown = ", ".join(f"{player} {text or '–'}" for player, text in boxes)
    return _("entered: %(value)s") % {"value": shown}


def _fields(err: RecordError, deal: int | None, boxes, pasted: bool) -> tuple[str, ...]:
    """The form's fields an error is about: a pasted record's box; a score box (its
    seat's), or every box of its deal when it is about the deal's scores; the
    deal's dealer."""
    if pasted:
        return ("record",)
    if deal is None:
        return ()
    if err.column == "dealer":
        return (f"dealer-{deal}",)
    if err.seat is not None and err.column in (None, "scores"):
        return (f"score-{deal}-{err.seat}",)
    if boxes and err.column in (None, "scores"):
        return tuple(f"score-{deal}-{seat}" for seat in range(len(boxes)))
    return ()


def bad_fields(lines: list[ErrorLine]) -> set[str]:
    """The names of the form's fields the errors are about."""
    return {name for line in lines for name in line.fields}


@dataclass(frozen=True)
class Refusal:
    """A request the server refuses before it reaches the application (a form that
    cannot be read, too large, too slow, expired, too many wrong guesses) or a
    refusal of the JSON API: its HTTP status, what went wrong and what to do (each a
    catalogue message, said in the requester's language) and whether a page to go
    back to helps."""

    status: int
    words: str
    remedy: str | None = None
    # the page links back to the form (none where going back would only repeat it)
    back: bool = True


# what to do about a form the server could not take as sent (unreadable, forged or
# expired): the page's form afresh
SEND_AGAIN = N_("Go back, reload the page and send it again.")

# The server's refusals by their stable code (the JSON API's ``code``); the one home
# of their words, for the pages (message.html) and the JSON answers alike.
REFUSALS = {
    "form-not-utf8": Refusal(400, N_("The form could not be read: it was not sent as "
                                     "UTF-8 text."),
                             SEND_AGAIN),
    "too-many-fields": Refusal(400, N_("The form has more than %(limit)s fields: no page "
                                       "of this server sends that many."),
                               SEND_AGAIN),
    "form-expired": Refusal(403, N_("This form has expired, or did not come from this "
                                    "server."),
                            SEND_AGAIN),
    "body-timeout": Refusal(408, N_("What was sent stopped arriving before it was "
                                    "complete."),
                            N_("Check the connection, then send it again.")),
    "too-large": Refusal(413, N_("What was sent is too large for this server."),
                         N_("Send a smaller record: one match at a time.")),
    "too-many-attempts": Refusal(429, N_("Too many wrong attempts from this address."),
                                 N_("Wait a minute, then try again."), back=False),
    "wrong-token": Refusal(401, N_("The organizer's token is wrong.")),
    "log-in-first": Refusal(401, N_("Log in as the organizer first.")),
    "unknown-event": Refusal(404, N_("There is no such event.")),
    "unknown-round": Refusal(404, N_("This event has no round %(round)s.")),
    "unknown-link": Refusal(404, N_("No table has this link.")),
    "unsupported-type": Refusal(415, N_("Send the match's record rows as CSV, with "
                                        "Content-Type: text/csv.")),
    "busy": Refusal(503, N_("The server is busy storing other results."),
                    N_("Send it again in a moment.")),
}


def refusal_text(code: str, lang: str, params: dict | None = None) -> tuple[str, str | None]:
    """A refusal's words and remedy (``None`` without one) in ``lang``, ``params``
    filled in."""
    refusal = REFUSALS[code]
    _ = translations(lang).gettext
    text = _(refusal.words) % params if params else _(refusal.words)
    return text, _(refusal.remedy) if refusal.remedy else None


# A refused sign-up (tourney.tournament.evening.SignupRefused) as the sign-up page
# and the JSON answer say it: by its reason, a field's by the field.
SIGNUP_REFUSALS = {
    "entered": N_("A player of that name is entered already."),
    "full": N_("Too many sign-ups are waiting for the organizer; try again later."),
    "closed": N_("Sign-up for this event is closed."),
    "name": N_("Give your name as it should stand in the standings (at most 200 characters; "
               "no ; and not starting with = + - @)."),
    "club": N_("The club name is too long or holds characters it cannot."),
    "email": N_("Give an e-mail address: the organizer sends your table and results to it. "
                "It is never shown on a page."),
}


def signup_refusal(reason: str, field: str | None) -> str:
    """The words of a refused sign-up (a catalogue message, untranslated)."""
    return SIGNUP_REFUSALS.get(reason) or SIGNUP_REFUSALS.get(field or "", SIGNUP_REFUSALS["email"])


def file_error_note(err: RecordError, lang: str | None) -> str:
    """An error as a file written for the event's organizers says it (the rejects
    file's error column), in ``lang``: ``where: what [rule]``, the place and the
    words as a page says them; in English (the command line's one form of a record
    error) for no language or English."""
    if not lang or lang == "en":
        return english_error_text(err)
    line = error_lines([err], file_renderer(lang))[0]
    what = line.detail or line.sentence
    text = f"{line.where}: {what}" if line.where else what
    return f"{text} [{err.rule}]" if err.rule else text


@lru_cache(maxsize=8)
def file_renderer(lang: str | None) -> Renderer:
    """How a file written for an event's organizers or scorers (the rejects file, the
    score sheet) says the library's words: in the event's language (English for
    none), as the event's pages say them."""
    import datetime as dt

    return Renderer(lang or "en", "", (), dt.datetime.now(dt.UTC))
