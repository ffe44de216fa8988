"""Saved runs (the JSON-lines files of ``ginspec conform --json``) read back: summary, diff of two
runs, merge of shards, a Markdown summary for CI pages, an SVG badge, and the expected-failure list
written from a run (``ginspec report ...``)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from ginspec.conformance.reports.meta import clause_counts
from ginspec.conformance.runner import STATUSES, signal_exit_code, stop_warning
from ginspec.reference.cli.escape import json_line, markdown_text
from ginspec.spec.errors import GinspecError, shown
from ginspec.spec.inputs import parse_json, read_text

BAD: Final = ("fail", "error", "xpass")
NOT_PLAYED: Final = ("skip", "declined")


class SavedRunError(GinspecError):
    """A saved run cannot be read or combined; the message names the file and line."""


@dataclass
class SavedRun:
    """One engine's run: its header, its case lines by ID (in run order) and its footer."""

    source: str
    header: dict[str, Any]
    cases: dict[str, dict[str, Any]] = field(default_factory=dict)
    footer: dict[str, Any] = field(default_factory=dict)

    @property
    def engine(self) -> str:
        a = self.header.get("adapter", {})
        return f"{a.get('name', '?')} {a.get('version', '')}".strip()

    @property
    def spec(self) -> str:
        return str(self.header.get("adapter", {}).get("spec", "?"))

    def counts(self) -> dict[str, int]:
        out = dict.fromkeys(STATUSES, 0)
        for line in self.cases.values():
            out[line["status"]] = out.get(line["status"], 0) + 1
        return out

    @property
    def interrupted(self) -> str:
        """The signal that cut the run short (``SIGINT``, ``SIGTERM``), or empty."""
        return str(self.footer.get("interrupted", ""))

    @property
    def not_run(self) -> int:
        """When interrupted: how many selected cases were never run."""
        return int(self.footer.get("not_run", 0))

    @property
    def refused(self) -> str:
        """Why the adapter was refused at hello (no case was sent), or empty."""
        return str(self.footer.get("refused", ""))

    @property
    def exit_code(self) -> int:
        """As ``ginspec conform``: 130 or 143 interrupted by SIGINT or SIGTERM, 2 adapter errors
        or an adapter refused at hello, 1 failures or unexpected passes, else 0."""
        if self.interrupted:
            return signal_exit_code(self.interrupted)
        c = self.counts()
        return 2 if c["error"] or self.refused else 1 if c["fail"] or c["xpass"] else 0

    @property
    def verdict(self) -> int:
        """The exit code of a ``ginspec report`` command on this run: :attr:`exit_code`, with a
        run cut short (interrupted) counted as 2, never as a pass."""
        return min(self.exit_code, 2)

    @property
    def warning(self) -> str:
        """One line when the run did not play its selection: interrupted, or refused at hello."""
        return stop_warning(self.interrupted, self.not_run, self.refused)

    def per_clause(self) -> dict[str, dict[str, int]]:
        return clause_counts((str(line["status"]), line.get("clauses", []), line.get("culprit"))
                             for line in self.cases.values())

    def lines(self) -> list[dict[str, Any]]:
        """The run as JSON-lines objects again (the footer recomputed from the cases)."""
        footer = {"type": "footer", "counts": self.counts(), "exit_code": self.exit_code,
                  "seconds": round(sum(float(c.get("seconds", 0)) for c in self.cases.values()), 3),
                  "clauses": self.per_clause()}
        if self.interrupted:
            footer |= {"interrupted": self.interrupted, "not_run": self.not_run}
        if self.refused:
            footer["refused"] = self.refused
        return [self.header, *self.cases.values(), footer]


def _check_line(line: Any, where: str) -> str:
    """The line's type, once its fields that the readers use have the right shapes (anything
    else: one line naming the file, line and field)."""
    if not isinstance(line, dict):
        raise SavedRunError(f"{where}: (top level): expected an object, got {shown(line)}")
    kind = line.get("type")
    if kind == "header":
        for name in ("adapter", "selection"):
            if name in line and not isinstance(line[name], dict):
                raise SavedRunError(f"{where}: {name}: expected an object, got {shown(line[name])}")
        selection = line.get("selection", {})
        if "merged" in selection and not (isinstance(selection["merged"], list) and all(
                isinstance(m, str) for m in selection["merged"])):
            raise SavedRunError(f"{where}: selection/merged: expected a list of file names")
    elif kind == "case":
        if not isinstance(line.get("id"), str) or line.get("status") not in STATUSES:
            raise SavedRunError(f"{where}: a case line needs an id and a status "
                                f"({', '.join(STATUSES)})")
        clauses = line.get("clauses", [])
        if not isinstance(clauses, list) or not all(isinstance(c, str) for c in clauses):
            raise SavedRunError(f"{where}: clauses: expected a list of clause IDs, got {shown(clauses)}")
        if not isinstance(line.get("culprit", ""), (str, type(None))):
            raise SavedRunError(f"{where}: culprit: expected a clause ID, got {shown(line['culprit'])}")
        seconds = line.get("seconds", 0)
        if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds < 0:
            raise SavedRunError(f"{where}: seconds: expected a number 0 or more, got {shown(seconds)}")
    elif kind == "footer":
        if "interrupted" in line and not (isinstance(line["interrupted"], str) and line["interrupted"]):
            raise SavedRunError(f"{where}: interrupted: expected a signal name, got "
                                f"{shown(line['interrupted'])}")
        not_run = line.get("not_run", 0)
        if isinstance(not_run, bool) or not isinstance(not_run, int) or not_run < 0:
            raise SavedRunError(f"{where}: not_run: expected a whole number 0 or more, got {shown(not_run)}")
        if not isinstance(line.get("refused", ""), str):
            raise SavedRunError(f"{where}: refused: expected a message, got {shown(line['refused'])}")
    else:
        raise SavedRunError(f"{where}: type: expected header, case or footer, got {shown(kind)}")
    return str(kind)


def read_runs(path: Path | str) -> list[SavedRun]:
    """Every run of a saved JSON-lines file (one per engine, in order), read through the input
    boundary (:mod:`ginspec.spec.inputs`): bounded in size, nesting and digits, each line's fields
    checked before any report reads them."""
    p = Path(path)
    text = read_text(p, SavedRunError)
    runs: list[SavedRun] = []
    for number, raw in enumerate(text.splitlines(), 1):
        if not raw.strip():
            continue
        where = f"{p}:{number}"
        line = parse_json(raw, where, SavedRunError)
        kind = _check_line(line, where)
        if kind == "header":
            runs.append(SavedRun(str(p), line))
        elif not runs:
            raise SavedRunError(f"{where}: a {kind} line before any header line")
        elif kind == "case":
            runs[-1].cases[line["id"]] = line
        else:
            runs[-1].footer = line
    if not runs:
        raise SavedRunError(f"{p}: no run in it (write one with 'ginspec conform --json FILE')")
    return runs


def read_all(paths: Iterable[Path | str]) -> list[SavedRun]:
    return [run for p in paths for run in read_runs(p)]


def detail(line: Mapping[str, Any]) -> str:
    """What differed in a case line, in one line."""
    if "field" in line:
        return f"{line['field']}: expected {line.get('expected')!r}, got {line.get('actual')!r}"
    message = str(line.get("message", ""))
    return message.splitlines()[0] if message else ""


# --- diff -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Change:
    """One case whose status (or skip reason) differs between two runs."""

    id: str
    old: str | None
    """The old status (None: not in the old run)."""
    new: str | None
    clauses: tuple[str, ...]
    detail: str

    @property
    def category(self) -> str:
        old, new = self.old, self.new
        if new in BAD and old not in BAD:
            return "new failure"
        if old in BAD and new not in BAD:
            return "fixed" if new in ("pass", "xfail") else "no longer failing"
        if old is None:
            return "added"
        if new is None:
            return "removed"
        if old in NOT_PLAYED or new in NOT_PLAYED:
            return "changed skip"
        return "changed"


CATEGORIES: Final = ("new failure", "fixed", "no longer failing", "changed skip", "changed",
                     "added", "removed")


def diff_runs(old: SavedRun, new: SavedRun) -> list[Change]:
    """Every case whose status differs (for a skip or a decline: also whose reason differs)."""
    out = []
    for case_id in [*old.cases, *(i for i in new.cases if i not in old.cases)]:
        a, b = old.cases.get(case_id), new.cases.get(case_id)
        sa, sb = (a or {}).get("status"), (b or {}).get("status")
        if sa == sb and not (sa in NOT_PLAYED and (a or {}).get("message") != (b or {}).get("message")):
            continue
        line = b or a or {}
        text = detail(b) if b and sb in (*BAD, "xfail", *NOT_PLAYED) else detail(a or {})
        out.append(Change(case_id, sa, sb, tuple(line.get("clauses", [])), text))
    return out


def clause_changes(changes: Sequence[Change]) -> dict[str, dict[str, int]]:
    """Clause → category → number of changed cases citing it."""
    out: dict[str, dict[str, int]] = {}
    for c in changes:
        for clause in c.clauses:
            row = out.setdefault(clause, {})
            row[c.category] = row.get(c.category, 0) + 1
    return dict(sorted(out.items()))


# --- merge ------------------------------------------------------------------------------------


def merge_runs(runs: Sequence[SavedRun]) -> list[SavedRun]:
    """Shard reports combined into one run per engine. Shards of one engine must carry the same
    versions and adapter; a case in two shards must have the same status there."""
    merged: dict[str, SavedRun] = {}
    for run in runs:
        key = run.spec
        into = merged.get(key)
        if into is None:
            header = {**run.header, "selection": {**run.header.get("selection", {}),
                                                  "shard": None, "merged": [run.source]}}
            merged[key] = SavedRun("merged", header, dict(run.cases), _stops(run.footer, {}))
            continue
        for name in ("versions", "adapter"):
            if into.header.get(name) != run.header.get(name):
                raise SavedRunError(f"{run.source}: {name} differ from {into.header['selection']['merged'][0]}'s"
                                    " (shards of one run share them)")
        into.header["selection"]["merged"].append(run.source)
        for case_id, line in run.cases.items():
            old = into.cases.get(case_id)
            if old is not None and old["status"] != line["status"]:
                raise SavedRunError(f"{run.source}: case {case_id} is {line['status']} here but "
                                    f"{old['status']} in another shard")
            into.cases[case_id] = line
        into.footer = _stops(run.footer, into.footer)
    for run in merged.values():
        run.header["selection"]["selected"] = len(run.cases)
    return list(merged.values())


def _stops(footer: Mapping[str, Any], into: Mapping[str, Any]) -> dict[str, Any]:
    """What a merged run keeps of its shards' footers: an interruption (the cases not run
    added up) and a refusal at hello."""
    out = dict(into)
    if footer.get("interrupted"):
        out["interrupted"] = out.get("interrupted") or footer["interrupted"]
        out["not_run"] = int(out.get("not_run", 0)) + int(footer.get("not_run", 0))
    if footer.get("refused"):
        out.setdefault("refused", footer["refused"])
    return out


def jsonl_text(runs: Sequence[SavedRun]) -> str:

    return "".join(json_line(line) + "\n" for run in runs for line in run.lines())


# --- Markdown and badge -----------------------------------------------------------------------


def _md(text: Any) -> str:
    """A table cell from run data: nothing in it is read as Markdown or HTML."""

    return markdown_text(text)


def markdown(runs: Sequence[SavedRun], *, title: str = "ginspec conformance",
             max_failures: int = 50) -> str:
    """A GitHub-flavoured Markdown summary: totals per engine, the clauses with failures side by
    side, and each failing case with what differed."""
    columns = ("pass", "fail", "error", "skip", "declined", "xfail", "xpass")
    out = [f"## {_md(title)}", "",
           "| engine | adapter | " + " | ".join(columns) + " | exit |",
           "|---|---|" + "---:|" * len(columns) + "---:|"]
    for run in runs:
        c = run.counts()
        out.append(f"| {_md(run.engine)} | {_md(run.spec)} | "
                   + " | ".join(str(c[s]) for s in columns) + f" | {run.exit_code} |")
    out += [f"\n> **{_md(run.engine)}**: {_md(run.warning)}" for run in runs if run.warning]
    tables = [run.per_clause() for run in runs]
    bad = sorted({cl for t in tables for cl, row in t.items() if any(row.get(s) for s in BAD)})
    if bad:
        out += ["", "### Clauses with failures", "",
                "| clause | " + " | ".join(_md(r.engine) for r in runs) + " |",
                "|---|" + "---|" * len(runs)]
        for clause in bad:
            cells = [" ".join(f"{t.get(clause, {})[s]} {s}" for s in columns if t.get(clause, {}).get(s))
                     or "-" for t in tables]
            out.append(f"| {_md(clause)} | " + " | ".join(_md(x) for x in cells) + " |")
    failures = [(run, line) for run in runs for line in run.cases.values() if line["status"] in BAD]
    if failures:
        out += ["", f"### Failing cases ({len(failures)})", "",
                "| case | engine | status | clause | what differed |", "|---|---|---|---|---|"]
        for run, line in failures[:max_failures]:
            out.append(f"| {_md(line['id'])} | {_md(run.engine)} | {_md(line['status'])} | "
                       f"{_md(line.get('culprit', '-'))} | {_md(detail(line))} |")
        if len(failures) > max_failures:
            out.append(f"\n… and {len(failures) - max_failures} more.")
    return "\n".join(out) + "\n"


def badge_svg(run: SavedRun, label: str = "ginspec") -> str:
    """A flat SVG badge: passed of played, and the failures, coloured by the exit code."""
    from xml.sax.saxutils import escape

    c = run.counts()
    played = c["pass"] + c["fail"] + c["error"] + c["xfail"] + c["xpass"]
    value = f"{c['pass']}/{played} pass"
    if c["fail"] + c["error"] + c["xpass"]:
        value += f", {c['fail'] + c['error'] + c['xpass']} failing"
    elif c["xfail"]:
        value += f", {c['xfail']} known"
    if run.interrupted:
        value += ", interrupted"
    elif run.refused:
        value = "refused at hello"
    colour = {0: "#4c1", 1: "#e05d44", 2: "#dfb317"}[run.verdict]
    lw, vw = 7 * len(label) + 12, 7 * len(value) + 12
    w = lw + vw
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="20" role="img" '
            f'aria-label="{escape(label)}: {escape(value)}"><title>{escape(label)}: {escape(value)}</title>'
            f'<rect width="{lw}" height="20" fill="#555"/><rect x="{lw}" width="{vw}" height="20" '
            f'fill="{colour}"/><g fill="#fff" text-anchor="middle" '
            'font-family="Verdana,DejaVu Sans,sans-serif" font-size="11">'
            f'<text x="{lw / 2}" y="14">{escape(label)}</text>'
            f'<text x="{lw + vw / 2}" y="14">{escape(value)}</text></g></svg>\n')


# --- expected-failure lists -------------------------------------------------------------------


def updated_expect_fail(runs: Sequence[SavedRun], old_text: str | None, *,
                        as_json: bool = False, source: str = "the list") -> tuple[str, dict[str, int]]:
    """The text of an expected-failure list after ``runs``: every case that failed or errored (or
    was an expected failure) is listed; an entry that passed is dropped; existing entries keep
    their reasons and places, comment lines stay where they were, and a new entry (appended) has
    what differed as its reason. ``as_json``: the ``{id: reason}`` form (read through the input
    boundary; errors name ``source``). Returns the text and how
    many entries were kept, added and dropped."""
    failing: dict[str, str] = {}
    passed: set[str] = set()
    for run in runs:
        for case_id, line in run.cases.items():
            if line["status"] in ("fail", "error", "xfail"):
                why = detail(line)
                failing.setdefault(case_id, f"{line.get('culprit', '-')}: {why}" if why else
                                   str(line.get("culprit", "")))
            elif line["status"] in ("pass", "xpass"):
                passed.add(case_id)
    stats = {"kept": 0, "added": 0, "dropped": 0}
    if as_json:
        old = parse_json(old_text, source, SavedRunError) if old_text else {}
        if not isinstance(old, dict):
            raise SavedRunError(f"{source}: (top level): the JSON list is not an object of id -> reason")
        entries: dict[str, str] = {}
        for case_id, reason in old.items():
            if case_id in passed and case_id not in failing:
                stats["dropped"] += 1
            else:
                entries[case_id] = str(reason)
                stats["kept"] += 1
        for case_id, reason in failing.items():
            if case_id not in entries:
                entries[case_id] = reason
                stats["added"] += 1
        return json.dumps(entries, indent=1, ensure_ascii=False) + "\n", stats
    out: list[str] = []
    listed: set[str] = set()
    for text in (old_text or "").splitlines():
        case_id = text.partition("#")[0].strip()
        if case_id and case_id in passed and case_id not in failing:
            stats["dropped"] += 1
            continue
        if case_id:
            listed.add(case_id)
            stats["kept"] += 1
        out.append(text)
    if not out:
        out.append("# Cases expected to fail, one per line:  ID  # reason "
                   "(written by ginspec report expect-fail)")
    for case_id, reason in failing.items():
        if case_id not in listed:
            out.append(f"{case_id}  # {reason}" if reason else case_id)
            stats["added"] += 1
    return "\n".join(out) + "\n", stats
