"""Sessions, CSRF tokens, rate limits and security headers for ``tourney serve``.

Decisions:

- Sessions are kept nowhere: the cookie (HttpOnly, SameSite=Strict) is signed
  with a key derived from the organizer's secret, and its CSRF token is an HMAC of
  its nonce under the same key. So any process of ``tourney serve --workers N``
  checks any cookie, no flood of requests creates server state, and a new secret
  (a restart without TOURNEY_SERVE_PASSWORD) logs everyone out and refuses old
  forms. The organizer's cookie carries its expiry (:data:`ORGANIZER_HOURS`);
  logging out deletes it and revokes it in the process that answered (the other
  workers accept it until it expires, if it was copied before).
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


ORGANIZER_HOURS = 12  # an organizer's login lasts an evening


class Sessions:
    """Signed cookies, checked without a store (see the module's decisions).

    ``a.NONCE``: a visitor (phones at the tables, the venue screen): their CSRF
    token is an HMAC of the nonce. ``o.NONCE.EXPIRES.SIGNATURE``: the organizer,
    logged in until EXPIRES (Unix seconds). Only revoked organizer cookies are
    remembered (logouts, bounded), never a visitor."""

    def __init__(self, secret: str, limit: int = MAX_SESSIONS, clock=time.time):
        self.limit = limit
        self.clock = clock
        self._key = hmac.new(secret.encode(), b"tourney serve sessions", "sha256").digest()
        self._revoked: OrderedDict[str, None] = OrderedDict()
        self._lock = threading.Lock()

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
        if int(expires) < self.clock() or nonce in self._revoked:
            return None
        return nonce

    def start(self) -> tuple[str, dict]:
        """A new organizer's session (a login): a fresh nonce, so no fixation."""
        nonce = secrets.token_urlsafe(18)
        expires = str(int(self.clock()) + ORGANIZER_HOURS * 3600)
        sid = f"o.{nonce}.{expires}.{self._mac(f'o|{nonce}|{expires}')}"
        return sid, {"csrf": self._mac("csrf|" + nonce), "organizer": True}

    def __len__(self) -> int:
        """What this process remembers: the revoked organizer cookies."""
        return len(self._revoked)

    def drop(self, sid: str) -> None:
        """Log an organizer's cookie out (a visitor's has nothing to drop)."""
        nonce = self._organizer_nonce(sid)
        if nonce is None:
            return
        with self._lock:
            self._revoked[nonce] = None
            while len(self._revoked) > self.limit:  # expired ones are the oldest
                self._revoked.popitem(last=False)


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
