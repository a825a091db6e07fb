"""Sessions, CSRF tokens, rate limits and security headers for ``tourney serve``.

Decisions:

- Sessions live in the server's memory (one process serves a venue): a random id
  in an HttpOnly, SameSite=Strict cookie; at most :data:`MAX_SESSIONS`, the oldest
  dropped first. A restart logs the organizer out and old forms are refused,
  which is what a restart should do.
- Every form carries the session's CSRF token and every POST from a form is
  checked against it (compared in constant time). The CSV API (``text/csv``)
  needs none: a cross-site page cannot send that content type without a CORS
  preflight, which this server never grants, and its authority is the link's
  token in the URL, not a cookie.
- Rate limits count failures (a wrong link or code, a wrong login) per client
  address in a sliding window; past the limit the address is answered 429 until
  its oldest failure leaves the window. Right answers are never limited, so 100
  tables sending at once are not slowed.
"""
from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import OrderedDict, deque

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


class Sessions:
    """The organizer's logged-in sessions, kept on the server; everyone else's
    (phones at the tables, the venue screen) are kept nowhere.

    A visitor's cookie is ``a.NONCE``: their CSRF token is an HMAC of the nonce under
    a key of this server, so a form can be checked without storing anything. A flood
    of cookie-less requests therefore creates no server state and cannot push the
    organizer's session out (it did: the store held 10,000 and dropped the oldest)."""

    def __init__(self, limit: int = MAX_SESSIONS):
        self.limit = limit
        self._data: OrderedDict[str, dict] = OrderedDict()
        self._lock = threading.Lock()
        self._key = secrets.token_bytes(32)

    def get(self, sid: str | None) -> tuple[str, dict]:
        """The session of a cookie value: the organizer's stored one, a visitor's
        (computed, not stored), or a new visitor's."""
        with self._lock:
            if sid and sid in self._data:
                self._data.move_to_end(sid)
                return sid, self._data[sid]
        nonce = sid[2:] if sid and sid.startswith("a.") and 16 <= len(sid) <= 64 else None
        if nonce is None:
            nonce = secrets.token_urlsafe(18)
        return "a." + nonce, {"csrf": self._visitor_csrf(nonce), "organizer": False}

    def _visitor_csrf(self, nonce: str) -> str:
        return hmac.new(self._key, nonce.encode(), "sha256").hexdigest()

    def start(self) -> tuple[str, dict]:
        """A new stored session (an organizer logging in); the oldest stored one goes
        past ``limit`` (only logins fill the store, and they are rate-limited)."""
        with self._lock:
            sid = secrets.token_urlsafe(24)
            data = {"csrf": secrets.token_urlsafe(24), "organizer": False}
            self._data[sid] = data
            while len(self._data) > self.limit:
                self._data.popitem(last=False)
            return sid, data

    def __len__(self) -> int:
        return len(self._data)

    def drop(self, sid: str) -> None:
        with self._lock:
            self._data.pop(sid, None)


def csrf_ok(session: dict, token: str | None) -> bool:
    return bool(token) and hmac.compare_digest(session["csrf"].encode(), token.encode())


def secret_ok(expected: str, given: str | None) -> bool:
    return bool(given) and hmac.compare_digest(expected.encode(), given.encode())


class FailureLimit:
    """At most ``limit`` failures per key within ``window`` seconds."""

    def __init__(self, limit: int, window: float, clock=time.monotonic):
        self.limit = limit
        self.window = window
        self.clock = clock
        self._failures: dict[str, deque] = {}
        self._lock = threading.Lock()

    def _trim(self, key: str, now: float) -> deque:
        times = self._failures.setdefault(key, deque())
        while times and times[0] <= now - self.window:
            times.popleft()
        return times

    def retry_after(self, key: str) -> int:
        """Seconds to wait (0: not limited)."""
        with self._lock:
            now = self.clock()
            times = self._trim(key, now)
            if len(times) < self.limit:
                return 0
            return max(1, int(times[0] + self.window - now + 1))

    def fail(self, key: str) -> None:
        with self._lock:
            now = self.clock()
            self._trim(key, now).append(now)
            if len(self._failures) > MAX_SESSIONS:  # bounded memory under a flood
                for stale in [k for k, v in self._failures.items() if not v][:1000]:
                    del self._failures[stale]


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
