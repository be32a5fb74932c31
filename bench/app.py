"""The app as the benchmark serves it: the product, plus a floor page to compare every page with.

The floor is the same stack (sign-in check, session, CSRF token, translations, the base
template) rendering an empty body: what any page costs before it does any work of its own.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import Flask, render_template

from scorekeeper import create_app

FLOOR_PATH = "/bench/floor"


def bench_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    """Create the app with the floor page added."""
    app = create_app(test_config)
    app.add_url_rule(FLOOR_PATH, "bench_floor", lambda: render_template("base.html"))
    return app
