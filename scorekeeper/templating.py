"""Markup that Python code hands on (a chart, a date inside a sentence), laid out by a template's macro."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from flask import current_app
from markupsafe import Markup


def macro(template: str, name: str) -> Callable[..., Markup]:
    """Return the macro `name` of `template` to call from Python, so that its markup stays in the template."""
    return cast(Callable[..., Markup], getattr(current_app.jinja_env.get_template(template).module, name))
