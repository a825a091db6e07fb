"""The deal-record CSV of FORMAT.md: reading, writing, and checking files of it."""
