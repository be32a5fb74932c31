# Type information for the one name Scorekeeper uses from Flask-WTF's csrf module.

def generate_csrf(secret_key: str | None = None, token_key: str | None = None) -> str:
    """Return the request's CSRF token (made once per request, kept in the session)."""
