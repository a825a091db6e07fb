"""Use cases on the published site's settings: title, organisation, address
(:mod:`tourney.storage.settings` says what each is)."""
from __future__ import annotations

from ..storage.settings import SETTINGS, SiteSettings, set_setting, site_settings

__all__ = ["SETTINGS", "SiteSettings", "set_setting", "site_settings"]
