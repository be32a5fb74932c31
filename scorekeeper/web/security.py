"""Headers that tell browsers how strictly to treat Scorekeeper's pages."""

from __future__ import annotations

from flask import Flask
from werkzeug.wrappers import Response

#: Everything comes from this site; no inline script runs, no other site may frame a page.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)


def add_security_headers(response: Response) -> Response:
    """Add the content security policy and its companions to every response."""
    response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    # Share links carry their secret in the address: never send it to another site.
    response.headers.setdefault("Referrer-Policy", "same-origin")
    response.headers.setdefault("X-Frame-Options", "DENY")
    return response


def register(app: Flask) -> None:
    """Send the security headers with every response of `app`."""
    app.after_request(add_security_headers)
