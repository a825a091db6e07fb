"""Every page type at phone, tablet and desktop widths, in every language: nothing
makes the page scroll sideways, what matters is inside the viewport, and axe-core
finds no serious or critical accessibility violation.

One league is published once (in en, sv, nb and fi) and one Chromium visits each
page once per language; the widths are set on the loaded page. axe-core comes from
the npm registry (``.ci/setup`` installs it into ``.cache/axe``) and is injected by
Playwright as an init script, so each page loads it as it opens instead of being sent
half a megabyte of script per page (the context bypasses the pages' Content Security
Policy for it).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from conftest import launched_chromium, run_cli
from site_helpers import league_site

pytest.importorskip("playwright.sync_api")  # the module skips without Playwright

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
AXE = REPO / ".cache" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = (320, 375, 768, 1280)
LANGS = ("en", "sv", "nb", "fi")
# axe runs at every width in the first language and at 375 px (the phone width the
# layout was first measured at) in the others: the translations change the text,
# not the markup or colours, and a full run of every language at every width costs
# minutes. TOURNEY_AXE_FULL=1 runs axe on the whole matrix.
AXE_FULL = os.environ.get("TOURNEY_AXE_FULL") == "1"


def axe_wanted(lang: str, width: int) -> bool:
    return AXE_FULL or lang == LANGS[0] or width == 375

# What must be readable without sideways scrolling, per page type: every element
# the selector finds lies inside the viewport.
KEY_CELLS = {
    "event": "table.standings tbody tr td:nth-child(-n+3)",
    "match": "table.result tbody td",
    "replay-tricks": "table.tricks tbody tr td.play",
    "round": ".table-card li",
    "round-part": ".table-card li",
    "round-index": "table.by-name tbody tr td:nth-child(-n+2)",
    "ratings": "table.leaderboard tbody tr td:nth-child(-n+3)",
    "player": "table.player-matches tbody tr td:nth-child(-n+4)",
    "players": "table.players tbody tr td:first-child",
    "index": "table.events tbody tr td",
    "screen": "table.standings tbody tr td:nth-child(-n+3)",
    "sheets": "table.sheet thead th",
}


def page_types(site: Path) -> dict[str, str]:
    """One page of every type, as a path inside a language tree."""
    def first(pattern: str, exclude: str = "\0") -> str:
        found = sorted(p for p in site.glob(pattern) if exclude not in p.name)
        assert found, pattern
        return found[0].relative_to(site).as_posix()

    return {
        "index": "index.html",
        "players": "players/index.html",
        "player": "players/8.html",
        "ratings": first("ratings/*.html"),
        "event": "events/spring-cup/index.html",
        "event-upcoming": "events/autumn-open/index.html",
        "round": "events/spring-cup/round-1.html",
        # a big round (its tables on pages of their own; PART_TABLES below)
        "round-index": "events/brade-cup/round-1.html",
        "round-part": "events/brade-cup/round-1-part-1.html",
        "sheets": "events/spring-cup/round-1-sheets.html",
        "screen": "events/spring-cup/screen.html",
        "match": first("events/spring-cup/match-*.html", "deal"),
        "replay-tricks": first("events/spring-cup/match-*-deal-1.html"),
        "replay-exchanges": first("events/maja-open/match-*-deal-1.html"),
        "replay-turns": first("events/row-club/match-*-deal-1.html"),
        "replay-board": first("events/brade-cup/match-*-deal-1.html"),
    }


# Tables on a page of a big round while the league is published: brädcupen's rounds of
# four tables are paged (two pages), the spring cup's of two stay one page.
PART_TABLES = 2


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    from tourney.reports import site as site_module

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(site_module, "ROUND_PART_TABLES", PART_TABLES)
        return league_site(run_cli, tmp_path_factory.mktemp("layout-league"), LANGS)


MEASURE = """(selector) => {
  const width = window.innerWidth;
  const out = {scrollWidth: document.documentElement.scrollWidth, outside: [], found: 0};
  if (selector) {
    for (const el of document.querySelectorAll(selector)) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 && r.height === 0) { continue; }
      out.found += 1;
      if (r.left < -0.5 || r.right > width + 0.5) {
        out.outside.push(el.tagName + ' "' + el.textContent.trim().slice(0, 30) + '" '
                         + Math.round(r.left) + '..' + Math.round(r.right));
      }
    }
  }
  return out;
}"""

# The replay steps not shown (display: none) are left out: axe would skip their
# content anyway, and they are the shown step's template over again.
AXE_RUN = """async () => {
  const hidden = [...document.querySelectorAll(".steps > .step")]
    .filter(e => getComputedStyle(e).display === "none").map(e => [e]);
  const context = hidden.length ? {include: [document], exclude: hidden} : document;
  const result = await axe.run(context, {resultTypes: ["violations"]});
  return result.violations.map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length,
    target: v.nodes[0] && v.nodes[0].target.join(" ")}));
}"""


@pytest.fixture(scope="module")
def survey(site):
    """Per (language, page type, width): the page's scroll width, the key cells
    outside the viewport, and axe's violations."""
    assert AXE.is_file(), f"axe-core is missing: run .ci/setup (expected {AXE})"
    results = {}
    with launched_chromium() as browser:
        context = browser.new_context(bypass_csp=True,
                                      viewport={"width": WIDTHS[0], "height": 800})
        context.add_init_script(path=str(AXE))
        page = context.new_page()
        for lang in LANGS:
            tree = site if lang == LANGS[0] else site / lang
            for kind, path in page_types(site).items():
                page.set_viewport_size({"width": WIDTHS[0], "height": 800})
                page.goto((tree / path).resolve().as_uri())
                for width in WIDTHS:
                    if width != WIDTHS[0]:  # the page opened at the first width
                        page.set_viewport_size({"width": width, "height": 800})
                    measured = page.evaluate(MEASURE, KEY_CELLS.get(kind))
                    measured["violations"] = (page.evaluate(AXE_RUN)
                                              if axe_wanted(lang, width) else None)
                    results[(lang, kind, width)] = measured
        context.close()
    keep = os.environ.get("TOURNEY_SURVEY")  # a JSON file of the figures, for reports
    if keep:
        Path(keep).write_text(json.dumps(
            [{"lang": k[0], "page": k[1], "width": k[2], **v} for k, v in results.items()],
            ensure_ascii=False, indent=1), encoding="utf-8")
    return results


def test_no_page_scrolls_sideways_and_what_matters_is_in_view(survey):
    wide = {key: m["scrollWidth"] for key, m in survey.items() if m["scrollWidth"] > key[2]}
    assert wide == {}
    outside = {key: m["outside"][:3] for key, m in survey.items() if m["outside"]}
    assert outside == {}
    # The selectors found their cells (a renamed class would make the test vacuous).
    for (lang, kind, width), measured in survey.items():
        if kind in KEY_CELLS:
            assert measured["found"] > 0, (lang, kind, width)


def page_types_seen(survey) -> set[str]:
    return {kind for _, kind, _ in survey}


def test_axe_finds_no_serious_or_critical_violation(survey):
    serious = {}
    checked = [key for key, measured in survey.items() if measured["violations"] is not None]
    assert {kind for _, kind, _ in checked} == set(page_types_seen(survey))
    assert {width for lang, _, width in checked if lang == LANGS[0]} == set(WIDTHS)
    assert {lang for lang, _, width in checked if width == 375} == set(LANGS)
    for key in checked:
        measured = survey[key]
        bad = [v for v in measured["violations"] if v["impact"] in ("serious", "critical")]
        if bad:
            serious["/".join(map(str, key))] = bad
    assert serious == {}, json.dumps(serious, indent=1, ensure_ascii=False)[:4000]
