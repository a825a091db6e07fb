"""The tourney command line (installed as ``tourney.cli``)."""
