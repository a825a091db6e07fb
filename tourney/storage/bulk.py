"""Writing many rows of one table at once, by each backend's fastest path.

The importer writes a million deal rows for a season and the ratings a history row
per player per match; both go through :class:`BulkInsert`, on the session's own
connection and inside its transaction (:func:`set_by_id` sets one column of many
rows the same way):

- PostgreSQL with psycopg 3: ``COPY ... FROM STDIN`` (an executemany there is one
  INSERT per row; 10,000 history rows took 3.8 s, by COPY 0.2 s). A few rows
  (up to :data:`PG_VALUES_ROWS`: one table's result, as ``tourney serve`` stores
  it) go as one INSERT of that many VALUES rows instead: one round trip to the
  server where a COPY takes two (its start, then its data), and the server's
  group commit stores a hundred results in a burst, each in a few such writes.
- SQLite: the driver's executemany of one INSERT with :attr:`BulkInsert.per_statement`
  VALUES rows (the rest, fewer, one row a statement). Each statement SQLite runs
  costs its own binding, stepping and resetting besides the row's work, about a
  third of a plain executemany: 1M deal rows 4.0 -> 2.8 s CPU, 20,000 history rows
  625 M -> 402 M instructions. A statement takes at most 999 parameters (SQLite's
  oldest limit; newer builds allow more).
- Any other backend, or :data:`FAST_BULK_WRITES` off: SQLAlchemy's bulk insert,
  which runs each row's parameters through Python (the slow, portable way).

Rows are plain tuples in ``columns`` order, with values as the driver takes them.
A refused row raises SQLAlchemy's error, as any statement's would.
"""
from __future__ import annotations

import sqlite3
from datetime import datetime
from itertools import chain
from typing import Sequence

from sqlalchemy import bindparam, func, insert, select, text, update
from sqlalchemy.exc import DBAPIError

# Whether rows go to the driver directly (SQLite's executemany, psycopg's COPY)
# rather than through SQLAlchemy's bulk insert: a switch for the tests, which check
# that both ways store the same rows.
FAST_BULK_WRITES = True
# Bound parameters one SQLite statement may have (SQLITE_MAX_VARIABLE_NUMBER before
# 3.32; later builds default to 32,766).
SQLITE_MAX_PARAMETERS = 999
# Rows a PostgreSQL write sends as one INSERT ... VALUES rather than by COPY (the
# module's docstring); its parameters stay far below PostgreSQL's 65,535.
PG_VALUES_ROWS = 50


class BulkInsert:
    """Inserts of plain tuples into ``table``'s ``columns`` on ``session``'s
    connection (see the module's docstring for how, per backend)."""

    def __init__(self, session, table, columns: Sequence[str]):
        self.session = session
        self.table = table
        self.columns = tuple(columns)
        self._with_id: BulkInsert | None = None  # the same columns and ``id`` (write_new)
        connection = session.connection()
        dialect = connection.dialect
        preparer = dialect.identifier_preparer
        names = ", ".join(preparer.quote(c) for c in self.columns)
        target = preparer.format_table(table)
        self.mode = "sqlalchemy"
        if not FAST_BULK_WRITES:
            return
        if dialect.name == "postgresql" and dialect.driver == "psycopg":
            self.mode = "copy"
            self.sql = f"COPY {target} ({names}) FROM STDIN"
            self.values_sql = f"INSERT INTO {target} ({names}) VALUES "
            self.values_row = "(" + ", ".join(["%s"] * len(self.columns)) + ")"
        elif dialect.name == "sqlite":
            self.mode = "sqlite"
            marks = "(" + ", ".join("?" * len(self.columns)) + ")"
            self.sql = f"INSERT INTO {target} ({names}) VALUES {marks}"
            self.per_statement = max(1, SQLITE_MAX_PARAMETERS // len(self.columns))
            self.multi_sql = "".join([self.sql] + [", " + marks] * (self.per_statement - 1))

    def bound(self, column: str, value):
        """``value`` of ``column`` as this writer's rows must hold it: as the column
        type's bind processor and the driver's adapter give it (a time, say,
        converted once for a batch of rows instead of once a row). SQLAlchemy's
        bulk insert converts each row itself: there, ``value`` as it is."""
        if self.mode == "sqlalchemy":
            return value
        process = self.table.c[column].type.bind_processor(self.session.connection().dialect)
        if process is not None:
            value = process(value)
        if self.mode == "sqlite":
            return _sqlite_adapted(value)
        if isinstance(value, datetime) and value.tzinfo is not None:
            return str(value)  # psycopg's text dumper of an aware datetime, as COPY writes it
        return value

    def write(self, rows: Sequence[tuple]) -> None:
        if not rows:
            return
        connection = self.session.connection()
        if self.mode == "sqlite":
            per = self.per_statement
            whole = len(rows) - len(rows) % per
            if whole:
                flat = chain.from_iterable
                connection.exec_driver_sql(
                    self.multi_sql,
                    [tuple(flat(rows[first:first + per])) for first in range(0, whole, per)])
            if whole < len(rows):
                connection.exec_driver_sql(self.sql, list(rows[whole:]))
        elif self.mode == "copy" and len(rows) <= PG_VALUES_ROWS:
            connection.exec_driver_sql(
                self.values_sql + ", ".join([self.values_row] * len(rows)),
                tuple(chain.from_iterable(rows)))
        elif self.mode == "copy":
            dbapi = connection.dialect.loaded_dbapi
            raw = connection.connection.driver_connection
            try:
                with raw.cursor() as cursor, cursor.copy(self.sql) as copy:
                    write_row = copy.write_row
                    for row in rows:
                        write_row(row)
            except dbapi.Error as err:
                raise DBAPIError.instance(self.sql, None, err, dbapi.Error) from None
        else:
            names = self.columns
            self.session.execute(insert(self.table), [dict(zip(names, row)) for row in rows])

    def write_new(self, rows: Sequence[tuple]) -> list[int]:
        """Insert ``rows`` (tuples in the writer's columns, no ``id``) as new rows of
        a table keyed by an integer ``id``; their ids, in row order.

        The ids are taken first (SQLite: after the largest id there is, which is
        what SQLite gives a new row itself, within the transaction's write lock;
        PostgreSQL: from the table's sequence), so the rows go by the fast path
        too; elsewhere SQLAlchemy's INSERT ... RETURNING in parameter order.
        """
        if not rows:
            return []
        if self.mode == "sqlalchemy":
            id_column = self.table.c.id
            names = self.columns
            return list(self.session.execute(
                insert(self.table).returning(id_column, sort_by_parameter_order=True),
                [dict(zip(names, row)) for row in rows]).scalars())
        if self.mode == "copy" and len(rows) == 1 <= PG_VALUES_ROWS:
            # one row (one table's result, as the server stores it): its id from
            # the column's default, in the INSERT's one round trip instead of two
            return [self.session.connection().exec_driver_sql(
                self.values_sql + self.values_row + " RETURNING id", tuple(rows[0])).scalar_one()]
        ids = self._take_ids(len(rows))
        if self._with_id is None:
            self._with_id = BulkInsert(self.session, self.table, ("id",) + self.columns)
        self._with_id.write([(new_id,) + row for new_id, row in zip(ids, rows)])
        return ids

    def _take_ids(self, count: int) -> list[int]:
        connection = self.session.connection()
        if self.mode == "sqlite":
            # A BEGIN IMMEDIATE transaction (tourney.storage.db.transaction) holds
            # the write lock: no other connection adds a row before this one does.
            last = connection.execute(select(func.max(self.table.c.id))).scalar() or 0
            return list(range(last + 1, last + 1 + count))
        name = connection.dialect.identifier_preparer.format_table(self.table)
        return sorted(connection.execute(
            text("SELECT nextval(pg_get_serial_sequence(:table, 'id')) "
                 "FROM generate_series(1, :count)"),
            {"table": name, "count": count}).scalars())


def _sqlite_adapted(value):
    """``value`` as sqlite3 binds it (its registered adapter applied), or as is when
    sqlite3 has no adapter for it (it binds the value itself)."""
    if isinstance(value, (int, float, str, bytes)) or value is None:
        return value
    try:
        return sqlite3.adapt(value)
    except sqlite3.ProgrammingError:
        return value


def set_by_id(session, table, column: str, values: Sequence[tuple]) -> None:
    """Set ``column`` of many rows of ``table``: ``values`` are ``(value, id)``
    pairs. SQLite and PostgreSQL get the driver's executemany of one UPDATE
    (SQLAlchemy's processed each row's parameters in Python), anything else, or
    :data:`FAST_BULK_WRITES` off, SQLAlchemy's."""
    if not values:
        return
    connection = session.connection()
    dialect = connection.dialect
    if FAST_BULK_WRITES and dialect.name in ("sqlite", "postgresql"):
        mark = "?" if dialect.paramstyle == "qmark" else "%s"
        preparer = dialect.identifier_preparer
        connection.exec_driver_sql(
            f"UPDATE {preparer.format_table(table)} SET {preparer.quote(column)} = {mark} "
            f"WHERE id = {mark}", list(values))
        return
    session.execute(update(table).where(table.c.id == bindparam("b_id"))
                    .values({column: bindparam("b_value")}),
                    [{"b_value": value, "b_id": row_id} for value, row_id in values])


__all__ = ["BulkInsert", "FAST_BULK_WRITES", "PG_VALUES_ROWS", "set_by_id"]
