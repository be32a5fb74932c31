"""The small forms of one button (undo, abandon, delete, sign out...): a POST with its CSRF token.

Written here rather than as a template macro: a scoreboard shows up to six of them, and each
macro call cost about twice what this function does.
"""

from __future__ import annotations

from flask_wtf.csrf import generate_csrf
from markupsafe import Markup


def button_form(action: str, label: str, kind: str = "button", confirm: str | None = None) -> Markup:
    """Return a form that posts to `action` with one button (`kind`: its classes), which asks
    `confirm` first when given (app.js asks it)."""
    asks = Markup(' data-confirm="%s"') % confirm if confirm else ""
    return Markup('<form method="post" action="%s" class="inline"%s>\n'
                  '    <input type="hidden" name="csrf_token" value="%s">\n'
                  '    <button type="submit" class="%s">%s</button>\n'
                  '  </form>') % (action, asks, generate_csrf(), kind, label)
