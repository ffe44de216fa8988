"""The built site in a real browser: headless Chromium renders a clause page, a rules chapter with
its examples drawn, a booklet, the casebook, a ruling answered in words, a showdown ruling and a
game-script ruling with card pictures, two score-sheet rulings and a table-game ruling. Screenshots
are written to out/screenshots/ (kept as CI artefacts)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHOTS = ROOT / "out" / "screenshots"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="headless Chromium is not installed (apt-get install chromium; .ci/run does this)"
)


def _chromium(args: list[str], profile: Path) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    return subprocess.run(
        [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _page(site: Path, pattern: str) -> Path:
    found = sorted(site.glob(pattern))
    assert found, f"no page matches {pattern}"
    return found[0]


@pytest.mark.parametrize(
    ("name", "pattern", "must_contain"),
    [
        ("clause-page", "gen/rules/02-melds.html", ['id="MELD.RUN.NO-WRAP"', "Reference code"]),
        ("rules-examples", "gen/rules/04-knock-eligibility.html",
         ['id="example-eligible-discard-from-a-meld"', 'class="gs-card', "Expected:", "spec.eligible-nothing-melds"]),
        ("casebook", "gen/casebook/index.html", ["Casebook of disputed rulings", "C01"]),
        ("ruling", "gen/casebook/C01-*.html", ['class="gs-card', "Rulings by profile (computed)"]),
        ("booklet", "gen/booklets/hoyle.html",
         ["Gin Rummy by Hoyle", "Knocking and gin", 'class="gs-card', "SCORE.GIN"]),
        ("casebook-answer", "gen/casebook/C02-*.html",
         ['class="gs-card', "The answer in words", "Short answer.", "Why.", "LAYOFF.CHAIN"]),
        ("ruling-game", "gen/casebook/C12b-*.html",
         ['class="gs-card', "The position reached", "DISCARD_OF_TAKEN_CARD", "Rulings by profile (computed)"]),
        ("ruling-match", "gen/casebook/C19a-*.html", ["Score sheet under pagat", "365", "385", "530"]),
        ("ruling-three", "gen/casebook/C30-*.html", ["Score sheet under three-player", "sits out"]),
        ("ruling-table", "gen/casebook/C32-*.html", ['class="gs-card', "Seat 2", "TABLE.LAYOFF-ORIGINAL"]),
    ],
)
def test_page_renders_in_chromium(site: Path, tmp_path: Path, name: str, pattern: str, must_contain: list[str]) -> None:
    _render(_page(site, pattern), tmp_path, name, must_contain)


def test_serbian_booklet_renders_in_chromium(site_sr: Path, tmp_path: Path) -> None:
    """The booklet of seed 001's table game, in Serbian (the site built with -D language=sr)."""
    page = _page(site_sr, "gen/booklets/serbian-online-table.html")
    _render(page, tmp_path, "booklet-sr", ["Gin remi kako ga igra srpski sajt", "Kucanje i gin",
                                            'class="gs-card', "TABLE.PENALTY", "normativan"])


def _render(page: Path, tmp_path: Path, name: str, must_contain: list[str]) -> None:
    dom = _chromium(["--dump-dom", page.as_uri()], tmp_path / "dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    for text in must_contain:
        assert text in dom.stdout, f"{name}: rendered DOM lacks {text!r}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / f"{name}.png"
    shot.unlink(missing_ok=True)
    run = _chromium(["--window-size=1200,1400", f"--screenshot={shot}", page.as_uri()], tmp_path / "shot")
    assert run.returncode == 0, run.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000, f"{name}: screenshot is empty"


def test_report_failure_card_renders_in_chromium(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A conformance report's failure card in a real browser: the hand as cards (four tens among
    them), the expected optimal arrangement beside the engine's, the clause text and the rerun
    command. Screenshot: out/screenshots/report-failure.png."""
    import contextlib
    import io

    from ginspec.conformance.cli import main

    monkeypatch.syspath_prepend(str(ROOT / "tests" / "conformance_fakes"))
    page = tmp_path / "report.html"
    case = "q.deadwood.2c3c4c5c8ctc8dtdthts"
    with contextlib.redirect_stdout(io.StringIO()):
        code = main(["conform", "--adapter", "python:misreports:TensHigh", "--cases", case,
                     "--html", str(page), "--no-progress"])
    assert code == 1
    dom = _chromium(["--dump-dom", page.as_uri()], tmp_path / "dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    for text in ("expected (an optimal arrangement)", "engine", "(no melds)", 'title="TH">10♥</span>',
                 f"--cases {case}</pre>", "Rerun just this case"):
        assert text in dom.stdout, f"report: rendered DOM lacks {text!r}"
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / "report-failure.png"
    shot.unlink(missing_ok=True)
    run = _chromium(["--window-size=1200,1100", f"--screenshot={shot}", page.as_uri()], tmp_path / "shot")
    assert run.returncode == 0, run.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000, "report: screenshot is empty"
