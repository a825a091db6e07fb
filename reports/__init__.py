"""The static site (installed as ``tourney.reports``)."""
