"""What a game's web side gives the app: its deal form and the templates of its parts, the step
an entry starts at, how a deal reads in the deal table, and its deals' JSON Schema."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any

from ...forms import DealForm
from ...rules import Game
from .json_schema import Schema


class WebGame(ABC):
    """A game's web side. Subclasses implement the abstract methods; the engine's `Game` says
    everything about the rules. Its folder's `web` module lists its instances in `WEB_GAMES`."""

    #: The name of the game's folder under scorekeeper/games/ (set by the registry when it reads the folder).
    folder: str = ""
    #: Whether each deal's score shows its sign (+5, -3), as in a game where a deal can cost points.
    signed_scores: bool = False
    #: The house rules the new-match form does not ask, because the names typed set them (`options_for_table`).
    seated_options: frozenset[str] = frozenset()
    #: Whether a deal fits one row of numbers, a column per player (`describe_deal`'s figures and the scores):
    #: its deal table is then a score sheet, as the table keeps it on paper, rather than a card per deal.
    score_sheet: bool = False
    #: What a score sheet's rows say, in a sentence under its title (the game's words).
    sheet_caption: str = ""

    def __init__(self, engine: Game, asks_leader: bool = False) -> None:
        self.engine = engine
        #: Whether the table names who leads the first trick (who holds the 2 of oros), from
        #: which the engine tells who dealt first, rather than naming the first dealer.
        self.asks_leader = asks_leader

    @property
    def name(self) -> str:
        """Return the name match documents use."""
        return self.engine.name

    @property
    def plays_in_pairs(self) -> bool:
        """Tell whether partners share a side (so that the new-match form says who sits with whom)."""
        return any(len(side) > 1 for side in self.engine.sides(self.engine.max_players))

    def template(self, part: str) -> str:
        """Return the template of this game's `part`: deal_fields, deal_extras, next_step, player_figures
        or player_charts (docs/adding-a-game.md says where each shows)."""
        return f"games/{self.folder}/{part}.html"

    def options_for_table(self, options: dict[str, Any], players: int) -> dict[str, Any]:
        """Return the house rules the new-match form chose, with those the table of `players` sets
        (`seated_options`) set from it."""
        return options

    def first_dealer(self, chosen_seat: int, players: int) -> int:
        """Return the first dealer for the seat the new-match form chose (the dealer, or the leader)."""
        return chosen_seat

    @abstractmethod
    def deal_form(self, seat_names: Sequence[str], side_names: Sequence[str]) -> DealForm:
        """Return this game's deal form for a table, ready to validate a posted entry."""

    @property
    def posted_step(self) -> str:
        """Return the step a deal form's POST completes ("deal"; "tricks" after bids)."""
        return "tricks" if self.engine.bids_first else "deal"

    @abstractmethod
    def entry_step(self, form: DealForm, pending: Mapping[str, Any] | None, args: Mapping[str, str]) -> str:
        """Prepare a new entry's form (with what the scoreboard's button chose, `args`) and return its step."""

    @abstractmethod
    def describe_deal(
        self,
        deal: Mapping[str, Any],
        names: Sequence[str],
        sides: Sequence[str],
        said: dict[tuple[Any, ...], str],
        options: Mapping[str, object],
    ) -> tuple[str, list[str]]:
        """Return a deal's one-line summary and each side's figures beside its score (may be empty).

        `said` keeps the phrases already made for the match's earlier deals, so that each is
        looked up in the catalogue once; `options` are the match's checked house rules (whether a
        subastado contract was made depends on the last trick's bonus).
        """

    def sheet_label(self, deal: Mapping[str, Any], said: dict[tuple[Any, ...], str]) -> str:
        """Return what a score sheet's row says of a deal beside its number (short: its column is narrow);
        `said` keeps the words already looked up for the match's deals, as `describe_deal`'s does."""
        return ""

    @abstractmethod
    def deal_schema(self, players: int, number: bool = False) -> Schema:
        """Return the JSON Schema of a deal at a table of `players`; with `number`, as the API takes it."""

    def options_schema(self, schema: Schema) -> Schema:
        """Return the schema of the game's house rules with what only this game states added."""
        return schema
