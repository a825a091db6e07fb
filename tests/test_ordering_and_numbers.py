"""The one home of table order and of number formatting."""
from __future__ import annotations

from tourney.numbers import number_text, plain_number
from tourney.ordering import natural_key, table_order


def test_tables_in_natural_order_byes_last():
    labels = ["10", None, "2", "A10", "1", "A2", "B"]
    assert sorted(labels, key=table_order) == ["1", "2", "10", "A2", "A10", "B", None]
    assert natural_key("02") != natural_key("2")  # still a total order


def test_numbers_whole_without_decimals():
    assert plain_number(3.0) == 3 and isinstance(plain_number(3.0), int)
    assert plain_number(2.345, 2) == 2.35 and plain_number(1 / 3) == 1 / 3
    assert [number_text(v) for v in (3.0, 2.5, -0.125, 7)] == ["3", "2.5", "-0.12", "7"]
