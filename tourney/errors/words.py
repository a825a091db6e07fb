"""Typed words: a sentence as a catalogue msgid and its parameters (:class:`Message`).

The library raises its errors with words a page can say in its own language, and
keeps an English rendering for the command line (:meth:`Message.english`). This is
the bottom of that: the message type, the marker :func:`N_` that ``pybabel extract``
reads, the seat parameter, and the few sentences every layer joins words with (a
choice, "did you mean", an unknown name). The engines' own parameters (cards) and
sentences are in :mod:`tourney.engines.presentation`, which re-exports these; they
live here so that :mod:`tourney.errors` can word its errors without importing the
engines (which import it).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .seats import seat_text


def N_(message: str) -> str:
    """Mark a catalogue message where it is defined; it is translated where shown."""
    return message


class Seat(int):
    """A message parameter naming a seat (0-based); shown as the seat's player."""

    __slots__ = ()


class Quoted(str):
    """A message parameter that is a name or a text as someone gave it (a player's
    name, a slug, a value typed): plain data, quoted where it is shown as the
    reader's language quotes (:data:`QUOTED`), never as Python's ``repr`` quotes it."""

    __slots__ = ()

    def english(self) -> str:
        """Quoted in English (the command line's words)."""
        return quoted_in(self, QUOTED)


# The one way a name or a text as given is quoted in a message: each language its
# own way ('Nils Moe' in English, the same for "Daniel O'Brien"; ”Nils Moe” in
# Swedish and Finnish, «Nils Moe» in Norwegian).
QUOTED = N_("'%(text)s'")


def quoted(text):
    """``text`` (a name, a slug, a value as given) as a message parameter, quoted
    where the message is shown (:data:`QUOTED`); a value that is no text (a number
    given) as it is."""
    return Quoted(text) if isinstance(text, str) else text


def visible_text(text: str) -> str:
    """``text`` with the characters that do not show (a control character, a line
    break) spelt as escapes (``\\x07``, ``\\n``), as a quoted value shows them."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def quoted_in(text: str, template: str) -> str:
    """A :class:`Quoted` value in a language's quotes: ``template`` is
    :data:`QUOTED` as that language has it."""
    return template % {"text": visible_text(text)}


@dataclass(frozen=True)
class Message:
    """A sentence for the pages: ``msgid % params`` once translated.

    ``translate`` is ``False`` for text that is not a catalogue message (an engine's
    English words for an event it has no sentence for): shown as it is.
    """

    msgid: str
    # data: numbers, seats, cards, words of their own, and lists of them (said
    # joined by commas, each comma a message), worded where the message is shown
    params: dict[str, Any] = field(default_factory=dict)
    translate: bool = True

    def english(self) -> str:
        """The untranslated sentence, parameters spelt plainly (seats from 1, cards
        as their tokens, a nested message in English)."""
        if not self.params:
            return self.msgid
        return self.msgid % {k: _plain(v) for k, v in self.params.items()}

    def __str__(self) -> str:
        # An error's English message (tourney.errors.RecordError keeps the words).
        return self.english()


def _plain(value):
    if isinstance(value, Message):
        return value.english()
    if isinstance(value, Quoted):
        return quoted_in(value, QUOTED)
    if isinstance(value, Seat):
        return seat_text(value)
    english = getattr(value, "english", None)  # an engine's parameter (cards)
    if english is not None:
        return english()
    if isinstance(value, (list, tuple)):  # a list as data: said where it is shown
        return _plain(comma_words(value)) if value else ""
    return value


# ------------------------------------------------------------- words joined
def or_words(items) -> str | Message:
    """``40``, ``50 or 40``, ``50, 45 or 40``: a choice of numbers or tokens."""
    items = [item if isinstance(item, str) else str(item) for item in items]  # Quoted kept
    if len(items) == 1:
        return items[0]
    return Message(N_("%(first)s or %(last)s"), {"first": list(items[:-1]), "last": items[-1]})


def then_words(first: str | Message, then: str | Message) -> Message:
    """``first; then``: two parts of one message (a problem and what to do, one
    difference and the next), each said in the page's language."""
    return Message(N_("%(first)s; %(then)s"), {"first": first, "then": then})


def and_words(items) -> str | Message:
    """``Åsa``, ``Åsa and Bo``, ``Åsa, Bo and Cai``: all of the items (names, or
    words of their own), each ``and`` and comma a message, so a page says it in
    its language."""
    items = list(items)
    said = items[-1]
    if len(items) > 1:
        said = Message(N_("%(first)s and %(last)s"), {"first": items[-2], "last": said})
    for earlier in reversed(items[:-2]):
        said = Message(N_("%(first)s, %(then)s"), {"first": earlier, "then": said})
    return said


def comma_words(items) -> str | Message:
    """``Åsa``, ``Åsa, Bo``, ``'x' (did you mean y?), 'z'``: items listed after a
    colon or a noun, each comma a message (an item may be words of its own, said in
    a page's language)."""
    items = list(items)
    said = items[-1]
    for earlier in reversed(items[:-1]):
        said = Message(N_("%(first)s, %(then)s"), {"first": earlier, "then": said})
    return said


def either_words(names) -> str | Message:
    """``Åsa``, ``Åsa or Bo``, ``Åsa, Bo or Cai``: names one of which is meant (the
    ``or`` and each comma a message, so a page says it in its language)."""
    names = [name if isinstance(name, str) else str(name) for name in names]  # Quoted kept
    said: str | Message = names[-1]
    if len(names) > 1:
        said = Message(N_("%(first)s or %(last)s"), {"first": names[-2], "last": said})
    for earlier in reversed(names[:-2]):
        said = Message(N_("%(first)s, %(then)s"), {"first": earlier, "then": said})
    return said


def did_you_mean(names) -> Message | None:
    """``did you mean Åsa Öberg?``: the names suggested for one given that names
    nobody (:func:`tourney.person_names.suggested_names`); ``None`` for none. A
    typed part of a sentence (its ``hint``), said in brackets by the sentence."""
    names = list(names)
    if not names:
        return None
    return Message(N_("did you mean %(names)s?"), {"names": either_words(names)})


def not_a_card(text: str) -> Message:
    """The one wording of a token or value that is no card (``text`` as given, quoted):
    the engines' and :class:`tourney.errors.CardError`'s."""
    return Message(N_("not a card: %(text)s"), {"text": text})


# An unknown name's sentence per kind (tourney.errors.unknown_name), alone and with
# words in brackets: whole sentences, since the languages agree "unknown" with the noun.
UNKNOWN_NAMES = {
    "event": (N_("unknown event %(name)s"), N_("unknown event %(name)s (%(hint)s)")),
    "player": (N_("unknown player %(name)s"), N_("unknown player %(name)s (%(hint)s)")),
    "variant": (N_("unknown variant %(name)s"), N_("unknown variant %(name)s (%(hint)s)")),
    "series": (N_("unknown series %(name)s"), N_("unknown series %(name)s (%(hint)s)")),
    "team": (N_("unknown team %(name)s"), N_("unknown team %(name)s (%(hint)s)")),
    # a slug that names an event or a series (teams are declared in either)
    "event-or-series": (N_("unknown event or series %(name)s"),
                        N_("unknown event or series %(name)s (%(hint)s)")),
}


def unknown_name_words(kind: str, name: str, suggested, *, otherwise=None,
                       colon: bool = False) -> Message:
    """``unknown player 'Åsa' (did you mean 'Åsa Öberg'?)`` as words: ``suggested``
    the names close to ``name``; none close, ``otherwise`` (words, or ``None``) is
    said in brackets, or after a colon when ``colon`` (the error's remedy is said in
    brackets after it)."""
    alone, bracketed = UNKNOWN_NAMES[kind]
    hint = did_you_mean(suggested)
    if hint is not None:
        return Message(bracketed, {"name": name, "hint": hint})
    if otherwise is None:
        return Message(alone, {"name": name})
    if colon:
        return Message(N_("%(subject)s: %(problem)s"),
                       {"subject": Message(alone, {"name": name}), "problem": otherwise})
    return Message(bracketed, {"name": name, "hint": otherwise})
