"""The house rules in the page's words: each rule's name and its values' words, as the new-match form
shows them and the messages about a rule say them (never the key a match document uses)."""

from __future__ import annotations

from .i18n import gettext, lazy_gettext
from .rules import OptionSpec
from .rules.options import MAX_SCHEDULE_DEALS

#: Each house rule's name on the new-match form.
OPTION_LABELS = {
    "deck": lazy_gettext("Deck"),
    "last_trick_bonus": lazy_gettext("Last trick bonus"),
    "mode": lazy_gettext("Mode"),
    "target": lazy_gettext("Target"),
    "double_over_100": lazy_gettext("Two juegos over 100"),
    "tute": lazy_gettext("Tute"),
    "remove_twos": lazy_gettext("Take the 2s out"),
    "schedule": lazy_gettext("Cards per deal"),
    "hook": lazy_gettext("Dealer's hook"),
    "exact_base": lazy_gettext("Exact-bid bonus"),
    "per_trick": lazy_gettext("Per trick"),
    "miss_per_trick": lazy_gettext("Per trick off"),
    "oros_double": lazy_gettext("Oros double"),
    "players": lazy_gettext("Players"),
    "min_bid": lazy_gettext("Lowest bid"),
    "bid_step": lazy_gettext("Bid step"),
    "made": lazy_gettext("Contract made scores"),
    "failed": lazy_gettext("Contract failed"),
    "deals": lazy_gettext("Number of deals"),
}
#: The words for the values of the rules that take one of a few.
OPTION_VALUE_LABELS = {
    "juegos": lazy_gettext("juegos"),
    "points": lazy_gettext("points"),
    "deal": lazy_gettext("wins the deal"),
    "match": lazy_gettext("wins the match"),
    # TRANSLATORS: "off": a house rule's value, the rule not played (the dealer's hook, the tute).
    "off": lazy_gettext("off"),
    "classic": lazy_gettext("classic"),
    "ladder": lazy_gettext("ladder"),
    "custom": lazy_gettext("custom"),
    # TRANSLATORS: Tute subastado, what a contract made scores: the bid, or the declarer's whole total.
    "bid": lazy_gettext("the bid"),
    "total": lazy_gettext("the declarer's total"),
    # TRANSLATORS: Tute subastado, a contract failed: the declarer loses the bid, or the others score it.
    "lose": lazy_gettext("the declarer loses the bid"),
    "others": lazy_gettext("the others score the bid"),
}


def rule_name(option: OptionSpec) -> str:
    """Return a house rule's name in the page's language."""
    return str(OPTION_LABELS[option.name]) if option.name in OPTION_LABELS else option.name


def allowed_in_words(option: OptionSpec) -> str:
    """Say a house rule's allowed values in the page's language, its choices by the form's words for them."""
    if option.kind == "bool":
        return gettext("on or off")
    if option.kind == "int":
        return gettext("a whole number from %(low)s to %(high)s", low=option.minimum, high=option.maximum)
    names = [str(OPTION_VALUE_LABELS[str(c)]) if str(c) in OPTION_VALUE_LABELS else str(c) for c in option.choices]
    if option.kind == "schedule":
        return gettext(
            "%(choices)s, or a list of cards per player for each deal (at most %(most)s)",
            choices=", ".join(names),
            most=MAX_SCHEDULE_DEALS,
        )
    return gettext("%(first)s or %(last)s", first=", ".join(names[:-1]), last=names[-1]) if len(names) > 1 else names[0]
