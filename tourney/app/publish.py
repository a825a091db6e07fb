"""Use case: publish the static site (standings, seat lists, results, replays,
ratings). It reads the database in its own sessions (and worker processes), so it
takes the engine rather than a session."""
from __future__ import annotations

from ..reports.folders import describe
from ..reports.site import PublishReport
from ..reports.site import publish as publish_site

__all__ = ["PublishReport", "describe", "publish_site"]
