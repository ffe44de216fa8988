"""``ginspec deadwood``: text and JSON output, --knock-limit, --batch, and one-line errors with
exit code 2 (DEADWOOD.MINIMUM, KNOCK.ELIGIBLE, KNOCK.LIMIT, KNOCK.GIN)."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from ginspec.conformance.cli import main

README_HAND = "4C 5C 6C 7C 6D 3H 5H 6H 3S 5S 6S"
TEN_CARDS = "7H 7D 7S 8C 9C TC 2S 3D 4H KD"


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["deadwood", *argv, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    result: dict[str, Any] = json.loads(out)
    return result


def test_ten_card_json(capsys: pytest.CaptureFixture[str]) -> None:
    # Worked by hand: 8C 9C TC and 7D 7H 7S meld; 2S 3D 4H KD = 19 are left.
    result = run_json(capsys, *TEN_CARDS.split())
    assert result["deadwood"] == 19
    assert sorted(map(sorted, result["melds"])) == [["7D", "7H", "7S"], ["8C", "9C", "TC"]]
    assert sorted(result["deadwood_cards"]) == ["2S", "3D", "4H", "KD"]
    assert "best_discards" not in result


def test_eleven_card_json(capsys: pytest.CaptureFixture[str]) -> None:
    # Worked by hand (see test_melds_checks): keep 5C 5H 5S + 6C 6D 6H 6S, discard 7C: 10 left.
    result = run_json(capsys, *README_HAND.split())
    assert result["deadwood"] == 10
    assert result["best_discards"] == ["7C"]
    assert sorted(map(sorted, result["melds"])) == [
        ["5C", "5H", "5S"],
        ["6C", "6D", "6H", "6S"],
    ]
    assert sorted(result["deadwood_cards"]) == ["3H", "3S", "4C"]
    assert result["can_knock"] is True
    assert result["gin"] is False
    assert result["big_gin"] is False


def test_knock_limit(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(capsys, *README_HAND.split(), "--knock-limit", "9")["can_knock"] is False
    assert run_json(capsys, *README_HAND.split(), "--knock-limit", "10")["can_knock"] is True


def test_gin_and_big_gin(capsys: pytest.CaptureFixture[str]) -> None:
    gin = run_json(capsys, *["AC", "2C", "3C", "4D", "4H", "4S", "7H", "8H", "9H", "TH", "KS"])
    assert (gin["deadwood"], gin["gin"], gin["big_gin"]) == (0, True, False)
    assert gin["best_discards"] == ["KS"]
    big = run_json(capsys, *["AC", "2C", "3C", "4D", "4H", "4S", "7H", "8H", "9H", "TH", "JH"])
    assert (big["deadwood"], big["gin"], big["big_gin"]) == (0, True, True)
    assert big["best_discards"] == ["7H", "JH"]


def test_aliases_are_printed_canonically(capsys: pytest.CaptureFixture[str]) -> None:
    result = run_json(capsys, "10s", "j♠", "QS")
    assert result["cards"] == ["TS", "JS", "QS"]
    assert result["melds"] == [["TS", "JS", "QS"]]
    assert result["deadwood"] == 0


def test_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deadwood", *README_HAND.split()]) == 0
    out = capsys.readouterr().out
    assert "discard:   7C" in out
    assert "= 10" in out
    assert "may knock (limit 10)" in out
    assert main(["deadwood", *TEN_CARDS.split()]) == 0
    out = capsys.readouterr().out
    assert "= 19" in out
    assert "8C 9C TC" in out


def test_variant_flags(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_json(capsys, "QS", "KS", "AS")["deadwood"] == 21
    assert run_json(capsys, "QS", "KS", "AS", "--ace-high")["deadwood"] == 0
    assert run_json(capsys, "KS", "AS", "2S", "--wraparound")["deadwood"] == 0
    assert run_json(capsys, "AS", "--ace-value", "15")["deadwood"] == 15


def test_batch_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "hands.txt"
    batch.write_text(f"# two hands\n{TEN_CARDS}\n\n{README_HAND}  # the README hand\n")
    assert main(["deadwood", "--batch", str(batch)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["deadwood"] for line in lines] == [19, 10]


def test_batch_stdin(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{README_HAND}\nQS KS AS\n"))
    assert main(["deadwood", "--batch", "-", "--ace-high"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line)["deadwood"] for line in lines] == [10, 0]


# --- errors: exit 2, one line on stderr naming the problem ----------------------------------


def expect_error(capsys: pytest.CaptureFixture[str], argv: list[str], *names: str) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("ginspec: error: ")
    for name in names:
        assert name in lines[0]


def test_unknown_token(capsys: pytest.CaptureFixture[str]) -> None:
    expect_error(capsys, ["deadwood", "7H", "XS", "9H"], "XS")


def test_duplicate_card(capsys: pytest.CaptureFixture[str]) -> None:
    expect_error(capsys, ["deadwood", "7H", "8H", "7h"], "7h", "7H")


def test_empty_hand(capsys: pytest.CaptureFixture[str]) -> None:
    expect_error(capsys, ["deadwood"], "no cards")
    expect_error(capsys, ["deadwood", "--json"], "no cards")


def test_bad_batch_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    batch = tmp_path / "hands.txt"
    batch.write_text(f"{TEN_CARDS}\n# comment\n7H 8H ZZ\n{README_HAND}\n")
    assert main(["deadwood", "--batch", str(batch)]) == 2
    captured = capsys.readouterr()
    assert len(captured.out.splitlines()) == 1  # the good line before the bad one
    [line] = captured.err.splitlines()
    assert f"{batch}:3" in line
    assert "ZZ" in line


def test_batch_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "nope.txt"
    expect_error(capsys, ["deadwood", "--batch", str(missing)], str(missing))


@pytest.mark.parametrize("limit", ["11", "-1", "ten"])
def test_bad_knock_limit(capsys: pytest.CaptureFixture[str], limit: str) -> None:
    expect_error(capsys, ["deadwood", *README_HAND.split(), "--knock-limit", limit], limit)


# --- the installed console script -----------------------------------------------------------


def console_script() -> str:
    found = shutil.which("ginspec", path=str(Path(sys.executable).parent))
    if found is None:
        pytest.fail("the ginspec console script is not installed next to this Python")
    return found


def test_console_script_json() -> None:
    proc = subprocess.run(
        [console_script(), "deadwood", *README_HAND.split(), "--json"],
        capture_output=True, text=True, check=False, timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["deadwood"] == 10


def test_console_script_error_is_one_line() -> None:
    proc = subprocess.run(
        [console_script(), "deadwood", "7H", "7H"],
        capture_output=True, text=True, check=False, timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    [line] = proc.stderr.splitlines()
    assert line.startswith("ginspec: error: ") and "7H" in line


def test_console_script_batch_stdin() -> None:
    proc = subprocess.run(
        [console_script(), "deadwood", "--batch", "-"],
        input=f"{TEN_CARDS}\n7H 7H\n", capture_output=True, text=True, check=False, timeout=60,
    )
    assert proc.returncode == 2
    assert json.loads(proc.stdout.splitlines()[0])["deadwood"] == 19
    [line] = proc.stderr.splitlines()
    assert "-:2" in line
