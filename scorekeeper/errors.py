"""Why a change cannot be made: the errors that services raise and every layer may catch."""

from __future__ import annotations


class ServiceError(Exception):
    """A change that cannot be made; `message` is a sentence for the user, `field` where it belongs."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field


class InvalidInput(ServiceError):
    """The input is not acceptable (a name taken, a password too short…)."""


class NotFound(ServiceError):
    """The thing does not exist in this account."""


class Conflict(ServiceError):
    """The match changed meanwhile (another phone entered the deal), or the change no longer applies."""


class MatchOver(Conflict):
    """The match ended (finished or abandoned) before the change came, and takes no more deals;
    `status` says how it ended."""

    def __init__(self, message: str, status: str) -> None:
        super().__init__(message)
        self.status = status


class PreconditionFailed(Conflict):
    """The request named a version of the match (an If-Match) that is not the current one."""
