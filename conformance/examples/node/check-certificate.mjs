// An independent checker of ginspec deadwood certificates, written a second time in JavaScript
// (FORMAL.CERTIFICATE, "The lower-bound proof"; the Python one is ginspec/spec/formal/checker.py).
// It uses no solver and nothing of ginspec: it reads the meld rules of chapter 2 and checks the
// certificate's numbers by counting.
//
//   node check-certificate.mjs CERT.json...      one certificate per file, or
//   node check-certificate.mjs --lines FILE      one certificate per line (JSON Lines)
//
// Prints "ok" or the first problem for each; exits 0 when every certificate stands, 1 otherwise.

import { readFileSync } from "node:fs";

const RANKS = "A23456789TJQK";
const SUITS = "CDHS";

function parseCard(text) {
  if (typeof text !== "string" || text.length !== 2 || !RANKS.includes(text[0]) || !SUITS.includes(text[1])) {
    throw new Error(`not a card: ${JSON.stringify(text)}`);
  }
  return [RANKS.indexOf(text[0]), SUITS.indexOf(text[1])];
}

const key = ([r, s]) => r + 13 * s;
const value = (rank, rules) => (rank === 0 ? rules.ace_value : Math.min(rank + 1, 10));

// Do these distinct positions split into maximal stretches of 3 or more adjacent positions?
function stretchesOk(positions, size, circle) {
  const held = new Set(positions);
  if (circle && held.size === size) return true;
  for (const p of held) {
    const before = circle ? (p - 1 + size) % size : p - 1;
    if (held.has(before)) continue; // not the start of a stretch
    let length = 0;
    while (held.has(circle ? (p + length) % size : p + length)) length += 1;
    if (length < 3) return false;
  }
  return true;
}

// Can these ranks of one suit be split into disjoint runs (MELD.RUN)?
function isRunCover(ranks, rules) {
  if (rules.wraparound_runs) return stretchesOk(ranks, 13, true);
  if (rules.ace_high_runs && ranks.includes(0)) {
    return stretchesOk(ranks, 14, false) || stretchesOk(ranks.map((r) => (r === 0 ? 13 : r)), 14, false);
  }
  return stretchesOk(ranks, 14, false);
}

// Least deadwood of one suit's cards when only runs may cover them: every subset is tried.
function runDeadwood(ranks, rules) {
  const total = ranks.reduce((t, r) => t + value(r, rules), 0);
  let best = total;
  for (let sub = 1; sub < 1 << ranks.length; sub += 1) {
    const chosen = ranks.filter((_, i) => (sub >> i) & 1);
    if (chosen.length >= 3 && isRunCover(chosen, rules)) {
      best = Math.min(best, total - chosen.reduce((t, r) => t + value(r, rules), 0));
    }
  }
  return best;
}

// The ranks are one run: no gap on the line (or one gap on the circle).
function oneRun(ranks, rules) {
  const held = new Set(ranks);
  if (rules.wraparound_runs) {
    let gaps = 0;
    for (let p = 0; p < 13; p += 1) if (!held.has(p) && held.has((p + 1) % 13)) gaps += 1;
    return gaps <= 1;
  }
  const lines = [[...ranks].sort((a, b) => a - b)];
  if (rules.ace_high_runs && held.has(0)) lines.push(ranks.map((r) => (r === 0 ? 13 : r)).sort((a, b) => a - b));
  return lines.some((l) => l[l.length - 1] - l[0] + 1 === l.length);
}

function isMeld(cards, rules) {
  if (cards.length < 3 || new Set(cards.map(key)).size !== cards.length) return false;
  if (new Set(cards.map(([r]) => r)).size === 1) return cards.length <= 4;
  if (new Set(cards.map(([, s]) => s)).size !== 1) return false;
  return oneRun(cards.map(([r]) => r), rules);
}

function combinations(items, k) {
  if (k === 0) return [[]];
  if (items.length < k) return [];
  const [first, ...rest] = items;
  return [...combinations(rest, k - 1).map((c) => [first, ...c]), ...combinations(rest, k)];
}

// Every choice of set cards, as a canonical text: per rank held 3+ times none, all, or any 3 of 4.
function setChoices(cards) {
  let choices = [[]];
  for (let rank = 0; rank < 13; rank += 1) {
    const held = cards.filter(([r]) => r === rank);
    if (held.length < 3) continue;
    const options = [[], held, ...(held.length === 4 ? combinations(held, 3) : [])];
    choices = choices.flatMap((c) => options.map((o) => (o.length ? [...c, o] : c)));
  }
  return choices.map(choiceKey);
}

const choiceKey = (sets) => sets.map((s) => s.map(key).sort((a, b) => a - b).join(",")).sort().join("/");

function checkArrangement(kept, melds, dead, deadwood, rules) {
  const used = new Set();
  for (const meld of melds) {
    const cards = meld.map(parseCard);
    if (!isMeld(cards, rules)) return `not a meld: ${meld.join(" ")}`;
    for (const c of cards) {
      if (!kept.some((k) => key(k) === key(c)) || used.has(key(c))) return `meld ${meld.join(" ")} uses a card not kept or already used`;
      used.add(key(c));
    }
  }
  const rest = kept.filter((c) => !used.has(key(c)));
  const listed = dead.map(parseCard).map(key).sort((a, b) => a - b);
  if (listed.join() !== rest.map(key).sort((a, b) => a - b).join()) return "the deadwood cards are not the kept cards outside the melds";
  const worth = rest.reduce((t, [r]) => t + value(r, rules), 0);
  return worth === deadwood ? null : `the deadwood is worth ${worth}, not ${deadwood}`;
}

function checkBound(hand, bound, target, after, rules) {
  if (bound === null) return "no lower-bound proof (too many choices of set cards to list): only the Z3 proof";
  if (bound.method !== "set-choices/suit-runs") return `unknown method ${bound.method}`;
  const listed = new Map();
  for (const c of bound.cases) {
    const k = choiceKey(c.sets.map((s) => s.map(parseCard)));
    if (listed.has(k)) return "a set choice is listed twice";
    listed.set(k, c);
  }
  const expected = setChoices(hand);
  if (expected.length !== listed.size || !expected.every((k) => listed.has(k))) {
    return "the cases are not exactly the possible choices of set cards";
  }
  for (const c of listed.values()) {
    const inSets = new Set(c.sets.flat().map(parseCard).map(key));
    const suits = [0, 1, 2, 3].map((q) => hand.filter(([, s]) => s === q).filter((x) => !inSets.has(key(x))).map(([r]) => r));
    const dead = suits.map((ranks) => runDeadwood(ranks, rules));
    if (c.suits.some((d, q) => d > dead[q])) return `a case says suit run deadwood ${c.suits}, the suits have ${dead}`;
    const sum = c.suits.reduce((t, d) => t + d, 0);
    let totals = [sum];
    if (after) {
      totals = [];
      for (let q = 0; q < 4; q += 1) {
        if (!suits[q].length) continue;
        const best = Math.min(...suits[q].map((x) => runDeadwood(suits[q].filter((r) => r !== x), rules)));
        const claimed = c.after_discard[q];
        if (claimed === null || claimed > best) return `suit ${SUITS[q]} after a discard is ${best}, a case says ${claimed}`;
        totals.push(sum - c.suits[q] + claimed);
      }
    }
    if (totals.length && Math.min(...totals) < target) return `a case allows deadwood ${Math.min(...totals)}, below ${target}`;
  }
  return null;
}

export function check(cert) {
  try {
    const rules = cert.rules;
    const hand = cert.hand.map(parseCard);
    if (new Set(hand.map(key)).size !== hand.length) return "a card appears twice in the hand";
    const after = cert.question === "deadwood-after-discard";
    const w = cert.witness;
    const discard = w.discard === null ? null : parseCard(w.discard);
    if (after !== (discard !== null) || (discard && !hand.some((c) => key(c) === key(discard)))) {
      return "the witness's discard does not fit the question";
    }
    const kept = hand.filter((c) => !discard || key(c) !== key(discard));
    const optimum = cert.optimum;
    let problem = checkArrangement(kept, w.melds, w.deadwood_cards, optimum, rules);
    if (problem) return `witness: ${problem}`;
    problem = checkBound(hand, cert.lower_bound, optimum, after, rules);
    if (problem) return `lower bound: ${problem}`;
    const outcome = cert.claim === optimum ? "proved" : cert.claim > optimum ? "claim-too-high" : "claim-too-low";
    if (cert.outcome !== outcome) return `outcome ${cert.outcome}, but claim ${cert.claim} and optimum ${optimum} make it ${outcome}`;
    if (after) {
      if (cert.gin !== (optimum === 0)) return `gin ${cert.gin} but the optimum is ${optimum}`;
      if ("knock_limit" in cert && cert.can_knock !== (optimum <= cert.knock_limit)) return `can_knock ${cert.can_knock} against knock limit ${cert.knock_limit}`;
      if (optimum === 0) {
        const proof = cert.big_gin_proof;
        problem = cert.big_gin ? checkArrangement(hand, proof.melds, [], 0, rules) : checkBound(hand, proof.lower_bound, 1, false, rules);
        if (problem) return `big_gin: ${problem}`;
      }
    }
    return null;
  } catch (error) {
    return `malformed certificate: ${error.message}`;
  }
}

function main(args) {
  const certs = [];
  if (args[0] === "--lines") {
    for (const line of readFileSync(args[1], "utf8").split("\n")) if (line.trim()) certs.push(JSON.parse(line));
  } else {
    for (const file of args) certs.push(JSON.parse(readFileSync(file, "utf8")));
  }
  let failed = 0;
  for (const cert of certs) {
    const problem = check(cert);
    if (problem) failed += 1;
    console.log(problem ?? "ok");
  }
  return failed ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main(process.argv.slice(2)));
