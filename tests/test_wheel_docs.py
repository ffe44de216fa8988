"""Every command of the README and of docs/conformance/*.md works after ``pip install``
of the built wheel into a fresh venv, run in a folder outside the checkout.

The commands are read from the pages themselves (the README's ``sh`` blocks, the peer pages'
indented and fenced blocks), so a new command is run as soon as it is written. Three things are
not run as written, each for a stated reason: ``pip install`` lines (the wheel under test is
installed in their place: there is no package index here), commands that only make sense in a
checkout (:data:`CHECKOUT_ONLY`), the live differential runs against an engine that is not a
mutant, whose ``--hands`` is capped at :data:`LIVE_HANDS`, and the mutation benchmark, whose
``--sample`` is capped at :data:`MUTANT_SAMPLE` (these counts only scale the time; every other
argument is kept). A command whose adapter is one of the suite's mutants exists to
show a failure: it must exit 1 and explain it (a ``rerun:`` line); every other command exits 0.
"""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs" / "conformance").glob("*.md"))]
LIVE_HANDS = 40
MUTANT_SAMPLE = 2
"""``ginspec bench mutants`` runs this many mutants (and 10 random hands) instead of the page's."""
MUTANT = "ginspec.conformance.mutants:"
"""The adapters of the hand-written mutants (a page runs one to show what a failure looks like)."""
CHECKOUT_ONLY = {
    "tests/run": "runs the checkout's own test suite",
    "conformance/examples/node/adapter.mjs": "names a file of the checkout",
}


def _joined(lines: list[str]) -> list[str]:
    out: list[str] = []
    for line in lines:
        if out and out[-1].endswith("\\"):
            out[-1] = out[-1][:-1].rstrip() + " " + line.strip()
        else:
            out.append(line.strip())
    return out


def page_commands(page: Path) -> list[str]:
    """The shell commands of a page: lines of its sh/console/bash fenced blocks and of its
    indented code blocks, comments removed, continuations joined."""
    lines: list[str] = []
    fence: str | None = None
    for line in page.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fence = None if fence is not None else (line[3:].strip() or "text")
            continue
        if fence is not None:
            if fence in ("sh", "console", "bash", "shell"):
                lines.append(line.removeprefix("$ "))
            continue
        if line.startswith("    ") and line.strip():
            lines.append(line[4:])
    commands = []
    for raw in _joined(lines):
        text = re.sub(r"\s+#.*$", "", raw).strip()
        if text and not text.startswith("#"):
            commands.append(text)
    return [c for c in commands if re.search(r"(^|[ /])(ginspec|python -m ginspec|pip install|tests/run)", c)]


def as_run(command: str) -> tuple[str | None, str]:
    """The command to run in the fresh venv, or None and why it is not run."""
    for needle, why in CHECKOUT_ONLY.items():
        if needle in command:
            return None, why
    if command.startswith("pip install"):
        return None, "the wheel under test is installed instead (no package index here)"
    if ".venv/bin/ginspec" in command:  # the README's one-line install-then-run
        command = command[command.index(".venv/bin/ginspec"):].removeprefix(".venv/bin/")
    command = re.sub(r"\s\[(--[a-z-]+)\]", "", command)  # "[--json]": an optional flag, shown so
    if "--live" in command and MUTANT not in command:
        command = re.sub(r"--hands \d+", f"--hands {LIVE_HANDS}", command)
    if "bench mutants" in command and "--from" not in command:  # minutes as written
        command = re.sub(r"--sample \d+", f"--sample {MUTANT_SAMPLE}", command)
        command = re.sub(r"--hands \d+", "--hands 10", command)
    return command, ""


def test_the_pages_have_commands() -> None:
    found = {p.name: page_commands(p) for p in PAGES}
    assert found["README.md"] and found["openspiel.md"] and found["rlcard.md"], found
    assert any("--expect-fail openspiel" in c for c in found["README.md"])
    assert not any("conformance/expect-fail/" in c or "--suite conformance/" in c
                   for cs in found.values() for c in cs)


@pytest.mark.wheel
def test_documented_commands_work_from_the_wheel(tmp_path: Path) -> None:
    from test_packaging import build_wheel

    wheel = build_wheel(tmp_path)
    env_dir = tmp_path / "fresh"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    bindir = env_dir / "bin"
    subprocess.run([sys.executable, "-m", "pip", "--python", str(bindir / "python"), "install",
                    "--quiet", "--no-deps", "--no-index", str(wheel)], check=True,
                   capture_output=True, timeout=180)
    site = subprocess.run([str(bindir / "python"), "-c",
                           "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          check=True, capture_output=True, text=True).stdout.strip()
    (Path(site) / "_ginspec_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n",
                                                       encoding="utf-8")
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {"PATH": f"{bindir}:/usr/bin:/bin", "HOME": str(tmp_path), "NO_COLOR": "1"}
    ran, not_run = [], []
    for page in PAGES:
        for command in page_commands(page):
            run, why = as_run(command)
            if run is None:
                not_run.append(f"{page.name}: {command} ({why})")
                continue
            words = shlex.split(run)
            if words[0] == "python":
                run = f"{bindir / 'python'} {run[len('python'):]}"
            proc = subprocess.run(["bash", "-c", run], cwd=work, env=env, capture_output=True,
                                  text=True, timeout=900, check=False)
            out = proc.stdout + proc.stderr
            assert "Traceback" not in out, f"{page.name}: {run}\n{out[-3000:]}"
            # a mutant is there to be caught: exit 1 with the explanation; everything else passes
            caught = MUTANT in run
            assert proc.returncode == (1 if caught else 0), \
                f"{page.name}: {run}\nexit {proc.returncode}\n{out[-3000:]}"
            if caught:
                assert "rerun:" in out, out[-3000:]
            ran.append(run)
    assert ran and any("--expect-fail openspiel" in r for r in ran)
    assert any("--expect-fail rlcard" in r for r in ran)
    print("not run as written:", *not_run, sep="\n  ")
