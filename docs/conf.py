"""Sphinx configuration for the ginspec documentation site.

The rules chapters, the profile matrix, the code pages, the casebook and the CLI reference are
generated at build time from the installed package (see _ext/ginspec_docs.py) into _generated/;
nothing there is committed or typed by hand.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent / "_ext"))

project = "ginspec"
author = "the ginspec developers"
copyright = "2026, the ginspec developers"
extensions = ["myst_parser", "ginspec_docs", "ginspec_docs_schema", "ginspec_clauses"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
source_suffix = {".md": "markdown"}
html_theme = "furo"
html_title = "ginspec — the rules of Gin Rummy"
html_static_path = ["_static"]
html_css_files = ["cards.css", "print.css"]
exclude_patterns = ["_build", "README.md"]
suppress_warnings = ["myst.header"]
# Quotes and ellipses only: docutils' default also turns "--" into an en dash, which printed every
# "--set" written in prose with an en dash and made copied commands fail (tests/test_docs_commands.py).
smartquotes_action = "qe"

# Translations (docs/locale/LANG/LC_MESSAGES/gen.po): the booklets of the seed systems in the seeds'
# languages. Build one language with `python -m sphinx -b html -D language=sr docs OUT` (ro, fr, sq).
locale_dirs = ["locale"]
gettext_compact = True
gettext_uuid = False
gettext_location = False
