"""The small forms of one button (undo, abandon, delete, sign out...): a POST with its CSRF token.

Written here rather than as a template macro: a scoreboard shows up to six of them, and each
macro call cost about twice what this function does.
"""

from __future__ import annotations

from flask_wtf.csrf import generate_csrf
from markupsafe import Markup, escape


def button_form(action: str, label: str, kind: str = "button", confirm: str | None = None) -> Markup:
    """Return a form that posts to `action` with one button (`kind`: its classes), which asks
    `confirm` first when given (app.js asks it)."""
    asks = f' data-confirm="{escape(confirm)}"' if confirm else ""
    # The token is URL-safe base64 and a signature (letters, digits, "-", "_", "."): nothing to escape.
    return Markup(f'<form method="post" action="{escape(action)}" class="inline"{asks}>\n'
                  f'    <input type="hidden" name="csrf_token" value="{generate_csrf()}">\n'
                  f'    <button type="submit" class="{escape(kind)}">{escape(label)}</button>\n'
                  '  </form>')
