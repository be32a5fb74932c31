"""A rules-engine problem said in the page's language: its sentence, the suit, the kind of tute, the house
rule and the game it names in the page's words.

Apart from `i18n`, which `house_rules` says its words through, so that neither needs the other's module
to load first.
"""

from __future__ import annotations

from typing import Any

from .house_rules import allowed_in_words, rule_name
from .i18n import PLAYER_RANGE, gettext, param_words, suit_word, translations
from .registry import GAMES
from .rules import OptionSpec, RuleError
from .rules.messages import MESSAGES, PLURALS


def say(problem: RuleError) -> str:
    """Return a rules-engine problem as a sentence in the page's language."""
    params: dict[str, Any] = dict(problem.params)
    if "suit" in params and isinstance(params["suit"], str):
        params["suit"] = suit_word(params["suit"].lower())
    words = param_words()
    if isinstance(params.get("kind"), str) and params["kind"].lower() in words:
        params["kind"] = gettext(words[params["kind"].lower()])
    if isinstance(params.get("low"), int) and isinstance(params.get("high"), int) and params["low"] != params["high"]:
        params["wanted"] = gettext(PLAYER_RANGE, low=params["low"], high=params["high"])
    option = params.get("option")
    if isinstance(option, OptionSpec):
        params["name"], params["allowed"] = rule_name(option), allowed_in_words(option)
    if "game" in params and isinstance(params["game"], str):
        params["game"] = next((gettext(g.title) for g in GAMES.values() if g.title == params["game"]), params["game"])
    try:
        template = template_of(problem.message_id, params)
        said = template.format(**params)
        # a sentence that opens with a suit's name, in lower case inside a sentence, opens with a capital
        return said[:1].upper() + said[1:] if template.startswith("{suit}") else said
    except (KeyError, IndexError, ValueError):  # a translation that lost a placeholder: say it in English
        return problem.message


def template_of(message_id: str, params: dict[str, Any]) -> str:
    """Return the template of an engine's sentence in the page's language, in the plural form
    its count asks for where it says one."""
    counted = PLURALS.get(message_id)
    if counted is None:
        return gettext(MESSAGES[message_id])
    count = params.get(counted[0])
    return translations().ungettext(*counted[1], count if isinstance(count, int) else 2)
