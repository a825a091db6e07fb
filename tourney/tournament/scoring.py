"""Match points: what a place at a table is worth, and what a bye is worth.

Two systems (``Event.points``):

``share`` (the default)
    The share of the table's other players that the player finished ahead of, a
    shared place counting half: ``(behind + 0.5 * tied) / (n - 1)``. A match is worth
    0 to 1 at any table size: 1 for a clear win, 0 for a clear last place, ½ each
    for two players sharing a two-player table. Winning at a table of three is worth
    what winning at a table of five is, so the table sizes a player happened to be
    seated at do not decide the standings.
``place``
    At a table of n the first place gets n - 1 points, the last 0; players sharing
    places share the points of the places they cover (two sharing first at a table
    of four get (3 + 2) / 2 = 2.5 each). A win at a big table is worth more.

Byes (``Event.bye_points``): the points a bye is worth; ``None`` means a win's worth
(1 under ``share``; under ``place`` the winner's points at a table of the event's
preferred size, n - 1).

The share of a place is also what the tie-breaks measure opponents by (see
:mod:`.standings`), whatever the event's points system.
"""
from __future__ import annotations

from typing import Sequence

from ..errors import InvalidValue, UsageError
from ..errors.words import N_, Message, quoted

# The points systems, as codes: ``share`` (the share of the table's other players
# finished ahead of) and ``place`` (n-1 points for first place down to 0); the
# command line says what each is (cli/events.py), the pages in their languages.
POINTS_SYSTEMS: tuple[str, ...] = ("share", "place")
DEFAULT_POINTS = "share"
MAX_BYE_POINTS = 1000


def check_points_system(system: str | None) -> str:
    system = DEFAULT_POINTS if system is None else str(system).strip()
    if system not in POINTS_SYSTEMS:
        raise unknown_points_system(system)
    return system


def unknown_points_system(system: str) -> UsageError:
    return UsageError(Message(N_("unknown points system %(name)s (use %(known)s)"),
                              {"name": quoted(system), "known": list(POINTS_SYSTEMS)}))


def check_bye_points(value: float | None) -> float | None:
    if value is None:
        return None
    value = float(value)
    if not 0 <= value <= MAX_BYE_POINTS:  # also refuses NaN
        raise InvalidValue("bye_points", f"{value:g}",
                           Message(N_("%(least)s to %(most)s"), {"least": 0, "most": MAX_BYE_POINTS}))
    return value


def place_shares(places: Sequence[int]) -> list[float]:
    """Per player, the share of the other players at the table finished ahead of.

    ``places`` are competition places (1, 2, 2, 4); a player sharing a place with k
    others counts each of them half. A lone player (a table of one) gets 1.
    """
    n = len(places)
    if n < 2:
        return [1.0] * n
    shares = []
    for place in places:
        behind = sum(1 for p in places if p > place)
        tied = sum(1 for p in places if p == place) - 1
        shares.append((behind + 0.5 * tied) / (n - 1))
    return shares


def place_points(places: Sequence[int]) -> list[float]:
    """n - 1 for first place down to 0 for last; shared places share their points."""
    n = len(places)
    points = []
    for place in places:
        shared = sum(1 for p in places if p == place)
        best, worst = n - place, n - place - shared + 1
        points.append((best + worst) / 2)
    return points


def match_points(places: Sequence[int], system: str = DEFAULT_POINTS) -> list[float]:
    """The match points of each place at one table under ``system``."""
    if system == "place":
        return place_points(places)
    if system == "share":
        return place_shares(places)
    raise unknown_points_system(system)


def win_points(system: str, table_size: int) -> float:
    """What a clear win is worth under ``system`` at a table of ``table_size``."""
    return 1.0 if system == "share" else float(max(table_size - 1, 0))


def bye_points(system: str, bye_setting: float | None, preferred_size: int) -> float:
    """A bye's points: the event's setting, else a win's worth at the preferred size."""
    if bye_setting is not None:
        return float(bye_setting)
    return win_points(system, preferred_size)


def event_bye_points(event) -> float:
    """The points a bye gives in ``event`` (an :class:`~tourney.storage.models.Event`)."""
    return bye_points(event.points, event.bye_points, event.table_preferred)


# Tie-breaks that sum the opponents' match points: a player at a bigger table has more
# opponents to sum (the guide: "rewards big tables; for events with one table size").
SUMMING_TIEBREAKS = ("buchholz", "buchholz-cut1", "median-buchholz")


def big_table_bias(event) -> list[str]:
    """What of ``event``'s scoring rewards sitting at the bigger tables when its
    tables differ in size (``table_min`` < ``table_max``): ``"place"`` for place
    points (the winner of a table of n gets n-1), then each summing tie-break, in
    the event's order. Empty for one table size, or for share points and averaging
    tie-breaks. The command line and the pages word it."""
    if event.table_min == event.table_max:
        return []
    from .settings import event_settings  # settings reads the engines: imported late

    found = ["place"] if event.points == "place" else []
    return found + [t for t in event_settings(event).tiebreaks if t in SUMMING_TIEBREAKS]
