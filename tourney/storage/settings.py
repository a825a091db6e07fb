"""The published site's settings (``tourney site set/unset/show``).

The settings live in the database, so every publish of a league, from any
machine, names the site the same way:

- ``title``: the site's name, on every page (default: "Dam tournaments" in the
  page's language);
- ``organisation``: who runs it (a club, a federation), at the foot of every page
  and in the open data and feeds;
- ``url``: where the site is on the web (``https://...``, ending in ``/``); with
  it the Atom feeds carry absolute links and ids, without it relative ones.

A value is one line of text (at most 200 characters, control characters refused,
NFC); every change is in the audit log.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from urllib.parse import urlsplit

from sqlalchemy import select
from sqlmodel import Session

from ..errors import Remedy, UsageError
from ..errors.words import N_, Message, quoted
from .audit import record_change
from .models import SiteSetting, utcnow

SETTINGS = {
    "title": "the site's name, on every page",
    "organisation": "who runs the site, at the foot of every page",
    "url": "the site's address on the web (https://...), for absolute links in feeds",
}
MAX_LENGTH = 200


@dataclass(frozen=True)
class SiteSettings:
    title: str | None = None
    organisation: str | None = None
    url: str | None = None

    def to_json(self) -> dict:
        return {"title": self.title, "organisation": self.organisation, "url": self.url}


def check_key(key: str) -> str:
    if key not in SETTINGS:
        raise UsageError(Message(N_("unknown site setting %(key)s; the settings are "
                                    "%(settings)s"),
                                 {"key": quoted(key), "settings": list(SETTINGS)}))
    return key


def check_value(key: str, value: str) -> str:
    text = unicodedata.normalize("NFC", value.strip())
    if not text:
        raise UsageError(Message(N_("site %(key)s needs a value; unsetting it clears it"),
                                 {"key": key}),
                         remedy=Remedy("unset-site-setting", key=key))
    if len(text) > MAX_LENGTH:
        raise UsageError(Message(N_("site %(key)s is %(length)s characters long; at most "
                                    "%(limit)s"),
                                 {"key": key, "length": len(text), "limit": MAX_LENGTH}))
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in text):
        raise UsageError(Message(N_("site %(key)s holds control or invisible formatting "
                                    "characters"), {"key": key}))
    if key == "url":
        parts = urlsplit(text)
        if parts.scheme not in ("http", "https") or not parts.netloc or parts.query \
                or parts.fragment:
            raise UsageError(Message(N_("site url %(url)s is not a web address such as "
                                        "%(example)s"),
                                     {"url": quoted(text), "example": "https://dam.example.org/"}))
        if not text.endswith("/"):
            text += "/"
    return text


def site_settings(session: Session) -> SiteSettings:
    rows = dict(session.execute(select(SiteSetting.key, SiteSetting.value)).all())
    return SiteSettings(**{k: rows.get(k) for k in SETTINGS})


def set_setting(session: Session, key: str, value: str | None) -> tuple[str | None, str | None]:
    """Set (or with ``None`` clear) one setting; (before, after)."""
    check_key(key)
    after = None if value is None else check_value(key, value)
    row = session.execute(select(SiteSetting).where(SiteSetting.key == key)).scalar_one_or_none()
    before = row.value if row is not None else None
    if before == after:
        return before, after
    if after is None:
        session.delete(row)
    elif row is None:
        session.add(SiteSetting(key=key, value=after))
    else:
        row.value = after
        row.updated_at = utcnow()
    record_change(session, "site.set" if after is not None else "site.unset", key,
                  {key: before}, {key: after})
    return before, after


__all__ = ["SETTINGS", "SiteSettings", "check_key", "set_setting", "site_settings"]
