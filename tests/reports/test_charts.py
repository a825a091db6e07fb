"""The rating chart: an inline SVG that parses, says what it shows, and fits its box."""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.reports.charts import HEIGHT, WIDTH, nice_step, rating_chart, series
from tourney.reports.data import HistoryPoint

SVG = "{http://www.w3.org/2000/svg}"


def history(values):
    points = []
    mu, sigma = 25.0, 25 / 3
    for i, (dmu, dsigma) in enumerate(values):
        after = (mu + dmu, max(0.5, sigma - dsigma))
        points.append(HistoryPoint(i + 1, i + 1, 1, mu, sigma, *after))
        mu, sigma = after
    return points


def coordinates(path: str) -> list[tuple[float, float]]:
    return [(float(x), float(y)) for x, y in re.findall(r"[ML](-?[\d.]+),(-?[\d.]+)", path)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.floats(-6, 6), st.floats(-0.5, 1.5)), min_size=1, max_size=80))
def test_chart_parses_and_stays_inside(values):
    points = history(values)
    svg = rating_chart(points, chart_id="c1", title="History", desc="Rating went up")
    root = ET.fromstring(str(svg))
    assert root.tag == SVG + "svg"
    assert root.get("role") == "img"
    assert root.find(SVG + "title").text == "History"
    mu = next(p for p in root.iter(SVG + "path") if p.get("class") == "mu")
    band = next(p for p in root.iter(SVG + "path") if p.get("class") == "band")
    line = coordinates(mu.get("d"))
    assert len(line) == len(points) + 1
    assert len(coordinates(band.get("d"))) == 2 * (len(points) + 1)
    for x, y in coordinates(band.get("d")) + line:
        assert 0 <= x <= WIDTH and 0 <= y <= HEIGHT
    # Higher mu is drawn higher up (smaller y).
    data = series(points)
    for (m1, _), (m2, _), (_, y1), (_, y2) in zip(data, data[1:], line, line[1:]):
        if m2 > m1 + 1e-9:
            assert y2 <= y1  # (coordinates are rounded to 0.1)


def test_text_is_escaped():
    svg = rating_chart(history([(1, 0.2)]), chart_id="c2", title="<script>x</script>",
                       desc='"&<>')
    text = str(svg)
    assert "<script>" not in text
    assert "&lt;script&gt;" in text
    ET.fromstring(text)


def test_a_single_match_and_no_history():
    assert str(rating_chart([], chart_id="c", title="t", desc="d")) == ""
    single = rating_chart(history([(2, 0.5)]), chart_id="c", title="t", desc="d")
    ET.fromstring(str(single))


@given(st.floats(1e-3, 1e6))
def test_nice_steps(span):
    step = nice_step(span)
    mantissa = step / 10 ** __import__("math").floor(__import__("math").log10(step))
    assert round(mantissa, 6) in (1, 2, 5, 10)
    assert span / step <= 5.0001
    assert span / step >= 0.999
