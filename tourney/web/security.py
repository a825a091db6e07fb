"""Sessions, CSRF tokens, rate limits and security headers for ``tourney serve``.

Decisions:

- Sessions are kept nowhere: the cookie (HttpOnly, SameSite=Strict) is signed
  with a key derived from the organizer's secret, and its CSRF token is an HMAC of
  its nonce under the same key. So any process of ``tourney serve --workers N``
  checks any cookie, no flood of requests creates server state, and a new secret
  (a restart without TOURNEY_SERVE_PASSWORD) logs everyone out and refuses old
  forms. The organizer's cookie carries its expiry (:data:`ORGANIZER_HOURS`);
  logging out deletes it and revokes it: the revoked cookies are the one thing
  remembered (in the process, or with ``--workers N`` in the database, so that
  every process refuses a logged-out cookie), bounded and dropped once expired.
- Every form carries the session's CSRF token and every POST from a form is
  checked against it (compared in constant time). The CSV API (``text/csv``)
  needs none: a cross-site page cannot send that content type without a CORS
  preflight, which this server never grants, and its authority is the link's
  token in the URL, not a cookie.
- Rate limits count failures (a wrong link or code, a wrong login) per client
  address in a sliding window; past the limit the address is answered 429 until
  enough of its failures leave the window. Right answers are never limited, and
  never read the count, so 100 tables sending at once are not slowed. One
  process counts in memory; the processes of ``--workers N`` count together in
  the database (:mod:`tourney.storage.serve_limits`), so the server as a whole
  allows what one process would, however the requests are spread.
"""
from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict
from typing import Protocol

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from tourney.storage import serve_limits

MAX_SESSIONS = 10_000
SESSION_COOKIE = "tourney_session"

# As the static site's, plus what a live page needs: its own scripts' fetches and
# forms that post back to the server.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
       "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # A table's URL is its password: never send it on to another site.
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=()"),
]


ORGANIZER_HOURS = 12  # an organizer's login lasts an evening


class Sessions:
    """Signed cookies, checked without a store (see the module's decisions).

    ``a.NONCE``: a visitor (phones at the tables, the venue screen): their CSRF
    token is an HMAC of the nonce. ``o.NONCE.EXPIRES.SIGNATURE``: the organizer,
    logged in until EXPIRES (Unix seconds). Only revoked organizer cookies are
    remembered (logouts, bounded), never a visitor."""

    def __init__(self, secret: str, limit: int = MAX_SESSIONS, clock=time.time,
                 revoked: Revocations | None = None):
        self.clock = clock
        self._key = hmac.new(secret.encode(), b"tourney serve sessions", "sha256").digest()
        self.revoked = revoked if revoked is not None else MemoryRevocations(limit)

    def _mac(self, text: str) -> str:
        return hmac.new(self._key, text.encode(), "sha256").hexdigest()

    def get(self, sid: str | None) -> tuple[str, dict]:
        """The session of a cookie value: the organizer's (signed, not expired, not
        revoked here), a visitor's, or a new visitor's."""
        organizer = self._organizer_nonce(sid)
        if organizer is not None:
            return sid, {"csrf": self._mac("csrf|" + organizer), "organizer": True}
        nonce = sid[2:] if sid and sid.startswith("a.") and 16 <= len(sid) <= 64 else None
        if nonce is None:
            nonce = secrets.token_urlsafe(18)
        return "a." + nonce, {"csrf": self._mac("csrf|" + nonce), "organizer": False}

    def _organizer_nonce(self, sid: str | None) -> str | None:
        if not sid or not sid.startswith("o.") or len(sid) > 200:
            return None
        parts = sid.split(".")
        if len(parts) != 4 or not parts[2].isdigit():
            return None
        _, nonce, expires, signature = parts
        if not hmac.compare_digest(self._mac(f"o|{nonce}|{expires}"), signature):
            return None
        if int(expires) < self.clock() or self.revoked.has(nonce):
            return None
        return nonce

    def start(self) -> tuple[str, dict]:
        """A new organizer's session (a login): a fresh nonce, so no fixation."""
        nonce = secrets.token_urlsafe(18)
        expires = str(int(self.clock()) + ORGANIZER_HOURS * 3600)
        sid = f"o.{nonce}.{expires}.{self._mac(f'o|{nonce}|{expires}')}"
        return sid, {"csrf": self._mac("csrf|" + nonce), "organizer": True}

    def seal(self, *parts: str) -> str:
        """A signature of ``parts`` (what a redirect carries to the page it leads to,
        such as a sign-up's thank-you): only this server makes one, so a page that
        shows what it was sealed with shows nothing a stranger's link put there."""
        return self._mac("seal|" + "\x00".join(parts))

    def sealed(self, signature: str, *parts: str) -> bool:
        return hmac.compare_digest(self.seal(*parts), signature or "")

    def __len__(self) -> int:
        """What is remembered: the revoked organizer cookies."""
        return len(self.revoked)

    def drop(self, sid: str) -> None:
        """Log an organizer's cookie out (a visitor's has nothing to drop)."""
        nonce = self._organizer_nonce(sid)
        if nonce is not None:
            self.revoked.revoke(nonce, int(sid.split(".")[2]), self.clock())


class Revocations(Protocol):
    """Where the logged-out organizer cookies are remembered until they expire."""

    def revoke(self, nonce: str, expires: int, now: float) -> None: ...

    def has(self, nonce: str) -> bool: ...

    def __len__(self) -> int: ...


class MemoryRevocations:
    """In this process (one process serves): at most ``limit``, expired ones dropped
    first, then the ones that expire soonest."""

    def __init__(self, limit: int = MAX_SESSIONS):
        self.limit = limit
        self._expires: dict[str, int] = {}
        self._lock = threading.Lock()

    def revoke(self, nonce: str, expires: int, now: float) -> None:
        with self._lock:
            self._expires[nonce] = expires
            for old in [n for n, at in self._expires.items() if at < now]:
                del self._expires[old]
            excess = len(self._expires) - self.limit
            for old in sorted(self._expires, key=self._expires.get)[:max(0, excess)]:
                del self._expires[old]

    def has(self, nonce: str) -> bool:
        return nonce in self._expires

    def __len__(self) -> int:
        return len(self._expires)


class DatabaseRevocations:
    """In the database, for every process of ``--workers N`` (one primary-key read
    per organizer request; bounded as :mod:`tourney.storage.serve_limits` says)."""

    def __init__(self, engine, limit: int = MAX_SESSIONS):
        self.engine = engine
        self.limit = limit

    def revoke(self, nonce: str, expires: int, now: float) -> None:
        serve_limits.revoke(self.engine, nonce, expires, now, self.limit)

    def has(self, nonce: str) -> bool:
        return serve_limits.is_revoked(self.engine, nonce)

    def __len__(self) -> int:
        return serve_limits.revoked_count(self.engine)


def csrf_ok(session: dict, token: str | None) -> bool:
    return bool(token) and hmac.compare_digest(session["csrf"].encode(), token.encode())


def secret_ok(expected: str, given: str | None) -> bool:
    return bool(given) and hmac.compare_digest(expected.encode(), given.encode())


class FailureLimit:
    """At most ``limit`` failures per key within ``window`` seconds: the one home of
    the rule. ``store(key, now, window, keep)`` counts a failure and gives the key's
    failures within the window before it (the newest ``keep``, oldest first): this
    process's memory (:class:`MemoryFailures`) or, shared by every process of
    ``--workers N``, the database (:class:`DatabaseFailures`)."""

    def __init__(self, limit: int, window: float, clock=time.time, store=None):
        self.limit = limit
        self.window = window
        self.clock = clock
        self.store = store if store is not None else MemoryFailures()

    def fail(self, key: str) -> int:
        """Count a failure of ``key``: the seconds it must wait first (0: it was not
        limited, this failure is answered as wrong, not refused)."""
        now = self.clock()
        before = self.store(key, now, self.window, self.limit)
        if len(before) < self.limit:
            return 0
        # the key is let through again once the failure that reached the limit
        # has left the window
        return max(1, int(before[-self.limit] + self.window - now + 1))


class MemoryFailures:
    """The failures counted in this process (one process serves): at most ``keep``
    times a key; keys whose failures have all left the window are forgotten, and
    past ``limit`` keys the longest quiet (their next failures count afresh)."""

    def __init__(self, limit: int = MAX_SESSIONS):
        self.limit = limit
        self._failures: OrderedDict[str, list[float]] = OrderedDict()  # quietest first
        self._lock = threading.Lock()

    def __call__(self, key: str, now: float, window: float, keep: int) -> list[float]:
        since = now - window
        with self._lock:
            before = [t for t in self._failures.pop(key, ()) if t > since][-keep:]
            self._failures[key] = (before + [now])[-keep:]
            while self._failures and (len(self._failures) > self.limit
                                      or self._quietest() <= since):
                self._failures.popitem(last=False)
            return before

    def _quietest(self) -> float:
        return self._failures[next(iter(self._failures))][-1]

    def __len__(self) -> int:
        return len(self._failures)


class DatabaseFailures:
    """The failures of one limit (``scope``) counted in the database, together by
    every process of ``tourney serve --workers N``."""

    def __init__(self, engine, scope: str, limit: int = MAX_SESSIONS):
        self.engine = engine
        self.scope = scope
        self.limit = limit

    def __call__(self, key: str, now: float, window: float, keep: int) -> list[float]:
        return serve_limits.record_failure(self.engine, self.scope, key, now, window, keep,
                                           self.limit)

    def __len__(self) -> int:
        return serve_limits.failure_keys(self.engine, self.scope)


class SessionsOffTheLoop:
    """ASGI middleware (``--workers N``): a request that carries an organizer's
    cookie has its session looked up by ``lookup(request)`` in a worker thread
    before the application runs, so the lookup's read of the logouts in the
    database never holds the event loop (the application's own lookups then
    find it done). A visitor's cookie is looked up where it is used: it reads
    nothing."""

    def __init__(self, app, lookup):
        self.app = app
        self.lookup = lookup

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http":
            request = Request(scope)
            if request.cookies.get(SESSION_COOKIE, "").startswith("o."):
                await run_in_threadpool(self.lookup, request)
        await self.app(scope, receive, send)


class SecurityHeaders:
    """ASGI middleware: the headers above on every HTTP response."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                present = {name.lower() for name, _ in headers}
                headers += [h for h in SECURITY_HEADERS if h[0] not in present]
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)
