"""The booklets: one page per rule system telling the game in playing order, generated from the
spec's profiles (never written twice). Each paragraph is a rule of the spec with the system's values
filled in, shown only when the system plays it, and ends with the ID of its clause (a link, by
ginspec_clauses). tests/test_docs_booklets.py checks that no booklet states a rule its system does
not play and that the values are the profile's."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

Rules = Mapping[str, Any]


@dataclass(frozen=True)
class Booklet:
    slug: str
    title: str
    profile: str
    overrides: Mapping[str, Any]
    players: str
    """Who plays, in words, for the intro."""


BOOKLETS: tuple[Booklet, ...] = (
    Booklet("pagat", "Gin Rummy by pagat.com's rules", "pagat", {}, "two players"),
    Booklet("serbian-online-2", "Gin Rummy as the Serbian site plays it, two players", "serbian-online", {},
            "two players"),
    Booklet("serbian-online-table", "Gin Rummy as the Serbian site plays it, three or four players",
            "serbian-online", {"players": 3}, "three or four players"),
    Booklet("wikipedia", "Gin Rummy by the Wikipedia rules", "wikipedia", {}, "two players"),
    Booklet("hoyle", "Gin Rummy by Hoyle's rules", "hoyle", {}, "two players"),
    Booklet("oklahoma", "Oklahoma Gin", "oklahoma", {}, "two players"),
    Booklet("three-player", "Gin Rummy for three players", "three-player", {}, "three players"),
    Booklet("partnership", "Partnership Gin Rummy", "partnership", {}, "four players in two teams of two"),
    Booklet("hollywood", "Hollywood Gin", "hollywood", {}, "two players"),
)

SECTIONS: tuple[tuple[str, str], ...] = (
    ("cards", "The cards"),
    ("deal", "The deal"),
    ("turn", "A turn"),
    ("knock", "Knocking and gin"),
    ("showdown", "The showdown and layoffs"),
    ("scoring", "Scoring a hand"),
    ("wall", "When the stock runs low"),
    ("match", "The game and the match"),
)


@dataclass(frozen=True)
class Rule:
    """One paragraph of a booklet: its section, its clause, when the system plays it, its text."""

    section: str
    clause: str
    when: Callable[[Rules], bool]
    text: Callable[[Rules], str]


def table(r: Rules) -> bool:
    """The Serbian table game with three or four players (TABLE.*); at two it is the ordinary game."""
    return bool(system(r) == "table" and r["players"] > 2)


def two(r: Rules) -> bool:
    return not table(r)


def system(r: Rules) -> str:
    """The game system as a player meets it: the table game at two players is the two-player game."""
    return "single" if r["game_system"] == "table" and r["players"] == 2 else str(r["game_system"])


def always(r: Rules) -> bool:
    return True


def _ace(r: Rules) -> str:
    return "1 point" if r["ace_value"] == 1 else f"{r['ace_value']} points"


def _cards_kept(r: Rules) -> str:
    return "seven" if table(r) else "ten"


TIE = {
    "undercut": "A tie counts as an undercut: the defender scores the undercut bonus.",
    "no_score": "On a tie nobody scores.",
    "knocker_scores_zero": "On a tie the knocker wins the hand, but scores nothing: only a strictly lower count "
    "undercuts.",
}
SHUTOUT = {
    "game_bonus_doubled": "the game bonus counts twice",
    "total_doubled": "the winner's whole final total is doubled",
    "hand_points_doubled": "the winner's hand points are doubled before the bonuses are added",
    "flat_bonus": "the winner adds a further shutout bonus",
}
NEXT_DEALER = {
    "loser": "The loser of a hand deals the next one.",
    "winner": "The winner of a hand deals the next one.",
    "alternate": "The deal alternates between the players.",
}
FIRST_DEALER = {
    "low_card": "To choose the first dealer, each player draws a card; the lower card deals.",
    "high_card": "To choose the first dealer, each player draws a card; the higher card deals.",
    "random": "The first dealer is chosen at random.",
}

RULES: tuple[Rule, ...] = (
    # --- the cards
    Rule("cards", "CARD.DECK", always, lambda r: "The game uses one pack of 52 cards, without jokers."),
    Rule("cards", "CARD.VALUE", always, lambda r: (
        f"Kings, queens and jacks count 10 points each, an ace {_ace(r)}, every other card its number.")),
    Rule("cards", "MELD.SET", always, lambda r: "A set is three or four cards of the same rank."),
    Rule("cards", "MELD.RUN", always, lambda r: "A run is three or more cards of the same suit in sequence."),
    Rule("cards", "MELD.RUN.ACE-LOW", lambda r: not r["ace_high_runs"], lambda r: (
        "The ace is low only: A-2-3 is a run, Q-K-A is not.")),
    Rule("cards", "MELD.RUN.NO-WRAP", lambda r: not r["wraparound_runs"], lambda r: (
        "A run does not turn the corner: K-A-2 is not a run.")),
    Rule("cards", "MELD.DISJOINT", always, lambda r: "A card can belong to one meld only."),
    Rule("cards", "DEADWOOD.VALUE", always, lambda r: (
        "Cards that are in no meld are deadwood; a hand's deadwood is the sum of their values, "
        "counting the cards in the arrangement that leaves the least.")),
    # --- the deal
    Rule("deal", "DEAL.FIRST-DEALER", two, lambda r: FIRST_DEALER[r["first_dealer"]]),
    Rule("deal", "TABLE.DEALER", table, lambda r: (
        "The first hand is dealt by the first seat; after every hand the deal passes to the left.")),
    Rule("deal", "THREE.ROTATION", lambda r: system(r) == "three_player", lambda r: (
        "Two players play each hand and the third sits out. The loser of a hand sits out the next one, the "
        "winner plays first and the player who sat out plays second. " + (
            "The player sitting out deals." if r["three_player_mode"] == "dealer_sits_out"
            else "The player who plays second deals."))),
    Rule("deal", "PARTNER.TABLES", lambda r: system(r) == "partnership", lambda r: (
        "Partners sit opposite each other. Every deal is two separate two-player hands at two tables, and "
        "the opponents change tables every deal.")),
    Rule("deal", "DEAL.HANDS", two, lambda r: (
        "The dealer deals ten cards to each player, one at a time, starting with the non-dealer.")),
    Rule("deal", "TABLE.DEAL", table, lambda r: (
        "The dealer deals seven cards to each player, one at a time, starting with the player to his left: "
        "the stock then holds 30 cards with three players, 23 with four.")),
    Rule("deal", "DEAL.UPCARD", always, lambda r: (
        "The next card is turned face up and starts the discard pile: it is the upcard.")),
    Rule("deal", "OKLAHOMA.KNOCK-LIMIT", lambda r: r["oklahoma"], lambda r: (
        "The upcard's value is the knock limit of the hand: 2 to 9 their number, a ten or a picture card 10.")),
    Rule("deal", "OKLAHOMA.ACE", lambda r: r["oklahoma"], lambda r: (
        "An ace upcard sets the limit to 1." if r["oklahoma_ace"] == "one"
        else "With an ace upcard the hand can end only by gin.")),
    Rule("deal", "DEAL.STOCK", always, lambda r: (
        "The remaining cards are placed face down as the stock. Nobody may look at them, but anyone may count "
        "them.")),
    # --- a turn
    Rule("turn", "FIRST.UPCARD-OFFER", lambda r: two(r) and r["first_turn"] == "upcard_offer", lambda r: (
        "The non-dealer begins: he may take the upcard or pass; he may not draw from the stock yet.")),
    Rule("turn", "FIRST.DEALER-OFFER", lambda r: two(r) and r["first_turn"] == "upcard_offer", lambda r: (
        "If he passes, the dealer may take the upcard or pass.")),
    Rule("turn", "FIRST.BOTH-PASS", lambda r: two(r) and r["first_turn"] == "upcard_offer", lambda r: (
        "If both pass, the non-dealer draws the top card of the stock and play goes on as usual.")),
    Rule("turn", "FIRST.PLAIN", lambda r: two(r) and r["first_turn"] == "plain", lambda r: (
        "Nobody is offered the upcard: the non-dealer begins with an ordinary turn, and he may take the upcard "
        "as he would take any discard.")),
    Rule("turn", "TURN.ALTERNATE", two, lambda r: "The players take turns."),
    Rule("turn", "TABLE.TURN-ORDER", table, lambda r: (
        "The player to the dealer's left plays first, and the turn passes to the left. There is no upcard offer: "
        "the first player may take the upcard as the top of the discard pile.")),
    Rule("turn", "TURN.DRAW", two, lambda r: (
        "In his turn a player takes one card: the top card of the stock or the top card of the discard pile.")),
    Rule("turn", "TURN.DISCARD", two, lambda r: (
        "He then ends his turn by discarding one card face up onto the discard pile, or he knocks.")),
    Rule("turn", "TABLE.TURN", table, lambda r: (
        "In his turn a player takes the top card of the stock or of the discard pile, then discards one card "
        "face up or knocks.")),
    Rule("turn", "TURN.DISCARD-TAKEN", lambda r: two(r) and r["discard_taken_card"] == "never", lambda r: (
        "A card just taken from the discard pile may not be thrown away again in the same turn.")),
    Rule("turn", "TURN.TAKE-CAP", lambda r: r["discard_take_cap"] > 0, lambda r: (
        f"A player may take the discard at most {r['discard_take_cap']} times in a hand.")),
    # --- knocking and gin
    Rule("knock", "KNOCK.LIMIT", lambda r: not r["oklahoma"], lambda r: (
        f"Instead of discarding, a player may knock when the {_cards_kept(r)} cards he keeps have a deadwood of "
        f"{r['knock_limit']} or less: he puts one card face down and lays out his hand.")),
    Rule("knock", "KNOCK.LIMIT", lambda r: r["oklahoma"], lambda r: (
        "Instead of discarding, a player may knock when the ten cards he keeps have a deadwood no higher than "
        "the hand's limit (the upcard's value): he puts one card face down and lays out his hand.")),
    Rule("knock", "KNOCK.ELIGIBLE", always, lambda r: (
        "What counts is the deadwood after the discard: choose the card to discard first, then count what is "
        "left.")),
    Rule("knock", "KNOCK.ANY-TURN", two, lambda r: "A player may knock on any turn, the first one included."),
    Rule("knock", "KNOCK.OPTIONAL", lambda r: not r["gin_compulsory"], lambda r: (
        "Nobody has to knock, not even a player who could go gin.")),
    Rule("knock", "KNOCK.GIN", always, lambda r: "A knock with no deadwood at all is gin."),
    Rule("knock", "KNOCK.BIG-GIN", lambda r: r["big_gin_bonus"] > 0, lambda r: (
        "A player whose eleven cards all meld may go out without discarding: big gin.")),
    Rule("knock", "TABLE.KNOCK", table, lambda r: (
        "A knock or gin ends the hand for every player; the knocker keeps seven cards and lays them out.")),
    # --- the showdown
    Rule("showdown", "SHOWDOWN.DECLARATION.MAXIMAL", lambda r: r["knocker_must_meld_maximally"], lambda r: (
        "The knocker lays out his melds and his deadwood. He must meld as much as he can: he may not leave "
        "a meld in his deadwood.")),
    Rule("showdown", "SHOWDOWN.DECLARATION", lambda r: not r["knocker_must_meld_maximally"], lambda r: (
        "The knocker lays out his melds and his deadwood, in any arrangement that keeps his deadwood within "
        "the limit.")),
    Rule("showdown", "SHOWDOWN.DEFENDER-SPREAD", two, lambda r: "The defender then lays out his own melds."),
    Rule("showdown", "TABLE.SHOWDOWN", table, lambda r: (
        "Each other player in turn, from the knocker's left, lays out his own melds and then lays off cards onto "
        "the knocker's melds, never onto another defender's melds.")),
    Rule("showdown", "LAYOFF.TARGET", always, lambda r: (
        "Cards in none of the defender's melds may be laid off onto the knocker's melds: the fourth card of "
        "a set, or a card that extends a run at either end. Nothing goes onto the knocker's deadwood, and the "
        "knocker lays nothing off.")),
    Rule("showdown", "LAYOFF.CHAIN", lambda r: r["layoff_chain"] == "unlimited", lambda r: (
        "A card just laid off on a run may itself be extended: after 8♠ on 5♠ 6♠ 7♠, the 9♠ may follow.")),
    Rule("showdown", "LAYOFF.CHAIN", lambda r: r["layoff_chain"] == "original_melds_only", lambda r: (
        "Only the knocker's melds as he laid them down take layoffs: a card just laid off never carries another.")),
    Rule("showdown", "LAYOFF.AFTER-GIN", lambda r: r["layoff_after_gin"] == "forbidden", lambda r: (
        "Against gin the defender lays out his melds but lays nothing off.")),
    Rule("showdown", "LAYOFF.AFTER-GIN", lambda r: r["layoff_after_gin"] != "forbidden", lambda r: (
        "The defender may lay off even against gin; gin is still gin.")),
    Rule("showdown", "SCORE.ZERO-CANCELS", lambda r: r["layoff_after_gin"] == "allowed_zero_cancels", lambda r: (
        "If his layoffs against gin bring him to zero deadwood, nobody scores.")),
    Rule("showdown", "SHOWDOWN.COMPARE", always, lambda r: (
        "The deadwood counts are compared after all the layoffs.")),
    # --- scoring
    Rule("scoring", "SCORE.KNOCK", two, lambda r: (
        "If the knocker has less deadwood, he scores the difference.")),
    Rule("scoring", "SCORE.UNDERCUT", two, lambda r: (
        f"If the defender has less, it is an undercut: the defender scores the difference plus "
        f"{r['undercut_bonus']}.")),
    Rule("scoring", "SCORE.TIE", two, lambda r: TIE[r["undercut_on_tie"]]),
    Rule("scoring", "SCORE.GIN", two, lambda r: (
        f"Gin scores {r['gin_bonus']} plus the defender's whole deadwood.")),
    Rule("scoring", "SCORE.GIN-NO-UNDERCUT", two, lambda r: "Gin cannot be undercut."),
    Rule("scoring", "SCORE.BIG-GIN", lambda r: r["big_gin_bonus"] > 0, lambda r: (
        f"Big gin scores {r['big_gin_bonus']} plus the defender's deadwood.")),
    Rule("scoring", "OKLAHOMA.SPADES", lambda r: r["oklahoma"] and r["spade_double"] != "off", lambda r: (
        "When the upcard is a spade, the points of the hand, bonuses included, are doubled" + (
            "." if r["spade_double"] == "hand" else ", and so is the box."))),
    Rule("scoring", "TABLE.UNDERCUT", table, lambda r: (
        "The hand is an undercut when some defender has strictly less deadwood than the knocker; of those, the "
        "one with the least wins it (the first in turn on a tie). Otherwise, and always after gin, the knocker "
        "wins.")),
    Rule("scoring", "TABLE.PENALTY", table, lambda r: (
        f"The winner of the hand is charged nothing. After gin every other player is charged his deadwood plus "
        f"{r['gin_bonus']}; after a knock, his deadwood minus the winner's; after an undercut the knocker is "
        f"charged {r['undercut_bonus']} more.")),
    # --- the wall
    Rule("wall", "WALL.END", lambda r: two(r) and r["wall_action"] == "void", lambda r: (
        f"When a discard leaves only {r['wall_size']} cards in the stock, the hand ends and is void: nobody "
        "scores.")),
    Rule("wall", "WALL.RESHUFFLE", lambda r: two(r) and r["wall_action"] == "reshuffle", lambda r: (
        f"When a discard leaves only {r['wall_size']} cards in the stock, the discard pile except its top card "
        "is shuffled and put under the stock, and play goes on; the second time, the hand is void.")),
    Rule("wall", "WALL.LAST-CHANCE", lambda r: two(r) and r["wall_action"].startswith("take_and"), lambda r: (
        f"When a discard leaves only {r['wall_size']} cards in the stock, the other player may take that "
        "discard " + ("and play on." if r["wall_action"] == "take_and_play_on" else "only to knock at once; "
                      "otherwise the hand is void."))),
    Rule("wall", "WALL.LAST-DRAW", lambda r: two(r) and r["knock_on_wall_draw"], lambda r: (
        "The player who draws the last card that may be drawn may still knock.")),
    Rule("wall", "WALL.REDEAL", two, lambda r: (
        "After a void hand the same dealer deals again." if r["redeal_dealer"] == "same"
        else "After a void hand the other player deals.")),
    Rule("wall", "TABLE.WALL", table, lambda r: (
        f"When a discard leaves only {r['wall_size']} cards in the stock, the discard pile except its top card "
        "is shuffled and put under the stock, and play goes on; the second time, the hand is void and nobody "
        "is charged.")),
    # --- the game and the match
    Rule("match", "MATCH.TARGET", lambda r: system(r) in ("single", "three_player"), lambda r: (
        f"Each player's points add up from hand to hand; the game ends when a player reaches {r['game_target']}.")),
    Rule("match", "OKLAHOMA.TARGET", lambda r: r["oklahoma"], lambda r: "Oklahoma is played to 150."),
    Rule("match", "PARTNER.NETTING", lambda r: system(r) == "partnership", lambda r: (
        "The two hands of a deal are netted: the team with more points wins the deal and scores the difference.")),
    Rule("match", "PARTNER.DRAW", lambda r: system(r) == "partnership", lambda r: (
        "A void hand at one table scores nothing; the other table's result stands."
        if r["partnership_draw"] == "other_table_counts" else "A void hand at one table is dealt again.")),
    Rule("match", "PARTNER.GAME", lambda r: system(r) == "partnership", lambda r: (
        f"The teams' points add up as in a two-player game; the first team to reach {r['game_target']} wins.")),
    Rule("match", "HOLLYWOOD.ENTRY", lambda r: system(r) == "hollywood", lambda r: (
        f"The players keep {r['hollywood_games']} games at once. Each hand a player wins opens the next game for "
        "him, and his score for the hand goes into every game he has opened that is still going.")),
    Rule("match", "HOLLYWOOD.GAME-END", lambda r: system(r) == "hollywood", lambda r: (
        f"Each game ends when a player's score in it reaches {r['game_target']}; the match ends with the last.")),
    Rule("match", "MATCH.GAME-BONUS", lambda r: two(r) and r["game_bonus"] > 0, lambda r: (
        f"The winner of a game adds a game bonus of {r['game_bonus']}.")),
    Rule("match", "MATCH.BOX", lambda r: two(r) and r["box_bonus"] > 0, lambda r: (
        f"Each hand won earns a box; at the end of the game each player adds {r['box_bonus']} for each of "
        "his boxes, the loser too.")),
    Rule("match", "MATCH.BOX-TARGET", lambda r: two(r) and r["box_bonus"] > 0, lambda r: (
        "Box points join the running score at once and count toward the target." if r["boxes_count_toward_target"]
        else "Box points are added only at the end and do not help reach the target.")),
    Rule("match", "MATCH.EXTRA-BOXES", lambda r: two(r) and r["extra_boxes"], lambda r: (
        "An undercut earns one extra box, gin two.")),
    Rule("match", "MATCH.SHUTOUT", lambda r: two(r) and r["shutout_effect"] != "none", lambda r: (
        f"If the loser scored nothing in the whole game, it is a shutout: {SHUTOUT[r['shutout_effect']]}.")),
    Rule("match", "MATCH.SETTLEMENT", lambda r: system(r) in ("single", "partnership"), lambda r: (
        "The lower final total pays the difference to the higher.")),
    Rule("match", "SETTLE.PAIRWISE", lambda r: system(r) == "three_player", lambda r: (
        "When the game ends, every pair of players settles on its own: the winner with each of the others as in a "
        "two-player game, and the other two by the difference of their points and boxes.")),
    Rule("match", "HOLLYWOOD.SETTLEMENT", lambda r: system(r) == "hollywood", lambda r: (
        "Each game is settled on its own and the amounts are netted into one payment."
        if r["hollywood_settlement"] == "per_game" else "The player who won fewer games pays one unit per game "
        "of difference.")),
    Rule("match", "MATCH.NEXT-DEALER", lambda r: system(r) in ("single", "hollywood"), lambda r: (
        NEXT_DEALER[r["next_dealer"]])),
    Rule("match", "TABLE.GAME-END", table, lambda r: (
        f"Penalty points add up. The game ends after the hand in which somebody reaches {r['penalty_limit']}, "
        "provided one player alone has the lowest total: he wins.")),
    Rule("match", "TABLE.PRIZE", table, lambda r: (
        f"The winner takes {r['prize_winner_share']}% of the prize pool; the rest goes to the other players who "
        f"finished within {r['prize_window']} points of him, the closer the more.")),
)


def rules_of(booklet: Booklet) -> Rules:
    from ginspec.spec.profiles import ruleset

    return ruleset(booklet.profile, dict(booklet.overrides))


def paragraphs(booklet: Booklet) -> list[tuple[str, str, str]]:
    """(section, clause ID, text) of every rule the booklet's system plays, in playing order."""
    r = rules_of(booklet)
    return [(rule.section, rule.clause, rule.text(r)) for rule in RULES if rule.when(r)]


EXAMPLES_SHOWN = 3
TWO_PLAYER_KINDS = frozenset({"knock", "layoff", "defence", "adjudicate", "score"})
TABLE_KINDS = frozenset({"table-play"})
PREFERRED = ("LAYOFF.CHAIN", "TABLE.LAYOFF-ORIGINAL", "KNOCK.ELIGIBLE", "TABLE.SHOWDOWN", "SCORE.UNDERCUT",
             "LAYOFF.TARGET")
"""The clauses whose examples a player most needs to see, first."""


def profile_of(ex: Any) -> str | None:
    """The profile an example is judged under: its own, or serbian-online for the table game's
    examples (the spec's example runner reads them so)."""
    return ex.data.get("profile") or ("serbian-online" if ex.kind.startswith("table-") else None)


def holds_by_default(ex: Any, r: Rules) -> bool:
    """An example written without a profile holds under the catalogue's defaults: it holds for a system
    only when the parameters of its clause keep their defaults there."""
    from ginspec.spec.clauses import registry
    from ginspec.spec.parameters import parameters

    params = parameters()
    return all(r[name] == params[name].default for name in registry()[ex.clause].params)


def examples_for(booklet: Booklet, clause_ids: set[str]) -> list[Any]:
    """A few spec examples of the booklet's clauses that hold under its system: first those written for
    its profile, then general ones about knocking and layoffs (no profile, no parameters)."""
    from ginspec.spec.clauses import registry

    r = rules_of(booklet)
    kinds = TABLE_KINDS if table(r) else TWO_PLAYER_KINDS
    own, general = [], []
    for ex in registry().examples():
        if ex.clause not in clause_ids or ex.kind not in kinds or ("big_gin" in ex.data and not r["big_gin_bonus"]):
            continue
        if profile_of(ex) == booklet.profile and not ex.data.get("overrides"):
            own.append(ex)
        elif profile_of(ex) is None and not ex.data.get("params") and not ex.data.get("overrides") \
                and holds_by_default(ex, r):
            general.append(ex)
    general.sort(key=lambda ex: PREFERRED.index(ex.clause) if ex.clause in PREFERRED else len(PREFERRED))
    own.sort(key=lambda ex: PREFERRED.index(ex.clause) if ex.clause in PREFERRED else len(PREFERRED))
    return (own[:1 if general else EXAMPLES_SHOWN] + general)[:EXAMPLES_SHOWN]


def booklet_page(booklet: Booklet, page: str, example_block: Callable[..., list[str]],
                 hand_html: Callable[..., str], case_href: Callable[[str, str], str | None]) -> str:
    from ginspec.spec.profiles import profile

    prof = profile(booklet.profile)
    paras = paragraphs(booklet)
    lines = [
        f"# {booklet.title}\n",
        f"*Profile* `{booklet.profile}`" + "".join(f", `{k} = {v}`" for k, v in booklet.overrides.items()) + "\n",
        f"The game for {booklet.players}, in the order it is played. Every paragraph is a rule of the "
        f"spec with this system's values filled in, and ends with the clause it comes from. The system: "
        f"{prof.title}.\n",
        "The English text of the spec is normative: where a booklet or a translation of it reads differently, "
        "the spec decides.\n",
    ]
    for key, heading in SECTIONS:
        mine = [(cid, text) for section, cid, text in paras if section == key]
        if not mine:
            continue
        lines.append(f"## {heading}\n")
        lines.extend(f"{text} ({cid})\n" for cid, text in mine)
    shown = examples_for(booklet, {cid for _, cid, _ in paras})
    if shown:
        lines.append("## Examples\n")
        for ex in shown:
            lines.extend(example_block(ex, case_href(page, ex.id), hand_html))
    return "\n".join(lines)


def booklet_pages(out: Path, example_block: Callable[..., list[str]], hand_html: Callable[..., str],
                  case_href: Callable[[str, str], str | None]) -> None:
    (out / "booklets").mkdir(parents=True)
    index = [
        "# Booklets: each rule system in playing order\n",
        "One booklet per rule system, generated from the spec and the system's profile: only the rules the "
        "system plays, with its values filled in. The numbered chapters remain the reference; each paragraph "
        "links to its clause.\n",
        "The booklets of the four seed systems are also in the seed's language: Romanian (pagat, seed 000), "
        "Serbian (serbian-online at two and at three or four players, seed 001), French (wikipedia, seed 002) "
        "and Albanian (hoyle, seed 004). Each language is its own build of this site, with Sphinx's gettext "
        "catalogues in `docs/locale/`: `python -m sphinx -b html -D language=sr docs OUT` (likewise `ro`, `fr`, "
        "`sq`). The translations are written from the spec; the English spec is normative.\n",
        "```{toctree}\n:maxdepth: 1\n",
        *[b.slug for b in BOOKLETS],
        "```\n",
    ]
    (out / "booklets" / "index.md").write_text("\n".join(index), encoding="utf-8")
    for b in BOOKLETS:
        page = f"gen/booklets/{b.slug}.html"
        (out / "booklets" / f"{b.slug}.md").write_text(booklet_page(b, page, example_block, hand_html, case_href),
                                                       encoding="utf-8")
