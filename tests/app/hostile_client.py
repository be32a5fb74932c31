"""Talking to the server like the three kinds of visitor the hostile-input test plays: one
signed out, one signed in as the first account (with a real session cookie and the CSRF
token of its pages), and a script with an API token.

Requests go over one keep-alive connection per client (http.client opens a new one whenever
the server closes it: gunicorn's sync workers close after every answer). The generated
requests carry placeholders that are replaced here, at sending time, by the visitor's
current CSRF token and API token, so that a visitor signed out by one request can sign in
again and carry on."""

from __future__ import annotations

import http.client
import re
import time
import urllib.parse
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie

#: Stand-ins for the visitor's secrets in generated requests (only unreserved URL characters,
#: so they read the same form-encoded, in JSON and in multipart bodies).
CSRF_MARK = "csrfPLACEHOLDERq7Zk"
TOKEN_MARK = "apiPLACEHOLDERw3Xj"
#: A client gives up on an answer after this many seconds (gunicorn kills a stuck worker sooner).
CLIENT_TIMEOUT = 30.0
SIGNED_OUT, SIGNED_IN, API = "signed out", "signed in", "API token"

_CSRF_META = re.compile(rb'<meta name="csrf-token" content="([^"]+)"')
_NEW_TOKEN = re.compile(rb'<code class="token">([^<]+)</code>')


@dataclass
class Answer:
    """What came back: status, headers and body, or the error that came instead; and how long it took."""

    status: int | None
    headers: list[tuple[str, str]]
    body: bytes
    seconds: float
    error: str | None = None

    def header(self, name: str) -> str:
        """Return the first header called `name`, or ''."""
        return next((value for key, value in self.headers if key.lower() == name.lower()), "")

    def cookies_set(self) -> dict[str, str]:
        """Return the cookies this answer sets, by name ('' for a deleted one)."""
        jar: SimpleCookie = SimpleCookie()
        for key, value in self.headers:
            if key.lower() == "set-cookie":
                try:
                    jar.load(value)
                except CookieError:
                    continue
        return {name: morsel.value for name, morsel in jar.items()}


class Connection:
    """One keep-alive HTTP/1.1 connection to the server, reopened after the server closes it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=CLIENT_TIMEOUT)

    def close(self) -> None:
        """Close the connection, if it is open."""
        self.connection.close()

    def send(self, method: str, path: str, headers: list[tuple[str, str]], body: bytes | None) -> Answer:
        """Send one request and time its answer; a broken connection is an answer with an error."""
        started = time.perf_counter()
        try:
            skip_host = any(name.lower() == "host" for name, _ in headers)
            self.connection.putrequest(method, path, skip_host=skip_host, skip_accept_encoding=True)
            for name, value in headers:
                self.connection.putheader(name, value.encode("utf-8", "surrogateescape"))
            if body is not None and not any(name.lower() == "content-length" for name, _ in headers):
                self.connection.putheader("Content-Length", str(len(body)))
            self.connection.endheaders(body)
            response = self.connection.getresponse()
            data = response.read()
            answer = Answer(response.status, response.getheaders(), data, time.perf_counter() - started)
            if response.will_close:
                self.connection.close()
            return answer
        except (OSError, http.client.HTTPException) as error:
            self.connection.close()
            return Answer(None, [], b"", time.perf_counter() - started, f"{type(error).__name__}: {error}")


@dataclass
class Visitor:
    """A visitor's cookies and secrets, and how to get them back when a request takes them away."""

    kind: str
    username: str
    password: str
    api_token: str = ""
    csrf: str = "no-token-yet"
    cookies: dict[str, str] = field(default_factory=dict)

    def cookie_header(self) -> str:
        """Return the Cookie header for the cookies kept (none deleted)."""
        return "; ".join(f"{name}={value}" for name, value in self.cookies.items() if value)

    def keep(self, answer: Answer) -> None:
        """Keep the cookies an answer sets, and forget those it deletes."""
        for name, value in answer.cookies_set().items():
            if value:
                self.cookies[name] = value
            else:
                self.cookies.pop(name, None)

    def fill(self, text: bytes) -> bytes:
        """Put the visitor's current secrets in place of the placeholders."""
        return text.replace(CSRF_MARK.encode(), self.csrf.encode()).replace(
            TOKEN_MARK.encode(), self.api_token.encode()
        )

    def request(
        self,
        connection: Connection,
        method: str,
        path: str,
        headers: list[tuple[str, str]] | None = None,
        body: bytes | None = None,
    ) -> Answer:
        """Send a request as this visitor (its cookies, its secrets), keeping the cookies it gets."""
        sent = [
            (name, self.fill(value.encode("utf-8", "surrogateescape")).decode("utf-8", "surrogateescape"))
            for name, value in headers or []
        ]
        own_cookies = not any(name.lower() == "cookie" for name, _ in sent)
        if self.cookies and own_cookies:
            sent.append(("Cookie", self.cookie_header()))
        answer = connection.send(
            method, self.fill(path.encode()).decode(), sent, None if body is None else self.fill(body)
        )
        if own_cookies and self.kind != API:  # a script keeps no cookies; forged ones are not the visitor's
            self.keep(answer)
        return answer

    def refresh_csrf(self, connection: Connection, path: str = "/login") -> None:
        """Read the CSRF token of the session from a page's meta tag."""
        answer = self.request(connection, "GET", path)
        found = _CSRF_META.search(answer.body)
        if found is None:
            raise RuntimeError(f"no CSRF token on {path} ({answer.status} {answer.error or ''})")
        self.csrf = found.group(1).decode()

    def sign_in(self, connection: Connection, tries: int = 5) -> None:
        """Sign in afresh (GET /login, then POST it with the page's CSRF token); keep the session.

        Another visitor of the same account may sign every browser out ("Sign out everywhere")
        right after this one signed in: then it signs in again, a few times at most.
        """
        for _ in range(tries):
            self.cookies.clear()
            self.refresh_csrf(connection)
            form = urllib.parse.urlencode(
                {"username": self.username, "password": self.password, "csrf_token": self.csrf}
            ).encode()
            answer = self.request(
                connection, "POST", "/login", [("Content-Type", "application/x-www-form-urlencoded")], form
            )
            if answer.status != 302:
                raise RuntimeError(f"signing in as {self.username} answered {answer.status} {answer.error or ''}")
            if self.still_signed_in(connection):
                return
        raise RuntimeError(f"signing in as {self.username}: signed out again {tries} times in a row")

    def still_signed_in(self, connection: Connection) -> bool:
        """Tell whether the account page still opens for this visitor's account (keeping its CSRF token)."""
        answer = self.request(connection, "GET", "/account")
        found = _CSRF_META.search(answer.body)
        if answer.status != 200 or found is None or f"<h1>{self.username}</h1>".encode() not in answer.body:
            return False
        self.csrf = found.group(1).decode()
        return True

    def sign_out(self, connection: Connection) -> None:
        """Start afresh as a visitor who never signed in, with a CSRF token of its own session."""
        self.cookies.clear()
        self.refresh_csrf(connection)

    def new_api_token(self, connection: Connection) -> str:
        """Make a new API token on the account page (signing in first if need be) and return it."""
        for _ in range(3):
            answer = self.request(
                connection,
                "POST",
                "/account",
                [("Content-Type", "application/x-www-form-urlencoded")],
                urllib.parse.urlencode({"name": "hostile input", "csrf_token": self.csrf}).encode(),
            )
            found = _NEW_TOKEN.search(answer.body)
            if found:
                return found.group(1).decode()
            self.sign_in(connection)
        raise RuntimeError("the account page made no API token")

    def restore(
        self, connection: Connection, sent_headers: list[tuple[str, str]], answer: Answer, helper: Visitor
    ) -> str | None:
        """Put the visitor back as it should be after `answer`; return what was done, if anything.

        A signed-in visitor sent to /login, or signed in as someone (perhaps else) by a
        sign-in or sign-up it sent, signs in again; a signed-out one that got signed in
        starts afresh; a script whose token stopped working gets a new one from `helper`.
        """
        location = urllib.parse.urlsplit(answer.header("Location")).path
        signed_in_now = bool(answer.cookies_set().get("remember_token"))
        if self.kind == SIGNED_IN and (location.startswith("/login") or signed_in_now):
            if self.still_signed_in(connection):
                return None
            self.sign_in(connection)
            return "signed in again"
        if self.kind == SIGNED_OUT and (signed_in_now or "remember_token" in self.cookies):
            self.sign_out(connection)
            return "signed out again"
        used_token = any(
            name == "Authorization"
            and TOKEN_MARK in value
            and value.startswith("Bearer ")
            and value.endswith(TOKEN_MARK)
            for name, value in sent_headers
        )
        if self.kind == API and answer.status == 401 and used_token:
            self.api_token = helper.new_api_token(connection)
            return "took a new API token"
        return None
