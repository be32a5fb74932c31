"""Limits on guessing: failed sign-ins counted per address, per address and account, and per account;
wrong entry links counted per address.

A stranger guessing from one address is stopped by the first two limits long before the
third, so the account's owner, signing in from anywhere else, still gets in; the higher
per-account ceiling stops guessing spread over many addresses. Nothing here makes a worker
wait: an attempt over a limit is answered at once.

The counts live in Flask-Limiter's storage (RATELIMIT_STORAGE_URI: `memory://` for one
process, `redis://…` shared by every process and host) and are kept with the `limits`
package that Flask-Limiter is built on. Flask-Limiter's decorators count requests; these
limits count failures, so each attempt is counted as it arrives (a burst of parallel
guesses cannot slip past the limit) and given back when the password was right.
"""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass, field

from flask import current_app, request
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage, Storage
from limits.strategies import FixedWindowRateLimiter

from ..extensions import limiter
from ..models import name_key

log = logging.getLogger(__name__)

#: Used only while the shared storage cannot be reached, so that the limits still hold per process.
_FALLBACK = MemoryStorage()


@dataclass
class Attempt:
    """One sign-in attempt, counted against each limit it falls under."""

    counted: list[tuple[RateLimitItem, str]] = field(default_factory=list)
    #: Whether every limit still had room when the attempt arrived.
    allowed: bool = True
    #: Seconds until the first exhausted limit has room again (for Retry-After).
    retry_after: int = 0


def _account_key(username: object) -> str:
    """Return the account tried, however it was spelt, as a short digest (it may not exist)."""
    return hashlib.sha256(name_key(str(username or ""))[:200].encode("utf-8", "replace")).hexdigest()[:32]


def _limits(username: object) -> list[tuple[RateLimitItem, str]]:
    config = current_app.config
    address = request.remote_addr or "unknown"
    account = _account_key(username)
    return [
        (parse(config["SIGN_IN_LIMIT_PER_ADDRESS"]), f"address:{address}"),
        (parse(config["SIGN_IN_LIMIT_PER_ADDRESS_AND_ACCOUNT"]), f"pair:{address}:{account}"),
        (parse(config["SIGN_IN_LIMIT_PER_ACCOUNT"]), f"account:{account}"),
    ]


def _strategy() -> FixedWindowRateLimiter:
    storage: Storage = limiter.storage
    try:
        if storage.check():
            return FixedWindowRateLimiter(storage)
    except storage.base_exceptions:
        pass
    log.warning("The rate-limit storage cannot be reached; sign-in limits are counted per process meanwhile.")
    return FixedWindowRateLimiter(_FALLBACK)


def _scope() -> str:
    return f"{current_app.config.get('RATELIMIT_KEY_PREFIX', '')}sign-in"


def begin(username: object) -> Attempt:
    """Count a sign-in attempt for `username` from this request's address, unless a limit is used up."""
    strategy, scope = _strategy(), _scope()
    attempt = Attempt()
    limits = _limits(username)
    for item, key in limits:
        if not strategy.test(item, scope, key):
            attempt.allowed = False
            attempt.retry_after = max(attempt.retry_after, _seconds_left(strategy, item, scope, key))
    if not attempt.allowed:
        return attempt
    for item, key in limits:
        attempt.counted.append((item, key))
        if not strategy.hit(item, scope, key):  # a parallel attempt took the last place first
            attempt.allowed = False
            attempt.retry_after = max(attempt.retry_after, _seconds_left(strategy, item, scope, key))
    if not attempt.allowed:
        forgive(attempt)  # refused attempts check no password, so they count as no failure
    return attempt


def forgive(attempt: Attempt) -> None:
    """Give back what `attempt` counted: it was no failure (the password was right, or it was refused)."""
    strategy, scope = _strategy(), _scope()
    for item, key in attempt.counted:
        # A fixed window keeps a plain counter; a negative cost takes one back off it.
        strategy.hit(item, scope, key, cost=-1)
    attempt.counted = []


def _seconds_left(strategy: FixedWindowRateLimiter, item: RateLimitItem, scope: str, key: str) -> int:
    reset, _remaining = strategy.get_window_stats(item, scope, key)
    return max(1, int(reset - time.time()) + 1)


def wrong_entry_link() -> Attempt:
    """Count a wrong entry link opened from this request's address; not allowed once the address used up
    its limit (ENTRY_LINK_LIMIT_PER_ADDRESS).

    Only wrong links are counted, and only after the link was looked up: a right one always gets
    in, so that a guesser on the table's Wi-Fi cannot lock the table's own phones out.
    """
    strategy = _strategy()
    item = parse(current_app.config["ENTRY_LINK_LIMIT_PER_ADDRESS"])
    scope, key = f"{current_app.config.get('RATELIMIT_KEY_PREFIX', '')}entry-link", f"address:{request.remote_addr}"
    attempt = Attempt()
    if not strategy.hit(item, scope, key):
        attempt.allowed = False
        attempt.retry_after = _seconds_left(strategy, item, scope, key)
    return attempt
