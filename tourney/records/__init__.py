"""The deal-record CSV (docs/guide/records.md): reading, writing, and checking files of it."""
