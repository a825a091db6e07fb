"""The site's translation plumbing: catalogues compiled in memory, the message
template kept up to date, numbers in the page's locale."""
from __future__ import annotations

from pathlib import Path

import pytest
from babel import Locale
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from hypothesis import given, settings
from hypothesis import strategies as st
from markupsafe import Markup

from tourney.errors import UsageError
from tourney.reports import i18n
from tourney.reports.i18n import (
    NumberFormat,
    compile_po,
    normalize_language,
    template_callables,
)
from tourney.reports.translated_words import CARD_NAME_IDS, Names

REPORTS = Path(i18n.__file__).resolve().parent

SV_PO = r'''
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

msgid "queen of spades"
msgstr "spader dam"

msgctxt "card rank"
msgid "Q"
msgstr "D"

msgid "Standings"
msgstr "Tabell"

#, fuzzy
msgid "Players"
msgstr "Spelare"

msgid "%(player)s takes the queen of spades"
msgstr "%(player)s tar spader dam"

msgid "%(count)s rated match"
msgid_plural "%(count)s rated matches"
msgstr[0] "%(count)s ratad match"
msgstr[1] "%(count)s ratade matcher"
'''


def test_a_catalogue_compiles_in_memory():
    tr = compile_po(SV_PO, locale="sv")
    assert tr.gettext("Standings") == "Tabell"
    assert tr.gettext("Players") == "Players"  # fuzzy entries are not used
    assert tr.pgettext("card rank", "Q") == "D"
    assert tr.ngettext("%(count)s rated match", "%(count)s rated matches", 3) \
        == "%(count)s ratade matcher"


def test_names_come_from_the_catalogue():
    names = Names(compile_po(SV_PO, locale="sv"))
    qs = 10  # the queen of spades
    assert names.card[qs] == "spader dam"
    assert names.rank[10] == "D"
    assert str(names.card_html[qs]) == '<abbr class="card s" title="spader dam">D♠</abbr>'
    english = Names(i18n.translations("en"))
    assert english.card[qs] == "queen of spades"
    assert len(set(english.card)) == 52 == len(CARD_NAME_IDS)


def test_template_callables_escape_their_arguments():
    calls = template_callables(compile_po(SV_PO, locale="sv"))
    text = calls["gettext"]("%(player)s takes the queen of spades", player="<b>Eve</b>")
    assert isinstance(text, Markup)
    assert str(text) == "&lt;b&gt;Eve&lt;/b&gt; tar spader dam"
    assert str(calls["ngettext"]("%(count)s rated match", "%(count)s rated matches", 1,
                                 count=1)) == "1 ratad match"
    assert str(calls["_"]("100%% sure")) == "100% sure"


def test_languages_are_checked():
    assert normalize_language("sv") == "sv"
    assert normalize_language("no") == "nb"
    assert normalize_language("fi") == "fi"
    with pytest.raises(UsageError):
        normalize_language("klingon-xx")
    with pytest.raises(UsageError):
        normalize_language("")


def test_the_message_template_is_up_to_date():
    """Every message the code and templates use is in messages.pot, and nothing else
    (regenerate with the command in tourney.reports.i18n.EXTRACT_COMMAND)."""
    with open(REPORTS / "babel.cfg", encoding="utf-8") as stream:
        method_map, options_map = parse_mapping_cfg(stream)
    found = set()
    for folder in i18n.SOURCE_DIRS:
        for _file, _line, message, _comments, context in extract_from_dir(
                str(REPORTS.parent / folder), method_map, options_map):
            msgid = message[0] if isinstance(message, tuple) else message
            found.add((context, msgid))
    with open(REPORTS / "locale" / "messages.pot", "rb") as stream:
        catalog = read_po(stream)
    stored = {(m.context, m.id[0] if isinstance(m.id, tuple) else m.id)
              for m in catalog if m.id}
    assert found - stored == set(), "messages.pot lacks these: run " + i18n.EXTRACT_COMMAND
    assert stored - found == set(), "messages.pot has stale messages: run " + i18n.EXTRACT_COMMAND
    assert ("card rank", "Q") in found
    assert (None, "queen of spades") in found
    assert (None, "Relative score") in found


@settings(max_examples=200, deadline=None)
@given(value=st.one_of(st.floats(-1e7, 1e7, allow_nan=False),
                       st.integers(-10 ** 9, 10 ** 9),
                       st.decimals(-1000, 1000, places=3).map(float)),
       lang=st.sampled_from(["en", "sv", "nb", "fi"]))
def test_numbers_are_formatted_as_babel_does(value, lang):
    locale = Locale.parse(lang)
    numbers = NumberFormat(locale)
    for (most, least), pattern in (((2, 0), "#,##0.##"), ((1, 1), "#,##0.0"),
                                   ((2, 2), "#,##0.00")):
        ours = numbers.format(value, most, least)
        babel = format_decimal(value, format=pattern, locale=locale)
        # Decision: no minus sign on a value that rounds to zero (Babel writes -0.0).
        if babel.startswith("-") and not babel.strip("-0.,"):
            babel = babel[1:]
        assert ours == babel
