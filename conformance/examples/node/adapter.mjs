// A gin rummy engine in JavaScript behind the ginspec adapter protocol (JSON lines on
// stdin/stdout). It answers the card questions of the suite under the standard rules — melds,
// least deadwood, optimal arrangements, knock eligibility — and declares exactly that in hello,
// so the runner sends it those cases and skips the rest (no profiles: no hands or matches).
//
//   ginspec conform --adapter 'cmd:node conformance/examples/node/adapter.mjs'
//
// Needs only Node.js (18 or later); no packages.

import { createInterface } from "node:readline";

const RANKS = "A23456789TJQK";
const SUITS = "CDHS";

// A card is a number 0..51 = suit * 13 + rank (clause CARD.ENCODING).
function parseCard(token) {
  const rank = RANKS.indexOf(token[0]);
  const suit = SUITS.indexOf(token[1]);
  if (token.length !== 2 || rank < 0 || suit < 0) throw new Error(`bad card ${token}`);
  return suit * 13 + rank;
}
const cardText = (card) => RANKS[card % 13] + SUITS[Math.floor(card / 13)];
const rankOf = (card) => card % 13;
const suitOf = (card) => Math.floor(card / 13);
// CARD.VALUE: ace 1, two to nine their face value, ten and the pictures 10.
const value = (card) => Math.min(rankOf(card) + 1, 10);

// Every meld in the cards: sets of three or four of a rank, runs of three or more of a suit
// with the ace low only (MELD.SET, MELD.RUN, MELD.RUN.ACE-LOW, MELD.RUN.NO-WRAP).
function allMelds(cards) {
  const have = new Set(cards);
  const melds = [];
  for (let rank = 0; rank < 13; rank++) {
    const same = [0, 1, 2, 3].map((s) => s * 13 + rank).filter((c) => have.has(c));
    for (const size of [3, 4]) {
      for (const combo of combinations(same, size)) melds.push(combo);
    }
  }
  for (let suit = 0; suit < 4; suit++) {
    for (let start = 0; start < 13; start++) {
      const run = [];
      for (let rank = start; rank < 13 && have.has(suit * 13 + rank); rank++) {
        run.push(suit * 13 + rank);
        if (run.length >= 3) melds.push([...run]);
      }
    }
  }
  return melds;
}

function combinations(items, size, from = 0) {
  if (size === 0) return [[]];
  const out = [];
  for (let i = from; i <= items.length - size; i++) {
    for (const rest of combinations(items, size - 1, i + 1)) out.push([items[i], ...rest]);
  }
  return out;
}

function isMeld(cards) {
  if (new Set(cards).size !== cards.length || cards.length < 3) return false;
  return allMelds(cards).some((m) => m.length === cards.length);
}

// Walk the arrangements: take the lowest undecided card; it is either deadwood or in one of
// the melds containing it whose cards are all still free. Each collection of disjoint melds is
// met exactly once. `visit(deadwood, melds)` is called per arrangement; `bound(deadwood)` prunes.
function walk(cards, visit, bound) {
  const sorted = [...cards].sort((a, b) => a - b);
  const melds = allMelds(sorted).sort((a, b) => b.length - a.length);
  const containing = new Map(sorted.map((c) => [c, melds.filter((m) => m.includes(c))]));
  const used = new Set();
  const chosen = [];
  const step = (i, dead) => {
    if (bound(dead)) return;
    while (i < sorted.length && used.has(sorted[i])) i++;
    if (i === sorted.length) return visit(dead, chosen);
    const card = sorted[i];
    for (const meld of containing.get(card)) {
      if (meld.some((c) => used.has(c))) continue;
      meld.forEach((c) => used.add(c));
      chosen.push(meld);
      step(i + 1, dead);
      chosen.pop();
      meld.forEach((c) => used.delete(c));
    }
    step(i + 1, dead + value(card));
  };
  step(0, 0);
}

// DEADWOOD.MINIMUM: the least deadwood and one arrangement that reaches it.
function leastDeadwood(cards) {
  let best = Infinity;
  let melds = [];
  walk(cards, (dead, chosen) => {
    if (dead < best) [best, melds] = [dead, chosen.map((m) => [...m])];
  }, (dead) => dead >= best);
  return { deadwood: best, melds };
}

// DEADWOOD.ARRANGEMENTS: how many arrangements reach the least deadwood.
function countOptimal(cards) {
  const least = leastDeadwood(cards).deadwood;
  let count = 0;
  walk(cards, (dead) => { if (dead === least) count++; }, (dead) => dead > least);
  return count;
}

const KNOCK_LIMIT = 10; // KNOCK.LIMIT under the standard rules

// KNOCK.ELIGIBLE on 11 cards: the deadwood left after the best discard.
function knock(cards) {
  const after = cards.map((d) => leastDeadwood(cards.filter((c) => c !== d)).deadwood);
  const deadwood = Math.min(...after);
  return {
    deadwood,
    best_discards: cards.filter((_, i) => after[i] === deadwood).map(cardText),
    can_knock: deadwood <= KNOCK_LIMIT,
    gin: deadwood === 0,
    big_gin: leastDeadwood(cards).deadwood === 0,
  };
}

function answer(what, cards) {
  switch (what) {
    case "meld": return { valid: isMeld(cards) };
    case "melds-count": return { count: allMelds(cards).length };
    case "deadwood": {
      const best = leastDeadwood(cards);
      return { deadwood: best.deadwood, melds: best.melds.map((m) => m.map(cardText)) };
    }
    case "arrangements": return { count: countOptimal(cards) };
    case "knock": return knock(cards);
    default: throw new Error(`query ${what} is not supported`);
  }
}

const HELLO = {
  name: "example-node-engine",
  version: "1.0",
  protocol: 2,
  language: "javascript",
  profiles: [], // plays no hands: only the card questions below
  capabilities: ["query.meld", "query.melds-count", "query.deadwood", "query.arrangements", "query.knock"],
  overrides: [], // standard meld rules only
};

function reply(request) {
  switch (request.cmd) {
    case "hello": return HELLO;
    case "query": return { answer: answer(request.what, request.cards.map(parseCard)) };
    case "stop": return { ok: true };
    default: throw new Error(`unknown cmd ${request.cmd}`);
  }
}

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  if (!line.trim()) continue;
  let request = null;
  let out;
  try {
    request = JSON.parse(line);
    out = { seq: request.seq, ...reply(request) };
  } catch (error) {
    out = { seq: request?.seq ?? null, error: { message: String(error.message ?? error) } };
  }
  process.stdout.write(JSON.stringify(out) + "\n");
  if (request?.cmd === "stop") break;
}
