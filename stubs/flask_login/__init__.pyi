# Type information for Flask-Login, which ships none (no py.typed marker) and has no stub
# package. Only the names Scorekeeper uses, typed as Flask-Login 0.6 defines them.

from collections.abc import Callable
from datetime import timedelta
from typing import Any, ParamSpec, Protocol, TypeVar

from flask import Flask
from werkzeug.wrappers import Response

_P = ParamSpec("_P")
_R = TypeVar("_R")
_UserLoader = TypeVar("_UserLoader", bound=Callable[[str], Any])

class _User(Protocol):
    """What Flask-Login asks of a user object."""

    @property
    def is_active(self) -> bool: ...
    def get_id(self) -> str | None: ...

class UserMixin:
    __hash__ = object.__hash__

    @property
    def is_active(self) -> bool: ...
    @property
    def is_authenticated(self) -> bool: ...
    @property
    def is_anonymous(self) -> bool: ...
    def get_id(self) -> str: ...
    def __eq__(self, other: object) -> bool: ...
    def __ne__(self, other: object) -> bool: ...

class LoginManager:
    login_view: str | None
    login_message: str

    def __init__(self, app: Flask | None = None, add_context_processor: bool = True) -> None: ...
    def init_app(self, app: Flask, add_context_processor: bool = True) -> None: ...
    def user_loader(self, callback: _UserLoader) -> _UserLoader: ...

#: The request's user: whatever the app's user loader returned, or the anonymous user. The
#: library cannot name the app's user class, so it is Any (as the proxy makes it at run time).
current_user: Any

def login_user(
    user: _User, remember: bool = False, duration: timedelta | None = None, force: bool = False, fresh: bool = True
) -> bool: ...
def logout_user() -> bool: ...

# The wrapped view answers a visitor who is not signed in with the login manager's redirect.
def login_required(func: Callable[_P, _R]) -> Callable[_P, _R | Response]: ...
