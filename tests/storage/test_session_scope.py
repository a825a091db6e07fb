"""One helper for a scope a transaction's parts share in ``session.info``
(refreshing_once, sharing_rounds): kept while the block runs, gone after it (also
when it raises), and never opened twice in one session."""
from __future__ import annotations

import pytest
from sqlmodel import Session

from tourney.app.results import refreshing_once
from tourney.storage.db import open_engine, session_scope
from tourney.tournament.stored_rounds import sharing_rounds


def test_a_scope_is_kept_while_open_and_refused_twice():
    engine = open_engine("sqlite://")
    with Session(engine) as session:
        kept = []
        with session_scope(session, "tourney.test", kept) as value:
            assert value is kept and session.info["tourney.test"] is kept
            with pytest.raises(RuntimeError, match="already open"):
                with session_scope(session, "tourney.test", []):
                    pass  # pragma: no cover - refused before the block
            assert session.info["tourney.test"] is kept  # the first is still open
        assert "tourney.test" not in session.info
        with pytest.raises(KeyError):
            with session_scope(session, "tourney.test", kept):
                raise KeyError("x")
        assert "tourney.test" not in session.info


def test_the_two_scopes_use_it():
    engine = open_engine("sqlite://")
    with Session(engine) as session:
        with sharing_rounds(session), pytest.raises(RuntimeError, match="already open"):
            with sharing_rounds(session):
                pass  # pragma: no cover
        with refreshing_once(session), pytest.raises(RuntimeError, match="already open"):
            with refreshing_once(session):
                pass  # pragma: no cover
        assert not session.info
