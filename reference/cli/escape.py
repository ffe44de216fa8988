"""Engine strings are data: the escaping every report applies to text it did not write.

An adapter's name, version, replies, error text and stderr, and a case file's ID, description and
values, reach the terminal (rich markup), the HTML page, the JUnit XML and the JSON-lines report.
None of them may be read as markup, break the file format or drive the terminal. Each function here
turns any Python value into text that is inert in one output format:

* :func:`printable` — control characters, ANSI escape sequences and unpaired surrogates written
  visibly (``\\x1b[31m``), tabs and newlines kept: safe to print to a terminal;
* :func:`markup` — :func:`printable`, then rich markup escaped (``[/]`` prints as ``[/]``);
* :func:`html_text` — :func:`printable`, then ``& < > " '`` as HTML entities;
* :func:`xml_text` — :func:`printable` (which also removes every character XML 1.0 forbids);
  the XML writer escapes ``& < >`` and quotes itself;
* :func:`markdown_text` — one Markdown table cell: HTML entities, Markdown punctuation
  backslash-escaped, newlines as ``<br>``;
* :func:`json_line` — one JSON value on one line, never ``NaN`` or ``Infinity`` (a non-finite
  number is written as the string ``"NaN"``, ``"Infinity"`` or ``"-Infinity"``).
"""

from __future__ import annotations

import html
import json
import math
import re
from typing import Any, Final

_UNPRINTABLE: Final = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\ufffe\uffff\ud800-\udfff]"
)


def _visible(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def printable(value: object) -> str:
    """``value`` as text with every control character shown as an escape (tab and newline kept).

    ANSI sequences become visible text too (``\\x1b[31m``), so a report never changes colour, moves
    the cursor or sets the terminal title because of what an engine printed."""
    text = value if isinstance(value, str) else str(value)
    return _UNPRINTABLE.sub(lambda m: _visible(m.group()), text)


def markup(value: object) -> str:
    """Text for a rich markup string: ``f"[bold]{markup(name)}[/bold]"`` prints ``name`` as is."""
    from rich.markup import escape

    text = escape(printable(value))
    # rich.markup.escape leaves a final backslash, which would escape the closing tag after it
    return text + "\\" if text.endswith("\\") and not text.endswith("\\\\") else text


def html_text(value: object) -> str:
    """Text for HTML element content or a quoted attribute value."""
    return html.escape(printable(value), quote=True)


def xml_text(value: object) -> str:
    """Text an XML writer (``xml.etree``) can put in an element or attribute: no character
    XML 1.0 forbids, nothing that drives a terminal (the writer escapes ``& < >`` itself, so
    ``]]>`` and ``<script>`` stay text)."""
    return printable(value)


_MARKDOWN_PUNCT: Final = re.compile(r"([\\`*_{}\[\]()#+\-.!|~>])")


def markdown_text(value: object) -> str:
    """Text for one Markdown (CommonMark or GitHub table) cell: no emphasis, link, code span,
    HTML tag or column break comes from ``value``."""
    text = html.escape(printable(value), quote=False).replace("&gt;", ">")
    return _MARKDOWN_PUNCT.sub(r"\\\1", text).replace("\r", "").replace("\n", "<br>")


def finite(value: Any) -> Any:
    """``value`` with every non-finite float replaced by its name (JSON has no NaN)."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {str(k): finite(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [finite(v) for v in value]
    return value


def json_line(value: Any) -> str:
    """One line of strict JSON (RFC 8259: no NaN or Infinity); other objects via ``str``."""
    return json.dumps(finite(value), default=str, allow_nan=False)
