"""Translations for the site: message catalogues compiled in memory, Babel formatting.

Every string a page shows comes from a message catalogue: templates through the
jinja2 i18n extension (``{% trans %}``, ``_()``), Python-side strings marked with
:func:`N_` where they are defined and translated when a page is rendered.

Catalogues live in ``reports/locale/<lang>/LC_MESSAGES/messages.po`` beside the
template ``reports/locale/messages.pot`` (``pybabel extract -F reports/babel.cfg``,
see :data:`EXTRACT_COMMAND`). No ``.mo`` file is ever built or committed: the first
time a language is needed in a process its ``.po`` is read with
``babel.messages.pofile`` and compiled in memory with ``babel.messages.mofile``, so
an editable checkout, a wheel and a fresh clone behave the same with no build step.

Decisions:

- English is the source language: msgids are the English text, so ``en`` needs no
  catalogue (an ``en`` .po, if someone writes one, is used like any other).
- A language without a catalogue is still accepted (its dates and numbers are
  formatted by Babel in that locale) and its text is English; the publish command
  says so. Fuzzy entries are ignored, as gettext's ``msgfmt`` does.
- Language codes are the ones ``Event.lang`` takes (``sv``, ``nb``, ``fi``, ``en``)
  or any other code Babel knows; ``no`` is read as ``nb``.
"""
from __future__ import annotations

import gettext as gettext_module
import io
from decimal import ROUND_HALF_EVEN, Decimal
from functools import cache
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.numbers import format_decimal, get_decimal_symbol, get_group_symbol
from markupsafe import Markup

from tourney.errors import InvalidValue, UsageError
from tourney.errors.words import Message, quoted

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
SOURCE_LANGUAGE = "en"
ALIASES = {"no": "nb", "nn_no": "nn", "en_us": "en"}
# Where the messages are, from the repository root: the site (reports) and the
# whole library (tourney): the games' own words (names, options, replay notes) and
# their errors' words marked N_ in their engines, the tie-breaks' headings and notes,
# and the words of every refusal the library gives (tests/test_library_words.py);
# the server's pages' templates again from tourney/web, since babel.cfg's template
# pattern is relative to the folder given. One catalogue for all.
SOURCE_DIRS = ("reports", "tourney", "tourney/web")
EXTRACT_COMMAND = ("pybabel extract -F reports/babel.cfg --no-location --sort-output "
                   "--project tourney -o reports/locale/messages.pot " + " ".join(SOURCE_DIRS))


def N_(message: str) -> str:
    """Mark a Python-side string for extraction; it is translated where it is shown."""
    return message


def normalize_language(code: str) -> str:
    """A language code checked with Babel (``sv``, ``nb``, ``fi``, ``en``...)."""
    text = (code or "").strip().replace("-", "_")
    if not text:
        raise InvalidValue("lang", quoted(code or ""), Message(N_("a language code, e.g. %(example)s"),
                                                             {"example": "sv"}))
    text = ALIASES.get(text.lower(), text)
    try:
        locale = Locale.parse(text)
    except (UnknownLocaleError, ValueError):
        raise UsageError(Message(N_("unknown language %(code)s (e.g. %(examples)s)"),
                                 {"code": quoted(code), "examples": "en, sv, nb, fi"})) from None
    return str(locale)


def catalogue_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def has_catalogue(lang: str) -> bool:
    return lang == SOURCE_LANGUAGE or catalogue_path(lang).is_file()


def compile_po(po_text: bytes | str, locale: str | None = None) -> gettext_module.GNUTranslations:
    """A .po file's text compiled in memory to a gettext translations object."""
    # babel's catalogue reader and writer, only for a language other than English
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    if isinstance(po_text, str):
        po_text = po_text.encode("utf-8")
    catalog = read_po(io.BytesIO(po_text), locale=locale)
    buffer = io.BytesIO()
    write_mo(buffer, catalog, use_fuzzy=False)
    buffer.seek(0)
    return gettext_module.GNUTranslations(buffer)


@cache
def translations(lang: str) -> gettext_module.NullTranslations:
    """The compiled catalogue of a language (cached per process); English text
    (NullTranslations) where there is none."""
    path = catalogue_path(lang)
    if not path.is_file():
        return gettext_module.NullTranslations()
    return compile_po(path.read_bytes(), locale=lang)


def locale_of(lang: str) -> Locale:
    return Locale.parse(lang)


def language_name(lang: str) -> str:
    """The language's name in itself ("suomi", "norsk bokmål"), as a language switch
    offers it: a reader who does not read the page's language still finds their own."""
    locale = locale_of(lang)
    return locale.get_display_name(locale) or lang


class NumberFormat:
    """Babel's ``format_decimal`` for the patterns the pages use, fast.

    A page shows hundreds of numbers and Babel's formatter parses its pattern on
    every call (about 40 us); this one takes the locale's decimal and group
    symbols from Babel once and gives the same text for ``#,##0.##`` (up to
    ``max_digits`` decimals, trailing zeros dropped down to ``min_digits``) and
    ``#,##0.0``-style patterns: the same half-even rounding of the decimal value.
    Decision: a value that rounds to zero is shown without a minus sign (Babel
    writes ``-0.0``). A locale whose grouping differs from plain thousands (e.g.
    a minimum of two grouping digits) falls back to Babel itself.
    """

    def __init__(self, locale: Locale):
        self.locale = locale
        self.decimal = get_decimal_symbol(locale)
        self.group = get_group_symbol(locale)
        self.native = (self.format(1234567.5, 1, 1) != format_decimal(
            1234567.5, format="#,##0.0", locale=locale)
            or self.format(1234, 2, 0) != format_decimal(1234, format="#,##0.##",
                                                        locale=locale))

    def format(self, value, max_digits: int = 2, min_digits: int = 0) -> str:
        if getattr(self, "native", False):
            pattern = "#,##0" + ("." + "0" * min_digits + "#" * (max_digits - min_digits)
                                 if max_digits else "")
            return format_decimal(value, format=pattern, locale=self.locale)
        if type(value) is int:
            text, negative = f"{abs(value)}.", value < 0
        else:
            text, negative = self._rounded(value, max_digits)
        whole, _, fraction = text.partition(".")
        fraction = fraction.rstrip("0")
        if len(fraction) < min_digits:
            fraction += "0" * (min_digits - len(fraction))
        grouped = f"{int(whole):,}"
        if self.group != ",":
            grouped = grouped.replace(",", self.group)
        sign = "-" if negative and (whole.strip("0") or fraction.strip("0")) else ""
        return sign + grouped + (self.decimal + fraction if fraction else "")

    @staticmethod
    def _rounded(value, digits: int) -> tuple[str, bool]:
        """``abs(value)`` with ``digits`` decimals, rounded half-even on the shortest
        decimal spelling of the value (as Babel does), and its sign.

        Formatting the float directly rounds its exact binary value, which gives
        the same digits except when the shortest spelling ends exactly on a tie
        (2.675 with two decimals), so only ties go through :mod:`decimal`."""
        if isinstance(value, float):
            spelled = repr(value)
            fraction = spelled.partition(".")[2]
            if ("e" not in spelled and "n" not in spelled
                    and not (len(fraction) == digits + 1 and fraction.endswith("5"))):
                return f"{abs(value):.{digits}f}", value < 0
        number = Decimal(repr(value)) if isinstance(value, float) else Decimal(value)
        if not number.is_finite():
            return str(value), False
        number = number.quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_EVEN)
        return f"{abs(number):f}", number < 0


def template_callables(translations: gettext_module.NullTranslations) -> dict:
    """``gettext``, ``ngettext``, ``pgettext`` and ``_`` for jinja2 templates, with
    the i18n extension's "newstyle" meaning: the translation is formatted with the
    keyword arguments (``%(name)s``), which are escaped, and the result is markup.

    jinja2's own newstyle callables go through the template context on every call;
    a page makes dozens of them, so these look a translation up once per message
    and skip formatting when there is nothing to format.
    """
    cache: dict[str, Markup] = {}
    lookup = translations.gettext

    def gettext(string: str, /, **variables) -> Markup:
        text = cache.get(string)
        if text is None:
            text = cache[string] = Markup(lookup(string))
        if not variables and "%" not in text:
            return text
        return text % variables

    def ngettext(singular: str, plural: str, num: int, /, **variables) -> Markup:
        variables.setdefault("num", num)
        return Markup(translations.ngettext(singular, plural, num)) % variables

    def pgettext(context: str, string: str, /, **variables) -> Markup:
        variables.setdefault("context", context)
        return Markup(translations.pgettext(context, string)) % variables

    return {"gettext": gettext, "_": gettext, "ngettext": ngettext, "pgettext": pgettext}
