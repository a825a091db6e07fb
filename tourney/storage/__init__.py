"""Storage: the database schema (sqlmodel), sessions, and Alembic migrations.

SQLite by default (a file), any SQLAlchemy URL otherwise; PostgreSQL is the
league-sized backend. Nothing here is specific to one backend without a comment
saying why.
"""
