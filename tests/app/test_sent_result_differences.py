"""What the organizer's side-by-side review marks as differing between two results
of one table (:meth:`tourney.app.tables.SentResult.differences`)."""
from tourney.app.tables import SentResult


def test_a_place_that_becomes_shared_is_marked():
    """Seat 2 is 4th alone in one result and 4= in the other: the grids show "4"
    and "4=", so the cell is marked, though the place's number is the same."""
    players = ["Rasmus", "Dagny", "Gustav", "Olle", "Tor"]
    stored = SentResult(players, [(1, ["5", "15", "20", "5", "5"])],
                        [5, 15, 20, 5, 5], [1, 4, 5, 1, 1])
    sent = SentResult(players, [(1, ["15", "15", "10", "5", "5"])],
                      [15, 15, 10, 5, 5], [4, 4, 3, 1, 1])
    marked = sent.differences(stored)
    assert ("place", 1) in marked  # 4 -> 4=
    assert ("place", 0) in marked and ("place", 2) in marked
    assert ("place", 3) not in marked and ("place", 4) not in marked  # 1= both times
    assert stored.differences(sent) == marked
