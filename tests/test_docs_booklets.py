"""The booklets (docs/_ext/ginspec_booklets.py): one per rule system, each paragraph linked to its
clause, the system's values filled in, no rule the system does not play, and a print stylesheet."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from ginspec.spec.clauses import registry
from ginspec.spec.parameters import parameters
from ginspec.spec.profiles import ruleset

SYSTEMS: dict[str, tuple[str, dict[str, Any]]] = {
    "pagat": ("pagat", {}),
    "serbian-online-2": ("serbian-online", {}),
    "serbian-online-table": ("serbian-online", {"players": 3}),
    "wikipedia": ("wikipedia", {}),
    "hoyle": ("hoyle", {}),
    "oklahoma": ("oklahoma", {}),
    "three-player": ("three-player", {}),
    "partnership": ("partnership", {}),
    "hollywood": ("hollywood", {}),
}
"""The booklets: the four seed systems (Serbian at two and at three or four
players) and the variants users choose."""


def not_played(r: Mapping[str, Any]) -> set[str]:
    """Clauses that are rules of other systems, never of one with these values (from the spec's text)."""
    out: set[str] = set()
    system = r["game_system"]
    table = system == "table" and r["players"] > 2
    if not r["oklahoma"]:
        out |= {"OKLAHOMA.KNOCK-LIMIT", "OKLAHOMA.ACE", "OKLAHOMA.SPADES", "OKLAHOMA.TARGET"}
    if r["spade_double"] == "off":
        out.add("OKLAHOMA.SPADES")
    if r["big_gin_bonus"] == 0:
        out |= {"KNOCK.BIG-GIN", "SCORE.BIG-GIN"}
    if r["first_turn"] != "upcard_offer" or table:
        out |= {"FIRST.UPCARD-OFFER", "FIRST.DEALER-OFFER", "FIRST.BOTH-PASS"}
    if r["first_turn"] != "plain" or table:
        out.add("FIRST.PLAIN")
    if r["first_turn"] != "eleven_card_start":
        out |= {"ELEVEN.DEAL", "ELEVEN.FIRST-TURN"}
    if r["knock_limit"] != 0:
        out.add("STRAIGHT.GIN-ONLY")
    if r["layoff_after_gin"] != "allowed_zero_cancels":
        out.add("SCORE.ZERO-CANCELS")
    if not r["knocker_may_lay_off"]:
        out.add("LAYOFF.KNOCKER")
    if r["discard_take_cap"] == 0:
        out.add("TURN.TAKE-CAP")
    if not r["take_and_return_void"]:
        out.add("TURN.TAKE-AND-RETURN")
    if r["wall_action"] != "reshuffle":
        out.add("WALL.RESHUFFLE")
    if not r["wall_action"].startswith("take_and"):
        out.add("WALL.LAST-CHANCE")
    if r["game_bonus"] == 0:
        out.add("MATCH.GAME-BONUS")
    if r["box_bonus"] == 0:
        out |= {"MATCH.BOX", "MATCH.BOX-TARGET", "MATCH.EXTRA-BOXES"}
    if not r["extra_boxes"]:
        out.add("MATCH.EXTRA-BOXES")
    if r["shutout_effect"] == "none":
        out.add("MATCH.SHUTOUT")
    families = {"table": "TABLE.", "three_player": "THREE.", "partnership": "PARTNER.", "hollywood": "HOLLYWOOD."}
    for kind, prefix in families.items():
        if kind != system or (kind == "table" and not table):
            out |= {f"{prefix}{name}" for name in _family(prefix)}
    if system != "three_player":
        out.add("SETTLE.PAIRWISE")
    if table:  # the two-player hand's own rules give way to TABLE.*
        out |= {"DEAL.HANDS", "TURN.ALTERNATE", "SCORE.KNOCK", "SCORE.UNDERCUT", "SCORE.TIE", "SCORE.GIN",
                "WALL.END", "WALL.REDEAL", "MATCH.TARGET", "MATCH.BOX", "MATCH.NEXT-DEALER", "MATCH.SETTLEMENT"}
    return out


def _family(prefix: str) -> list[str]:
    from ginspec.spec.clauses import registry

    return [c.id.removeprefix(prefix) for c in registry() if c.id.startswith(prefix)]


def body(page: str) -> str:
    """The booklet's article, without the navigation that links every page."""
    m = re.search(r'<article[^>]*role="main"[^>]*>(.*?)</article>', page, re.S)
    assert m, "no article"
    return m.group(1)


def paragraphs_by_clause(article: str) -> list[tuple[str, str]]:
    """(clause ID, text) for every rule paragraph: a <p> ending with a link to a clause."""
    out = []
    for para in re.findall(r"<p>(.*?)</p>", article, re.S):
        links = re.findall(r'href="[^"]*#([A-Z][A-Z0-9.-]+)"', para)
        if links:
            out.append((links[-1], re.sub(r"<[^>]+>", "", para)))
    return out


def booklet_problems(article: str, r: Mapping[str, Any]) -> list[str]:
    problems = []
    rule_paras = paragraphs_by_clause(article)
    cited = {cid for cid, _ in rule_paras}
    cited |= set(re.findall(r'href="[^"]*#([A-Z][A-Z0-9.-]+)"', article))
    problems += [f"states {cid}, which this system does not play" for cid in sorted(cited & not_played(r))]
    values = {"SCORE.GIN": "gin_bonus", "SCORE.UNDERCUT": "undercut_bonus", "MATCH.TARGET": "game_target",
              "PARTNER.GAME": "game_target", "HOLLYWOOD.GAME-END": "game_target", "TABLE.GAME-END": "penalty_limit",
              "MATCH.GAME-BONUS": "game_bonus", "MATCH.BOX": "box_bonus", "TABLE.PENALTY": "gin_bonus"}
    if not r["oklahoma"]:
        values["KNOCK.LIMIT"] = "knock_limit"
    for cid, text in rule_paras:
        name = values.get(cid)
        if name is not None and not re.search(rf"\b{r[name]}\b", text):
            problems.append(f"{cid}: the value of {name} ({r[name]}) is not stated")
    for required in ("KNOCK.GIN", "SHOWDOWN.COMPARE", "CARD.VALUE"):
        if required not in cited:
            problems.append(f"{required} is missing")
    return problems


def wrong_examples(article: str, profile: str, r: Mapping[str, Any]) -> list[str]:
    """Examples shown that are not this system's: written for another profile, or for the defaults
    of a parameter this system sets otherwise."""
    params = parameters()
    reg = registry()
    by_id = {ex.id: ex for ex in reg.examples()}
    bad = []
    for ex_id in re.findall(r'class="gs-example" id="example-([a-z0-9-]+)"', article):
        ex = by_id[ex_id]
        written_for = ex.data.get("profile") or ("serbian-online" if ex.kind.startswith("table-") else None)
        if written_for is not None:  # the example runner plays table-game examples under serbian-online
            if written_for != profile or ex.data.get("overrides"):
                bad.append(f"{ex_id}: written for {written_for} {ex.data.get('overrides') or ''}")
        elif ex.data.get("params") or ex.data.get("overrides"):
            bad.append(f"{ex_id}: needs {ex.data.get('params') or ex.data.get('overrides')}")
        else:
            bad += [f"{ex_id}: holds for {n} = {params[n].default}, this system plays {r[n]}"
                    for n in reg[ex.clause].params if r[n] != params[n].default]
    return bad


@pytest.mark.parametrize("slug", sorted(SYSTEMS))
def test_booklet_plays_only_its_system(site: Path, slug: str) -> None:
    profile, overrides = SYSTEMS[slug]
    page = (site / "gen" / "booklets" / f"{slug}.html").read_text(encoding="utf-8")
    article = body(page)
    assert not booklet_problems(article, ruleset(profile, overrides)), booklet_problems(article,
                                                                                       ruleset(profile, overrides))
    rules_part = article.split('<section id="the-cards"', 1)[-1].split('id="examples"')[0]
    unlinked = [p for p in re.findall(r"<p>(.*?)</p>", rules_part, re.S) if "#" not in p]
    assert not unlinked, f"paragraphs without their clause: {unlinked[:3]}"
    assert 'class="gs-card' in article, "no drawn example"
    assert not wrong_examples(article, profile, ruleset(profile, overrides))
    assert "print.css" in page


def test_print_stylesheet_hides_the_navigation(site: Path) -> None:
    css = (site / "_static" / "print.css").read_text(encoding="utf-8")
    assert "@media print" in css and ".sidebar-drawer" in css


def test_the_check_itself() -> None:
    """A pagat booklet that states Oklahoma's spade doubling, or a wrong gin bonus, fails."""
    r = ruleset("pagat", {})
    ok = ('<p>Gin scores 20 plus ... (<a href="x.html#SCORE.GIN">SCORE.GIN</a>)</p>'
          '<p>x <a href="x#KNOCK.GIN">KNOCK.GIN</a></p><p>x <a href="x#SHOWDOWN.COMPARE">S</a></p>'
          '<p>x <a href="x#CARD.VALUE">C</a></p>')
    assert booklet_problems(ok, r) == []
    assert booklet_problems(ok + '<p>Spades double (<a href="x#OKLAHOMA.SPADES">O</a>)</p>', r)
    assert booklet_problems(ok.replace("scores 20", "scores 25"), r)
    assert booklet_problems(ok + '<p>Seven cards (<a href="x#TABLE.DEAL">T</a>)</p>', r)
    serbian = ruleset("serbian-online", {})
    assert wrong_examples('<div class="gs-example" id="example-chain-allowed">', "serbian-online", serbian)
    assert not wrong_examples('<div class="gs-example" id="example-chain-allowed">', "pagat", r)
