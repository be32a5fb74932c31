"""Configuration defaults; `create_app` layers instance/config.py and SCOREKEEPER_* variables on top."""

from __future__ import annotations

import os
import secrets
import time
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

#: Where a generated secret key is kept, inside the instance folder.
SECRET_KEY_FILE = "secret_key"
#: The SQLite database in the instance folder, without DATABASE_URL.
DATABASE_FILE = "scorekeeper.sqlite"


class Defaults:
    """The settings a fresh install runs with."""

    #: SQLAlchemy URL of the database; empty means a SQLite file in the instance folder.
    DATABASE_URL = ""
    #: Whether anyone who reaches the app may create an account, once the first one exists.
    SIGNUP_OPEN = True
    #: Whether /setup lets the first visitor of a site without accounts make the first one. None
    #: derives it: open for the quick start (neither DATABASE_URL nor the instance folder named),
    #: closed on a server, whose host makes the first account with `flask --app scorekeeper user create`.
    SETUP_OPEN: bool | None = None
    #: Start a new, empty SQLite database in the default instance folder even though an earlier
    #: setup's database was found elsewhere (`hosting.refuse_a_new_database_beside_an_earlier_one`).
    ALLOW_NEW_DATABASE = False
    #: Apply pending database migrations when the app starts.
    AUTO_MIGRATE = True
    #: Seconds a SQLite connection waits for a lock before giving up.
    SQLITE_BUSY_TIMEOUT = 15
    SQLALCHEMY_ENGINE_OPTIONS: dict[str, object] = {"pool_pre_ping": True}
    #: Set both to true when the app is served over HTTPS, so that cookies never travel in clear.
    SESSION_COOKIE_SECURE = False
    REMEMBER_COOKIE_SECURE = False
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    REMEMBER_COOKIE_HTTPONLY = True
    REMEMBER_COOKIE_SAMESITE = "Lax"
    WTF_CSRF_TIME_LIMIT = None  # a scoreboard stays open all evening; the token lives as long as the session
    MAX_CONTENT_LENGTH = 2 * 1024 * 1024
    #: Where rate-limit counts are kept: memory:// (one process) or e.g. redis://127.0.0.1:6379.
    RATELIMIT_STORAGE_URI = "memory://"
    RATELIMIT_HEADERS_ENABLED = True
    #: Failed sign-ins allowed from one address (whatever the account), from one address for one
    #: account, and for one account from every address together (the ceiling against guesses
    #: spread over many addresses), before a pause; and new accounts from one address.
    SIGN_IN_LIMIT_PER_ADDRESS = "30 per 10 minutes"
    SIGN_IN_LIMIT_PER_ADDRESS_AND_ACCOUNT = "10 per 10 minutes"
    SIGN_IN_LIMIT_PER_ACCOUNT = "100 per hour"
    SIGN_UP_LIMIT_PER_ADDRESS = "10 per hour"
    #: Wrong entry links opened from one address (a right one does not count).
    ENTRY_LINK_LIMIT_PER_ADDRESS = "20 per hour"
    #: How passwords are hashed: a method of werkzeug.security. scrypt makes every guess cost
    #: the server time and memory, which is its point; the test suite names
    #: a cheap one, since it signs in thousands of times.
    PASSWORD_HASH_METHOD = "scrypt"
    #: How long a browser stays signed in (its remember-me cookie, and the sign-in it carries).
    REMEMBER_COOKIE_DURATION = timedelta(days=365)
    #: Behind a reverse proxy, how many proxies' X-Forwarded-For/-Proto to trust (0: none).
    PROXY_FIX = 0
    #: The site's address as the players' phones reach it (e.g. https://scores.example.org), under
    #: which the links handed to other phones are written; empty: the address each request came to.
    PUBLIC_URL = ""
    #: Where the phones of the local network reach this computer (e.g. 192.168.1.20), for the links a
    #: page opened on this computer itself hands out; empty: the address its system routes by.
    LOCAL_NETWORK_ADDRESS = ""
    #: The languages the pages speak, by their codes; English is the default.
    LANGUAGES = {"en": "English", "es": "Español", "it": "Italiano", "nb": "Norsk bokmål"}
    BABEL_DEFAULT_LOCALE = "en"
    #: Flask-Compress: `assets.register` adds it to every answer but the API's (see `assets._compress`).
    COMPRESS_REGISTER = False
    #: Brotli first (smaller than zstd or gzip, and quick enough at level 6 to compress every
    #: page), then zstd, then gzip for the rest.
    COMPRESS_ALGORITHM = ["br", "zstd", "gzip"]
    COMPRESS_BR_LEVEL = 6
    #: Static files are read whole before they are compressed (`assets._compress`); an answer
    #: streamed on purpose stays a stream, left to the proxy.
    COMPRESS_STREAMS = False


def sqlite_url(instance_path: str) -> str:
    """Return the URL of the default SQLite database in the instance folder."""
    return "sqlite:///" + str(Path(instance_path) / DATABASE_FILE)


def load_or_create_secret_key(instance_path: str) -> str:
    """Return the secret key kept in the instance folder, generating it on first use.

    The file is created exclusively and readable by its owner only, so that several
    processes starting at once end up with the one key that was written first.
    """
    path = Path(instance_path) / SECRET_KEY_FILE
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):  # another process may be writing it right now
            key = path.read_text().strip()
            if key:
                return key
            time.sleep(0.02)
        raise RuntimeError(f"{path} is empty; delete it to have a new secret key generated") from None
    key = secrets.token_hex(32)
    with os.fdopen(descriptor, "w") as handle:
        handle.write(key)
    return key


def check_public_url(url: object) -> str:
    """Return PUBLIC_URL without a trailing slash if it is an http(s) address of a site (a path is allowed,
    a query or fragment is not); raise ValueError, naming the setting, for anything else."""
    text = str(url or "").strip()
    if not text:
        return ""
    parts = urlsplit(text)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query or parts.fragment:
        raise ValueError(
            f"SCOREKEEPER_PUBLIC_URL must be the site's address, such as https://scores.example.org; it is {text!r}"
        )
    return text.rstrip("/")
