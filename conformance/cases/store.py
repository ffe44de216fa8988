"""Loading, checking and saving case files.

Every malformed case raises :class:`CaseFormatError` naming the file and the JSON path of the bad
field, e.g. ``suite/cases/query/x.json: steps/3/player: 2 is not one of [0, 1]``.
"""

from __future__ import annotations

import gc
import hashlib
import json
import re
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from ginspec.conformance.cases.model import JSON, Case, CaseFormatError, fingerprint_of
from ginspec.conformance.cases.query_kinds import QUERY_KINDS, answer_type_error
from ginspec.spec.inputs import guard, read_json

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError

SCHEMA_DIR: Final = Path(__file__).resolve().parent.parent / "schema"

@cache
def case_validator() -> Draft202012Validator:
    """The JSON Schema validator of the case format."""
    from jsonschema import Draft202012Validator

    schema = json.loads((SCHEMA_DIR / "case.schema.json").read_text(encoding="utf-8"))
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _field(error: ValidationError) -> str:
    path = "/".join(str(p) for p in error.absolute_path)
    return path or "(top level)"


def _best_error(errors: Iterable[ValidationError]) -> ValidationError | None:
    """The most specific error: the deepest field first (an enum on ``kind`` beats the
    ``required`` that the wrong kind triggers at the top level)."""
    from jsonschema.exceptions import best_match

    found = list(errors)
    if not found:
        return None
    deepest = max(len(e.absolute_path) for e in found)
    return best_match(e for e in found if len(e.absolute_path) == deepest)


def parse_case(data: Any, where: str = "<case>") -> Case:
    """Check ``data`` against the schema and the rules the schema cannot say; return the Case."""
    if not isinstance(data, dict):
        raise CaseFormatError(f"{where}: (top level): a case is a JSON object")
    error = _best_error(case_validator().iter_errors(data))
    if error is not None:
        raise CaseFormatError(f"{where}: {_field(error)}: {error.message}")
    _check_semantics(data, where)
    return Case(data, where)


def _check_semantics(data: dict[str, JSON], where: str) -> None:
    expected = fingerprint_of(data)
    if data["fingerprint"] != expected:
        raise CaseFormatError(
            f"{where}: fingerprint: {data['fingerprint']} does not match the content ({expected});"
            " a changed case needs its fingerprint recomputed (ginspec suite build)"
        )
    missing = sorted(set(data["violates"]) - set(data["clauses"]))
    if missing:
        raise CaseFormatError(f"{where}: violates: {missing} not listed in clauses")
    if data["kind"] == "query":
        _check_query_expect(data, where)
        return
    if data["kind"] == "hand" and len(data["deals"]) != 1:
        raise CaseFormatError(f"{where}: deals: a hand case has exactly one deal")
    if data["kind"] == "table-hand":
        _check_table_hand(data, where)
    n_steps = len(data["steps"])
    for i, point in enumerate(data["checkpoints"]):
        if point["after"] > n_steps:
            raise CaseFormatError(
                f"{where}: checkpoints/{i}/after: {point['after']} is past the last step "
                f"({n_steps})"
            )


def _check_query_expect(data: dict[str, JSON], where: str) -> None:
    """A query case expects fields of its kind's answer, with their types and the required
    ones (``query_kinds.QUERY_KINDS``), or ``error: true`` where its kind allows one."""
    what, expect = data["query"]["what"], data["expect"]
    kind = QUERY_KINDS[what]
    cards = data["query"].get("cards", [])
    if what != "meld" and len(set(cards)) != len(cards):
        raise CaseFormatError(f"{where}: query/cards: a card appears twice")
    error = "error" in expect
    if error and not (kind.may_error and expect["error"] is True):
        raise CaseFormatError(f"{where}: expect/error: a {what} query expects no error or "
                              "error: true")
    if error and kind.family == "system" and len(expect) != 1:
        raise CaseFormatError(f"{where}: expect: an expected error has no other field")
    for name, value in expect.items():
        bad = None if name == "error" else answer_type_error(kind, name, value)
        if bad:
            raise CaseFormatError(f"{where}: expect/{name}: {bad}")
    for name in () if error else kind.required:
        if name not in expect:
            raise CaseFormatError(f"{where}: expect/{name}: required for a {what} query")
    if what == "card" and ("canonical" in expect) == error:
        raise CaseFormatError(f"{where}: expect: a card query expects canonical or error")
    if what == "score" and ("points" in expect) == error:
        raise CaseFormatError(f"{where}: expect: a score query expects points or error")


def _check_table_hand(data: dict[str, JSON], where: str) -> None:
    """A table hand: one deal, seats and per-seat lists that fit its number of players, and the
    capability ``table-game.N`` required (conformance/CASES.md)."""
    if len(data["deals"]) != 1:
        raise CaseFormatError(f"{where}: deals: a table-hand case has exactly one deal")
    players = int(data["deals"][0]["players"])
    if data["deals"][0]["dealer"] >= players:
        raise CaseFormatError(f"{where}: deals/0/dealer: not a seat of {players} players")
    if f"table-game.{players}" not in data["requires"]:
        raise CaseFormatError(f"{where}: requires: a {players}-player hand requires "
                              f"table-game.{players}")
    for i, step in enumerate(data["steps"]):
        if step["player"] >= players:
            raise CaseFormatError(f"{where}: steps/{i}/player: not a seat of {players} players")
    for i, point in enumerate(data["checkpoints"]):
        if "hand_sizes" in point and len(point["hand_sizes"]) != players:
            raise CaseFormatError(f"{where}: checkpoints/{i}/hand_sizes: one size per seat "
                                  f"({players})")
    for name in ("deadwood", "penalties"):
        if name in data.get("result", {}) and len(data["result"][name]) != players:
            raise CaseFormatError(f"{where}: result/{name}: one value per seat ({players})")


_LOADED: dict[tuple[str, int, int], Case] = {}
"""Checked cases by (path, mtime, size): a file read twice in one process is checked once."""


def load_case(path: Path | str) -> Case:
    """Read and check one case file."""
    if not isinstance(path, str | Path):
        raise CaseFormatError(f"a case file is named by a path, not {path!r:.40}")
    p = Path(path)
    try:
        stat = p.stat()
        key = (str(p), stat.st_mtime_ns, stat.st_size)
        if key in _LOADED:
            return _LOADED[key]
    except OSError as exc:
        raise CaseFormatError(f"{p}: cannot read: {exc.strerror}") from None
    data = read_json(p, CaseFormatError)
    with guard(str(p), CaseFormatError):
        case = parse_case(data, str(p))
    _LOADED[key] = case
    return case


def case_files(root: Path) -> Iterator[Path]:
    """Every ``*.json`` case file under ``root`` (or ``root`` itself), sorted."""
    if root.is_file():
        yield root
        return
    for p in sorted(root.rglob("*.json")):
        if p.name not in ("manifest.json", "retired.json"):  # suite metadata, not cases
            yield p


CONTENT_FIELD: Final = "content"
"""The manifest field holding :func:`content_digest` of the suite's case files."""


def content_digest(texts: Iterable[tuple[str, str]]) -> str:
    """One digest of case files: ``sha256:`` over each (relative path, text) pair, in path order.
    ``ginspec suite build`` records it in the manifest after checking every case."""
    return _bytes_digest((rel, text.encode()) for rel, text in texts)


def _bytes_digest(files: Iterable[tuple[str, bytes]]) -> str:
    """:func:`content_digest` of files given as (relative path, the text's UTF-8 bytes): the
    bytes as read, not encoded again (paths are unique: ordered by path alone)."""
    h = hashlib.sha256()
    for rel, raw in sorted(files, key=lambda f: f[0]):
        h.update(rel.encode())
        h.update(b"\0")
        h.update(raw)
        h.update(b"\0")
    return "sha256:" + h.hexdigest()


def _verified_suite(root: Path) -> list[tuple[Path, Case]] | None:
    """The cases of a built suite folder without re-checking them against the schema, when the
    files are exactly the ones the build checked (their digest is the manifest's); else None, and
    every file is checked as usual (a case edited by hand included)."""
    try:
        manifest = json.loads((root / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    want = manifest.get(CONTENT_FIELD) if isinstance(manifest, dict) else None
    if not isinstance(want, str):
        return None
    read: list[tuple[Path, str, str, bytes]] = []
    try:
        for p in case_files(root):
            raw = p.read_bytes()
            text = raw.decode("utf-8")
            if "\r" in text:  # as read_text reads it (universal newlines): hash that text
                text = text.replace("\r\n", "\n").replace("\r", "\n")
                raw = text.encode()
            read.append((p, p.relative_to(root).as_posix(), text, raw))
    except (OSError, UnicodeDecodeError):
        return None
    if _bytes_digest((rel, raw) for _, rel, _, raw in read) != want:
        return None
    try:
        return [(p, _stored_case(text, str(p))) for p, _, text, _ in read]
    except (ValueError, KeyError, TypeError):  # pragma: no cover - the digest matched a build
        return None


_RULESETS_OPEN: Final = '\n"rulesets": [\n'
_ENTRY_PROFILES: Final = re.compile(r'  \{"profiles": (\[[^\]]*\])')


def _stored_case(text: str, where: str) -> Case:
    """A case of a verified suite file, its ``rulesets`` entries parsed when first read (a run
    plays a case under one or two of them; parsing all is most of the loading time)."""
    start = text.find(_RULESETS_OPEN)
    if start < 0:
        return Case(json.loads(text), where)
    end = text.index("\n ]", start)
    head = json.loads(text[:start] + '\n"rulesets": []' + text[end + 3:])
    return _StoredCase(head, text, start + len(_RULESETS_OPEN), end, where)


class _StoredCase(Case):
    """A built case read from its file (see :func:`format_case`: one ``rulesets`` entry a
    line): the fields but ``rulesets`` parsed, and each entry when first asked for (its line is
    found by its place in the file's text, which is kept, not copied). ``data`` is the whole
    case, as stored."""

    _head: dict[str, JSON]
    _text: str
    _lines: tuple[tuple[int, int], ...]
    """Where each entry's line starts and ends in ``_text``."""
    _parsed: list[dict[str, JSON] | None]
    _profiles: tuple[tuple[str, ...], ...]

    def __init__(self, head: dict[str, JSON], text: str, start: int, end: int,
                 path: str) -> None:
        lines: list[tuple[int, int]] = []
        find = text.find
        while (stop := find("\n", start, end)) >= 0:
            lines.append((start, stop))
            start = stop + 1
        lines.append((start, end))
        object.__setattr__(self, "_head", head)
        object.__setattr__(self, "_text", text)
        object.__setattr__(self, "_lines", tuple(lines))
        object.__setattr__(self, "_parsed", [None] * len(lines))
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "id", str(head["id"]))
        match = _ENTRY_PROFILES.match
        found = [match(text, a, b) for a, b in lines]
        if all(found):  # every entry starts with its profiles (as format_case writes them)
            lists = json.loads("[" + ",".join(f.group(1) for f in found if f) + "]")
        else:
            lists = [self._entry(i)["profiles"] for i in range(len(lines))]
        object.__setattr__(self, "_profiles", tuple(tuple(p) for p in lists))

    def _entry(self, i: int) -> dict[str, JSON]:
        got = self._parsed[i]
        if got is None:
            a, b = self._lines[i]
            got = self._parsed[i] = json.loads(self._text[a:b].strip().removesuffix(","))
        return got

    @property
    def _fields(self) -> dict[str, JSON]:
        return self._head

    @property
    def data(self) -> dict[str, JSON]:
        return {**self._fields, "rulesets": self.rulesets}

    @property
    def rulesets(self) -> list[dict[str, JSON]]:
        return [self._entry(i) for i in range(len(self._profiles))]

    @property
    def ruleset_profiles(self) -> tuple[tuple[str, ...], ...]:
        return self._profiles

    def rulesets_of(self, profile: str) -> list[dict[str, JSON]]:
        return [self._entry(i) for i, names in enumerate(self._profiles)
                if profile in names]


def load_cases(roots: Iterable[Path | str]) -> list[Case]:
    """Load every case under the given files or folders; a repeated ID is an error. A built
    suite whose files match its manifest's digest is read without re-checking each file."""
    enabled = gc.isenabled()
    gc.disable()  # case data holds no cycles: collecting while it is parsed is wasted work
    try:
        return _load_cases(roots)
    finally:
        if enabled:
            gc.enable()


def _load_cases(roots: Iterable[Path | str]) -> list[Case]:
    cases: list[Case] = []
    seen: dict[str, str] = {}
    for root in roots:
        rp = Path(root)
        if not rp.exists():
            raise CaseFormatError(f"{rp}: no such case file or folder")
        verified = _verified_suite(rp) if rp.is_dir() else None
        loaded = verified if verified is not None else ((p, None) for p in case_files(rp))
        for p, known in loaded:
            case = known if known is not None else load_case(p)
            if case.id in seen:
                raise CaseFormatError(f"{p}: id: {case.id} already used by {seen[case.id]}")
            seen[case.id] = str(p)
            cases.append(case)
    return cases


def dump_case(case: Case, folder: Path) -> Path:
    """Write ``case`` to ``folder/<kind>/<id>.json`` and return the path."""
    path = folder / case.kind / f"{case.id}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(case.to_json(), encoding="utf-8")
    return path
