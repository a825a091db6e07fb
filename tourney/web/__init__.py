"""The web server of `tourney serve`: table pages, organizer pages, live standings."""
