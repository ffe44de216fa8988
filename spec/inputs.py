"""The one input boundary: every file and message ginspec reads is loaded here.

Cases, rulings, traces, certificates, expect-fail lists, rules files and protocol replies are
JSON or TOML written by someone else. Before any part of ginspec looks inside one, this module
bounds it — at most :data:`MAX_BYTES` bytes, :data:`MAX_DEPTH` levels of nesting, integers of at
most :data:`MAX_DIGITS` digits, finite numbers only (no ``NaN``, ``Infinity`` or ``1e999``) —
and checks it against its JSON schema where it has one. Every failure is raised as the caller's
own :class:`~ginspec.spec.errors.GinspecError` subclass, with one line naming the source and the
field (``cases/q.x.json: query/cards/0: ...``), so the command line exits 2 without a traceback.

:func:`guard` is the last line behind the parsers: a value of a wrong type that a parser did not
foresee (a number where an object belongs) becomes the same typed one-line error instead of a
``TypeError`` from deep inside.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import sys
import tomllib
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import IO, Any, Final

from ginspec.spec.errors import GinspecError

MAX_BYTES: Final = 16 * 2**20
"""The largest file ginspec reads (the largest suite case is under 100 kB)."""
MAX_DEPTH: Final = 64
"""The deepest nesting of arrays and objects (cases nest at most 6 deep)."""
MAX_DIGITS: Final = 30
"""The most digits an integer may have (seeds are 64-bit: 20 digits)."""

NAME_MAX: Final = 255
"""The longest file or folder name, in bytes (most file systems; longer names fail to open)."""
PATH_MAX: Final = 4096
"""The longest path, in bytes."""

InputErrorType = type[GinspecError]
_INT_LIMIT: Final = 10**MAX_DIGITS


class _Refused(Exception):
    """Raised inside the JSON parser's hooks; turned into the caller's error with the source."""


def _int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_DIGITS:
        raise _Refused(f"integer of {len(text.lstrip('-'))} digits (at most {MAX_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Refused(f"number {text[:40]} is out of range")
    return value


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


def _where(path: list[str | int]) -> str:
    return "/".join(str(p) for p in path) or "(top level)"


def check_bounds(value: Any, source: str, error: InputErrorType = GinspecError) -> None:
    """Nesting depth, integer size and finiteness of an already-parsed document."""
    stack: list[tuple[Any, list[str | int]]] = [(value, [])]
    while stack:
        node, path = stack.pop()
        if len(path) > MAX_DEPTH:
            raise error(f"{source}: {_where(path[:8])}/...: nested more than {MAX_DEPTH} deep")
        if isinstance(node, Mapping):
            stack.extend((v, [*path, str(k)]) for k, v in node.items())
        elif isinstance(node, (list, tuple)):
            stack.extend((v, [*path, i]) for i, v in enumerate(node))
        elif isinstance(node, bool):
            continue
        elif isinstance(node, int):
            if abs(node) >= _INT_LIMIT:
                raise error(f"{source}: {_where(path)}: integer of more than {MAX_DIGITS} digits")
        elif isinstance(node, float) and not math.isfinite(node):
            raise error(f"{source}: {_where(path)}: number {node} is not finite")


def parse_json(text: str | bytes, source: str, error: InputErrorType = GinspecError) -> Any:
    """One JSON document, bounded; any failure is ``error`` naming ``source``."""
    if len(text) > MAX_BYTES:
        raise error(f"{source}: larger than {MAX_BYTES} bytes")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise error(f"{source}: not UTF-8 text (byte {exc.start})") from None
    try:
        data = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise error(f"{source}: (top level): not JSON (invalid JSON at line {exc.lineno}: "
                    f"{exc.msg})") from None
    except _Refused as exc:
        raise error(f"{source}: {exc}") from None
    except RecursionError:
        raise error(f"{source}: nested more than {MAX_DEPTH} deep") from None
    check_bounds(data, source, error)
    return data


def parse_toml(text: str, source: str, error: InputErrorType = GinspecError) -> dict[str, Any]:
    """One TOML document, bounded like :func:`parse_json` (dates stay dates: parsers check)."""
    if len(text) > MAX_BYTES:
        raise error(f"{source}: larger than {MAX_BYTES} bytes")
    try:
        data = tomllib.loads(text, parse_float=_float)
    except tomllib.TOMLDecodeError as exc:
        raise error(f"{source}: not valid TOML: {exc}") from None
    except _Refused as exc:
        raise error(f"{source}: {exc}") from None
    except RecursionError:
        raise error(f"{source}: nested more than {MAX_DEPTH} deep") from None
    except ValueError as exc:  # an integer beyond Python's digit limit
        raise error(f"{source}: not valid TOML: {exc}") from None
    check_bounds(data, source, error)
    return data


def read_text(path: Path | str, error: InputErrorType = GinspecError,
              stdin: IO[str] | None = None) -> str:
    """A UTF-8 text file of at most :data:`MAX_BYTES` bytes (``-`` reads ``stdin``)."""
    name = str(path)
    try:
        if name == "-":
            text = (stdin or sys.stdin).read(MAX_BYTES + 1)
        else:
            with open(path, "rb") as f:
                raw = f.read(MAX_BYTES + 1)
            if len(raw) > MAX_BYTES:
                raise error(f"{name}: larger than {MAX_BYTES} bytes")
            text = raw.decode("utf-8")
    except OSError as exc:
        raise error(f"{name}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise error(f"{name}: not UTF-8 text (byte {exc.start})") from None
    except ValueError as exc:  # an embedded NUL byte in the path
        raise error(f"{name[:200]!r}: not a file name: {exc}") from None
    if len(text) > MAX_BYTES:
        raise error(f"{name}: larger than {MAX_BYTES} bytes")
    return text


def read_json(path: Path | str, error: InputErrorType = GinspecError,
              stdin: IO[str] | None = None) -> Any:
    """:func:`read_text` then :func:`parse_json`."""
    return parse_json(read_text(path, error, stdin), str(path), error)


def read_toml(path: Path | str, error: InputErrorType = GinspecError) -> dict[str, Any]:
    """:func:`read_text` then :func:`parse_toml`."""
    return parse_toml(read_text(path, error), str(path), error)


def shown_path(path: Path | str, limit: int = 300) -> str:
    """A path for an error message, on one line: quoted with escapes when it holds a control
    character (a newline in a file name), cut in the middle beyond ``limit`` characters."""
    text = str(path)
    if not text.isprintable():
        text = repr(text)
    return text if len(text) <= limit else f"{text[: limit // 2]}...{text[-limit // 3:]}"


def _check_name(text: str, label: str, flag: str, error: InputErrorType) -> None:
    if not text:
        raise error(f"{flag or 'file'}: an empty file name")
    if "\x00" in text:
        raise error(f"{label!r}: not a file name (a NUL byte in it)")
    longest = max((len(os.fsencode(part)) for part in Path(text).parts), default=0)
    if longest > NAME_MAX:
        raise error(f"{label}: a name of {longest} bytes is too long (at most {NAME_MAX})")
    if len(os.fsencode(text)) > PATH_MAX:
        raise error(f"{label}: a path of {len(os.fsencode(text))} bytes is too long (at most {PATH_MAX})")


def check_folder(path: Path | str, error: InputErrorType = GinspecError, flag: str = "") -> Path:
    """A folder a command will write into (made when missing), checked before any work starts:
    usable names (as :func:`check_writable`), not a file, and the nearest folder that exists is
    writable."""
    text = str(path)
    label = f"{flag} {shown_path(text)}" if flag else shown_path(text)
    _check_name(text, label, flag, error)
    target = Path(text)
    try:
        if target.exists() and not target.is_dir():
            raise error(f"{label}: is a file, not a folder")
        existing = target
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        if not existing.is_dir() or not os.access(existing, os.W_OK | os.X_OK):
            raise error(f"{label}: cannot write into {shown_path(existing)}")
    except OSError as exc:
        raise error(f"{label}: cannot write: {exc.strerror or exc}") from None
    return target


def check_writable(path: Path | str, error: InputErrorType = GinspecError, flag: str = "") -> Path:
    """A file a command will write, checked before any work starts: a usable name (no NUL byte,
    no part longer than :data:`NAME_MAX` bytes, at most :data:`PATH_MAX` bytes in all), not a
    folder, in a folder that exists, and writable. Any failure is ``error``, one line naming
    ``flag`` (when given) and the path."""
    text = str(path)
    label = f"{flag} {shown_path(text)}" if flag else shown_path(text)
    _check_name(text, label, flag, error)
    target = Path(text)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        if target.is_dir():
            raise error(f"{label}: is a folder, not a file")
        if not folder.is_dir():
            raise error(f"{label}: folder {shown_path(folder)} does not exist")
        if target.exists():
            if not os.access(target, os.W_OK):
                raise error(f"{label}: the file is not writable")
        elif not os.access(folder, os.W_OK | os.X_OK):
            raise error(f"{label}: cannot write into {shown_path(folder)}")
    except OSError as exc:
        raise error(f"{label}: cannot write: {exc.strerror or exc}") from None
    return target


def compile_schema(schema: Mapping[str, Any]) -> Any:
    """A reusable validator for ``schema`` (JSON Schema 2020-12)."""
    import jsonschema

    return jsonschema.Draft202012Validator(schema)


def schema_errors(data: Any, schema: Mapping[str, Any] | Any) -> list[str]:
    """``field: reason`` for each place ``data`` breaks ``schema`` (a schema, or a validator from
    :func:`compile_schema`), best match first."""
    import jsonschema

    validator = compile_schema(schema) if isinstance(schema, Mapping) else schema
    if validator.is_valid(data):
        return []
    found = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
    best = jsonschema.exceptions.best_match(found)
    ordered = [best, *(e for e in found if e is not best)]
    return [f"{_where(list(e.absolute_path))}: {e.message[:300]}" for e in ordered]


def validate(data: Any, schema: Mapping[str, Any] | Any, source: str,
             error: InputErrorType = GinspecError) -> None:
    """Raise ``error`` naming ``source`` and the first bad field when ``data`` breaks ``schema``."""
    problems = schema_errors(data, schema)
    if problems:
        raise error(f"{source}: {problems[0]}")


@contextlib.contextmanager
def guard(source: str, error: InputErrorType = GinspecError) -> Iterator[None]:
    """Inside, a type or shape the code did not foresee becomes ``error`` naming ``source``.

    A :class:`GinspecError` keeps its type and message (it names the field), with ``source``
    put in front when the message does not start with it."""
    try:
        yield
    except GinspecError as exc:
        if str(exc).startswith(source):
            raise
        try:
            named = type(exc)(f"{source}: {exc}")
        except TypeError:  # a subclass with a constructor of its own
            raise exc from None
        raise named from None
    except (TypeError, AttributeError, KeyError, IndexError, ValueError, OverflowError,
            RecursionError) as exc:
        detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        raise error(f"{source}: malformed ({detail[:200]})") from None
