"""The spec's executable examples as a reader sees them on the rules pages: the cards drawn (hands,
melds, the table, layoffs, the discard pile), the expected answer in words, and the link to the
conformance case generated from the example. Used by ginspec_docs.rules_pages; checked by
tests/test_docs_examples.py (every example is on its clause's page)."""

from __future__ import annotations

import html
import json
from collections.abc import Callable
from typing import Any

INPUTS: dict[str, tuple[str, ...]] = {
    "action": ("text",),
    "adjudicate": ("profile", "overrides", "knocker", "defender", "knocker_melds"),
    "arrangement": ("hand", "melds", "params"),
    "card": ("token", "params"),
    "cards": ("cards",),
    "deadwood": ("hand", "params"),
    "deal": ("deck", "dealer"),
    "declaration": ("hand", "melds", "params"),
    "defence": ("knocker_melds", "defender", "params"),
    "hollywood": ("profile", "overrides", "hands"),
    "knock": ("hand", "params", "upcard"),
    "knock-limit": ("profile", "overrides", "upcard"),
    "layoff": ("table", "defender_melds", "side", "cards", "params"),
    "match": ("profile", "overrides", "hands"),
    "meld": ("cards", "params"),
    "meld-rules": ("params",),
    "melds-count": ("hand", "params"),
    "next-dealer": ("profile", "overrides", "dealer", "hand"),
    "partnership": ("profile", "overrides", "deals"),
    "play": ("profile", "overrides", "non_dealer", "dealer_cards", "upcard", "stock", "actions"),
    "prize": ("pool", "totals"),
    "ruleset": ("profile", "overrides"),
    "score": ("profile", "overrides", "outcome", "knocker_deadwood", "defender_deadwood", "upcard"),
    "table-adjudicate": ("overrides", "hands", "knocker", "discard"),
    "table-penalty": ("knocker", "deadwood", "outcome"),
    "table-play": ("overrides", "hands", "upcard", "stock", "actions"),
    "three-rotation": ("profile", "overrides", "hands"),
}
"""Per example kind, the fields that set the position; every other field is an expected answer."""

CARD_LABELS = {
    "hand": "Hand", "cards": "Cards", "knocker": "Knocker", "defender": "Defender",
    "knocker_melds": "Knocker's melds", "defender_melds": "Defender's melds", "melds": "Melds",
    "table": "On the table", "non_dealer": "Non-dealer", "dealer_cards": "Dealer", "upcard": "Upcard",
    "stock": "Stock, top first", "deck": "Deck, top first", "discard": "Knock discard",
    "declaration": "Knocker declares",
}


def _card_tokens(value: Any) -> list[str] | None:
    """The card tokens of a field value (a string of tokens), or None when it is not cards."""
    from ginspec.spec.cards import parse_card

    if not isinstance(value, str) or not value.strip():
        return None
    tokens = value.split()
    try:
        for t in tokens:
            parse_card(t)
    except ValueError:
        return None
    return tokens


def _groups(value: Any) -> list[list[str]] | None:
    """A list of melds (each a string of card tokens), or None."""
    if not isinstance(value, list) or not value:
        return None
    groups = [_card_tokens(v) for v in value]
    return None if any(g is None for g in groups) else groups  # type: ignore[return-value]


def pretty(token: str) -> str:
    """A card written for reading: 7♣, 10♥."""
    from ginspec.spec.cards import SUIT_SYMBOLS, card_str, parse_card, suit_of

    card = parse_card(token)
    return card_str(card)[0].replace("T", "10") + SUIT_SYMBOLS[suit_of(card)]


def pretty_cards(value: Any) -> str:
    tokens = _card_tokens(value)
    if tokens is not None:
        return " ".join(pretty(t) for t in tokens)
    groups = _groups(value)
    if groups is not None:
        return " / ".join(" ".join(pretty(t) for t in g) for g in groups)
    if isinstance(value, list) and all(isinstance(v, str) and _card_tokens(v) for v in value):
        return ", ".join(pretty_cards(v) for v in value)
    return _plain(value)


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str):
        return value
    return json.dumps(value)


def _seat_list(values: list[Any]) -> str:
    return ", ".join(f"player {i} {_plain(v)}" for i, v in enumerate(values))


def _code(value: Any) -> str:
    return "`" + str(value).replace("`", "'") + "`"


SAY: dict[str, Callable[[Any], str]] = {
    "valid": lambda v: "valid" if v else "not valid",
    "error": lambda v: "refused as an error" if v is True else f"refused: {v}",
    "deadwood": lambda v: f"deadwood {_seat_list(v)}" if isinstance(v, list) else (
        "deadwood " + ", ".join(f"{k} {n}" for k, n in v.items()) if isinstance(v, dict) else f"deadwood {v}"),
    "can_knock": lambda v: "may knock" if v else "may not knock",
    "gin": lambda v: "it is gin" if v else "it is not gin",
    "big_gin": lambda v: "it is big gin" if v else "it is not big gin",
    "best_discards": lambda v: "best discard " + " or ".join(pretty(t) for t in v) if v else "no best discard",
    "meld_type": lambda v: f"a {v}",
    "arrangements": lambda v: f"{v} best arrangement" + ("" if v == 1 else "s"),
    "all_arrangements": lambda v: "the best arrangements: " + "; ".join(pretty_cards(a) for a in v),
    "melds": lambda v: "melds " + pretty_cards(v) if v else "no meld",
    "deadwood_cards": lambda v: "unmelded " + pretty_cards(" ".join(v) if isinstance(v, list) else v),
    "reason": lambda v: f"because: {v}",
    "code": lambda v: f"rejection code {_code(v)}",
    "clause": lambda v: f"under {v}",
    "canonical": lambda v: f"written canonically as {_code(v)}",
    "value": lambda v: f"counts {v}",
    "number": lambda v: f"card number {v}",
    "count": lambda v: f"{v} in all",
    "mask": lambda v: f"bit mask {v}",
    "outcome": lambda v: f"the hand ends by {v}" if v not in ("knock", "gin", "big-gin", "void") else f"outcome {v}",
    "points": lambda v: (f"points: knocker {v.get('knocker')}, defender {v.get('defender')}" if isinstance(v, dict)
                         else f"points {_seat_list(v)}" if isinstance(v, list) else f"{v} points"),
    "winner": lambda v: f"won by {'player ' + str(v) if isinstance(v, int) else v}",
    "undercut": lambda v: "an undercut" if v else "no undercut",
    "boxes": lambda v: f"boxes {v}",
    "layable": lambda v: "may be laid off: " + (" ".join(pretty(t) for t in v) if v else "none"),
    "laid": lambda v: "laid off: " + (pretty_cards(" ".join(v)) if v else "none"),
    "layoffs": lambda v: "layoffs: " + (pretty_cards(v) if v and all(isinstance(x, str) for x in v)
                                       else _plain(v) if v else "none"),
    "limit": lambda v: f"knock limit {v}",
    "next": lambda v: f"player {v} deals next",
    "over": lambda v: "the match is over" if v else "the match goes on",
    "totals": lambda v: f"totals {_seat_list(v)}",
    "settlement": lambda v: f"settled for {v}",
    "payee": lambda v: f"paid to player {v}",
    "shutout": lambda v: "a shutout" if v else "no shutout",
    "legal": lambda v: "legal now: " + ", ".join(_code(a) for a in v) if v else "nothing is legal now",
    "illegal": lambda v: "refused now: " + ", ".join(_code(a) for a in v),
    "rejected": lambda v: f"{_code(v)} is refused",
    "rejected_by": lambda v: f"when player {v} tries it",
    "phase": lambda v: f"phase {_code(v)}",
    "to_move": lambda v: f"player {v} to move",
    "hand_sizes": lambda v: f"hand sizes {_seat_list(v)}",
    "stock_size": lambda v: f"{v} cards in the stock",
    "stock_top": lambda v: "stock top " + pretty_cards(v),
    "first_turn": lambda v: f"player {v} has the first turn",
    "upcard": lambda v: "upcard " + pretty_cards(v),
    "non_dealer": lambda v: "non-dealer receives " + pretty_cards(v),
    "dealer_cards": lambda v: "dealer receives " + pretty_cards(v),
    "penalties": lambda v: f"penalties {_seat_list(v)}",
    "shares": lambda v: f"shares {_seat_list(v)}",
    "scores": lambda v: f"scores {_seat_list(v)}",
    "net": lambda v: f"net {_seat_list(v)}",
    "payments": lambda v: f"payments {_plain(v)}",
    "seatings": lambda v: f"seatings (hand, dealer, seats) {_plain(v)}",
    "shut_out": lambda v: f"shut out: {_plain(v)}",
    "netted": lambda v: f"netted per deal {_plain(v)}",
    "final": lambda v: f"final {_plain(v)}",
    "declaration": lambda v: "the knocker declares " + pretty_cards(v),
    "best_discard": lambda v: "best discard " + pretty_cards(v),
    "values": lambda v: "values " + ", ".join(f"{_code(k)} = {_code(_plain(x))}" for k, x in v.items()),
}


def answer_in_words(ex: Any) -> str:
    """The example's expected answer as one sentence (fields in the order the spec writes them)."""
    inputs = INPUTS.get(ex.kind, ())
    parts = []
    for key, value in ex.data.items():
        if key in inputs:
            continue
        say = SAY.get(key)
        parts.append(say(value) if say else f"{key.replace('_', ' ')} {_plain(value)}")
    return "; ".join(parts) or "accepted"


def _given_words(ex: Any) -> str:
    """The non-card inputs: profile, overrides, parameters, the actions played, the score lines."""
    parts = []
    data = ex.data
    if "profile" in data:
        parts.append(f"under the profile `{data['profile']}`")
    for key in ("overrides", "params"):
        if data.get(key):
            parts.append("with " + ", ".join(f"`{k} = {_plain(v)}`" for k, v in data[key].items()))
    for key in INPUTS.get(ex.kind, ()):
        if key in ("profile", "overrides", "params") or key not in data:
            continue
        value = data[key]
        if _card_tokens(value) is not None or _groups(value) is not None:
            continue
        if key == "actions":
            parts.append("after " + (", ".join(_code(a) for a in value) if value else "the deal, before any action"))
        elif key == "text":
            parts.append(f"the text {_code(value)}")
        elif key == "token":
            parts.append(f"the token {_code(value)}")
        else:
            parts.append(f"{key.replace('_', ' ')} {_code(_plain(value))}")
    return "; ".join(parts)


def drawn_inputs(ex: Any, hand_html: Callable[..., str]) -> list[str]:
    """The cards of the position as pictures: one row per field (melds boxed, tables seat by seat)."""
    rows = []
    for key in INPUTS.get(ex.kind, ()):
        value = ex.data.get(key)
        if value is None:
            continue
        label = CARD_LABELS.get(key, key.replace("_", " ").capitalize())
        tokens = _card_tokens(value)
        if tokens is not None and key in ("deck",):
            rows.append(hand_html(label, [], tokens[:12]) + f'<p class="gs-more">…{len(tokens)} cards in all</p>')
        elif tokens is not None:
            rows.append(hand_html(label, [], tokens))
        elif key == "hands" and isinstance(value, list) and all(_card_tokens(h) for h in value):
            for seat, hand in enumerate(value):
                rows.append(hand_html(f"Seat {seat}", [], _card_tokens(hand) or []))
        else:
            groups = _groups(value)
            if groups is not None:
                rows.append(hand_html(label, groups, []))
    for key, value in ex.data.items():
        tokens = _card_tokens(value)
        if key not in INPUTS.get(ex.kind, ()) and tokens is not None and len(tokens) > 1:
            rows.append(hand_html(f"Expected: {key.replace('_', ' ')}", [], tokens))
    return rows


def example_block(ex: Any, case_href: str | None, hand_html: Callable[..., str]) -> list[str]:
    """One example on its clause's page: anchor, pictures, what is given and the expected answer."""
    anchor = f"example-{ex.id}"
    lines = [f'<div class="gs-example" id="{html.escape(anchor)}">\n']
    lines.append(f'<p class="gs-example-head"><b>Example</b> <code>{html.escape(ex.id)}</code> '
                 f'<span class="gs-kind">({html.escape(ex.kind)})</span></p>\n')
    lines.extend(r + "\n" for r in drawn_inputs(ex, hand_html))
    given = _given_words(ex)
    if given:
        lines.append(f"*Given:* {given}.\n")
    lines.append(f"**Expected:** {answer_in_words(ex)}.\n")
    if case_href is not None:
        link = f'<a href="{case_href}">spec.{html.escape(ex.id)}</a>'
        lines.append(f'<p class="gs-case-link">Conformance case: {link}</p>\n')
    else:
        lines.append("<p class=\"gs-case-link\">No conformance case (the example is about the spec's own notation "
                     "or data, not an engine's play); tests/test_spec_examples.py runs it.</p>\n")
    lines.append("</div>\n")
    return lines
