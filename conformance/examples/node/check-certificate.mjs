// An independent checker of ginspec deadwood certificates, written a second time in JavaScript
// (FORMAL.CERTIFICATE, "The lower-bound proof"; the Python one is ginspec/spec/formal/checker.py).
// It uses no solver and nothing of ginspec: it reads the meld rules of chapter 2 and checks the
// certificate's numbers by counting. It first checks the certificate's shape (a known question, its
// fields and no other, each of its type), then the witness, the lower bound, outcome, and after a
// discard gin, can_knock and big_gin (present exactly when the optimum is 0, its proof checked
// whether it says true or false). Its first problem is word for word the Python checker's
// (tests/test_checkers_agree.py); JSON.parse cannot tell 37.0 from 37, which the Python one rejects.
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
  let i = 0;
  for (const c of listed.values()) {
    const inSets = new Set(c.sets.flat().map(parseCard).map(key));
    const suits = [0, 1, 2, 3].map((q) => hand.filter(([, s]) => s === q).filter((x) => !inSets.has(key(x))).map(([r]) => r));
    for (let q = 0; q < 4; q += 1) {
      const dead = runDeadwood(suits[q], rules);
      if (c.suits[q] > dead) return `case ${i}: suit ${SUITS[q]} has run deadwood ${dead}, the case says ${c.suits[q]}`;
    }
    const sum = c.suits.reduce((t, d) => t + d, 0);
    let totals = [sum];
    if (after) {
      totals = [];
      for (let q = 0; q < 4; q += 1) {
        const claimed = c.after_discard[q];
        if (!suits[q].length) {
          if (claimed !== null) return `case ${i}: suit ${SUITS[q]} has no card to discard, the case says ${claimed}`;
          continue;
        }
        const best = Math.min(...suits[q].map((x) => runDeadwood(suits[q].filter((r) => r !== x), rules)));
        if (claimed === null || claimed > best) return `case ${i}: suit ${SUITS[q]} after a discard is ${best}, the case says ${claimed}`;
        totals.push(sum - c.suits[q] + claimed);
      }
    }
    if (totals.length && Math.min(...totals) < target) return `case ${i} allows deadwood ${Math.min(...totals)}, below ${target}`;
    i += 1;
  }
  return null;
}

// --- the certificate's shape: a known question, its fields and no other, each of its type -------

const QUESTIONS = ["deadwood", "deadwood-after-discard"];
const OUTCOMES = ["proved", "claim-too-high", "claim-too-low"];
const FIELDS = ["hand", "rules", "question", "claim", "outcome", "optimum", "witness", "unsat_below",
  "encoding", "lower_bound", "solver"];
const AFTER_FIELDS = ["gin", "knock_limit", "can_knock", "big_gin", "big_gin_proof"];

const isObject = (x) => typeof x === "object" && x !== null && !Array.isArray(x);
const has = (x, name) => Object.prototype.hasOwnProperty.call(x, name);
const isInt = (x, low = 0, high = null) => Number.isInteger(x) && x >= low && (high === null || x <= high);
const isCard = (x) => typeof x === "string" && x.length === 2 && RANKS.includes(x[0]) && SUITS.includes(x[1]);

function cardsProblem(x, where) {
  if (!Array.isArray(x) || !x.every(isCard)) return `${where}: not a list of cards`;
  return new Set(x).size !== x.length ? `${where}: a card appears twice` : null;
}

function meldsProblem(x, where) {
  if (!Array.isArray(x)) return `${where}: not a list of melds`;
  for (let i = 0; i < x.length; i += 1) {
    const problem = cardsProblem(x[i], `${where}[${i}]`);
    if (problem) return problem;
  }
  return cardsProblem(x.flat(), where);
}

// Code-point order, as Python's sorted() orders the names.
const byCodePoint = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

function fieldsProblem(x, where, required, optional = []) {
  if (!isObject(x)) return `${where}: not an object`;
  for (const name of required) if (!has(x, name)) return `${where}.${name}: missing`;
  for (const name of Object.keys(x).sort(byCodePoint)) {
    if (!required.includes(name) && !optional.includes(name)) return `${where}.${name}: unknown field`;
  }
  return null;
}

function boundShape(b, where, after) {
  if (b === null) return null;
  const problem = fieldsProblem(b, where, ["method", "cases"]);
  if (problem) return problem;
  if (b.method !== "set-choices/suit-runs") return `${where}.method: unknown method`;
  if (!Array.isArray(b.cases) || !b.cases.length) return `${where}.cases: not a non-empty list`;
  const keys = after ? ["sets", "suits", "after_discard"] : ["sets", "suits"];
  for (let i = 0; i < b.cases.length; i += 1) {
    const at = `${where}.cases[${i}]`;
    const c = b.cases[i];
    const problem = fieldsProblem(c, at, keys) || meldsProblem(c.sets, `${at}.sets`);
    if (problem) return problem;
    for (const k of keys.slice(1)) {
      const numbers = c[k];
      if (!Array.isArray(numbers) || numbers.length !== 4 || !numbers.every((n) => isInt(n) || (k === "after_discard" && n === null))) {
        return `${at}.${k}: not a list of 4 numbers (one per suit)`;
      }
    }
  }
  return null;
}

export function shapeProblem(cert) {
  if (!isObject(cert)) return "certificate: not an object";
  if (!QUESTIONS.includes(cert.question)) return "question: not one of deadwood, deadwood-after-discard";
  const after = cert.question === "deadwood-after-discard";
  let problem = fieldsProblem(cert, "certificate", after ? [...FIELDS, "gin"] : FIELDS, after ? AFTER_FIELDS : []);
  if (problem) return problem;
  if (has(cert, "knock_limit") !== has(cert, "can_knock")) return "can_knock: comes with knock_limit, and only with it";
  if (has(cert, "big_gin") !== has(cert, "big_gin_proof")) return "big_gin_proof: comes with big_gin, and only with it";
  problem = cardsProblem(cert.hand, "hand") || fieldsProblem(cert.rules, "rules", ["ace_high_runs", "wraparound_runs", "ace_value"]);
  if (problem) return problem;
  const rules = cert.rules;
  if (typeof rules.ace_high_runs !== "boolean" || typeof rules.wraparound_runs !== "boolean") {
    return "rules: ace_high_runs and wraparound_runs are true or false";
  }
  if (rules.wraparound_runs && !rules.ace_high_runs) return "rules.wraparound_runs: needs ace_high_runs";
  if (!isInt(rules.ace_value, 1, 15)) return "rules.ace_value: not an integer from 1 to 15";
  for (const name of ["claim", "optimum", "unsat_below", "knock_limit"]) {
    if (has(cert, name) && !isInt(cert[name])) return `${name}: not an integer of at least 0`;
  }
  if (!OUTCOMES.includes(cert.outcome)) return "outcome: not one of proved, claim-too-high, claim-too-low";
  const w = cert.witness;
  problem = fieldsProblem(w, "witness", ["melds", "deadwood_cards", "deadwood", "discard", "checked_against"])
    || meldsProblem(w.melds, "witness.melds") || cardsProblem(w.deadwood_cards, "witness.deadwood_cards");
  if (problem) return problem;
  if (!isInt(w.deadwood)) return "witness.deadwood: not an integer of at least 0";
  if (w.discard !== null && !isCard(w.discard)) return "witness.discard: not a card or null";
  if (w.checked_against !== "definition") return "witness.checked_against: not definition";
  if (typeof cert.encoding !== "string") return "encoding: not a string";
  problem = fieldsProblem(cert.solver, "solver", ["name"], ["version", "checks", "seconds"]);
  if (problem) return problem;
  const s = cert.solver;
  if (typeof s.name !== "string" || (has(s, "version") && typeof s.version !== "string")
      || (has(s, "checks") && !isInt(s.checks)) || (has(s, "seconds") && !(typeof s.seconds === "number" && s.seconds >= 0))) {
    return "solver: name and version are strings, checks and seconds numbers of at least 0";
  }
  problem = boundShape(cert.lower_bound, "lower_bound", after);
  if (problem) return problem;
  for (const name of ["gin", "can_knock", "big_gin"]) {
    if (has(cert, name) && typeof cert[name] !== "boolean") return `${name}: not true or false`;
  }
  if (has(cert, "big_gin_proof")) {
    const proof = cert.big_gin_proof;
    problem = fieldsProblem(proof, "big_gin_proof", [], ["melds", "lower_bound"]);
    if (problem) return problem;
    if (Object.keys(proof).length !== 1) return "big_gin_proof: holds either melds or a lower_bound";
    if (has(proof, "melds")) return meldsProblem(proof.melds, "big_gin_proof.melds");
    if (proof.lower_bound === null) return "big_gin_proof.lower_bound: null";
    return boundShape(proof.lower_bound, "big_gin_proof.lower_bound", false);
  }
  return null;
}

const boolText = (x) => (x ? "true" : "false");

export function check(cert) {
  try {
    const shape = shapeProblem(cert);
    if (shape) return shape;
    const rules = cert.rules;
    const hand = cert.hand.map(parseCard);
    const after = cert.question === "deadwood-after-discard";
    const w = cert.witness;
    const discard = w.discard === null ? null : parseCard(w.discard);
    if (after !== (discard !== null) || (discard && !hand.some((c) => key(c) === key(discard)))) {
      return "witness.discard: does not fit the question";
    }
    const kept = hand.filter((c) => !discard || key(c) !== key(discard));
    const optimum = cert.optimum;
    if (w.deadwood !== optimum) return `witness.deadwood: ${w.deadwood}, but the optimum is ${optimum}`;
    if (cert.unsat_below !== optimum) return `unsat_below: ${cert.unsat_below}, but the optimum is ${optimum}`;
    let problem = checkArrangement(kept, w.melds, w.deadwood_cards, optimum, rules);
    if (problem) return `witness: ${problem}`;
    problem = checkBound(hand, cert.lower_bound, optimum, after, rules);
    if (problem) return `lower_bound: ${problem}`;
    const claim = cert.claim;
    const outcome = claim === optimum ? "proved" : claim > optimum ? "claim-too-high" : "claim-too-low";
    if (cert.outcome !== outcome) return `outcome: ${cert.outcome}, but claim ${claim} and optimum ${optimum} make it ${outcome}`;
    if (after) {
      if (cert.gin !== (optimum === 0)) return `gin: ${boolText(cert.gin)}, but the optimum is ${optimum}`;
      if (has(cert, "knock_limit") && cert.can_knock !== (optimum <= cert.knock_limit)) {
        return `can_knock: ${boolText(cert.can_knock)}, but ${optimum} against knock limit ${cert.knock_limit}`;
      }
      if (has(cert, "big_gin") !== (optimum === 0)) return `big_gin: ${has(cert, "big_gin") ? "present" : "missing"}, but the optimum is ${optimum}`;
      if (optimum === 0) {
        const proof = cert.big_gin_proof;
        if (cert.big_gin !== has(proof, "melds")) return "big_gin_proof: melds prove big gin, a lower bound its absence";
        problem = cert.big_gin ? checkArrangement(hand, proof.melds, [], 0, rules) : checkBound(hand, proof.lower_bound, 1, false, rules);
        if (problem) return `big_gin_proof: ${problem}`;
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
