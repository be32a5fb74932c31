# Type information for Flask-WTF, which ships none (no py.typed marker) and has no stub
# package. Only the names Scorekeeper uses, typed as Flask-WTF 1.2 defines them; WTForms
# itself is typed by types-WTForms.

from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from flask import Blueprint, Flask
from markupsafe import Markup
from wtforms import Field, Form

_Exempt = TypeVar("_Exempt", bound=Blueprint | str | Callable[..., Any])

class FlaskForm(Form):
    """A WTForms form that reads the request's posted data and checks its CSRF token."""

    def __init__(self, formdata: Any = ..., **kwargs: Any) -> None: ...
    def is_submitted(self) -> bool: ...
    def validate_on_submit(self, extra_validators: Mapping[str, Sequence[Any]] | None = None) -> bool: ...
    def hidden_tag(self, *fields: Field | str) -> Markup: ...

class CSRFProtect:
    def __init__(self, app: Flask | None = None) -> None: ...
    def init_app(self, app: Flask) -> None: ...
    def exempt(self, view: _Exempt) -> _Exempt: ...
