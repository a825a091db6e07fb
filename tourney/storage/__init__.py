"""Storage: the database schema (sqlmodel), sessions, Alembic migrations, the
audit log (:mod:`.audit`) and merge chains of players (:mod:`.merges`).

SQLite by default (a file), any SQLAlchemy URL otherwise; PostgreSQL is the
league-sized backend. Nothing here is specific to one backend without a comment
saying why.
"""
