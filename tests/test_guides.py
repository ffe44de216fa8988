"""Every command in docs/guides/verify-your-implementation.md runs, in order, with the outcome the
guide describes; the worked adapters pass the suite (or the subset they declare).

The commands are read from the guide's ``console`` blocks (lines starting with ``$ ``), so a
command added to the guide without a check here fails :func:`test_every_guide_command_is_checked`.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from ginspec.conformance.versions import PROTOCOL_VERSION

ROOT = Path(__file__).resolve().parents[1]
GUIDE = ROOT / "docs" / "guides" / "verify-your-implementation.md"

PY = "python:ginspec.conformance.examples.hand_adapter:HandAdapter"
GREEDY = "python:ginspec.conformance.examples.greedy_adapter:GreedyAdapter"
MUTANT = "python:ginspec.conformance.mutants:GinBonusWrong"
HOUSE = "python:ginspec.conformance.examples.house_rules_adapter:HouseRulesAdapter"
NODE = "'cmd:node conformance/examples/node/adapter.mjs'"

Check = Callable[[str, Path], None]


@dataclass(frozen=True)
class Expect:
    """What running one guide command must give: the exit code and a check of its output."""

    code: int
    check: Check | None = None
    needs_node: bool = False
    chain: str = ""
    """Commands with the same chain use each other's files and run in guide order; chains and
    lone commands run side by side."""


def summary(out: str) -> dict[str, int]:
    """The counts of the runner's summary line."""
    line = next(x for x in out.splitlines() if re.match(r"\d+ cases in ", x)).split(";")[0]
    return {name: int(n) for n, name in re.findall(r"(\d+) (passed|failed|adapter errors|skipped)", line)}


def all_pass(out: str, _: Path | None = None) -> None:
    counts = summary(out)
    assert counts["passed"] > 0 and counts["failed"] == 0 and counts["adapter errors"] == 0, counts


def smoke_ok(out: str, _: Path) -> None:
    assert re.search(r"smoke: \d+ checks passed", out), out


def greedy_fails(out: str, tmp: Path) -> None:
    # The trap DEADWOOD.MINIMUM documents: four fives that must be split into two runs.
    assert re.search(r"^FAIL spec\.minimum-four-fives-are-a-trap in the answer \[", out, re.M), out[-3000:]
    assert "rerun: ginspec conform --adapter" in out
    rows = [json.loads(x) for x in (tmp / "report.jsonl").read_text().splitlines()]
    assert rows[0]["type"] == "header" and rows[-1]["type"] == "footer"
    failed = {r["id"] for r in rows if r.get("status") == "fail"}
    assert "spec.minimum-four-fives-are-a-trap" in failed
    # Only minimum-deadwood answers are wrong: the hands still pass.
    assert all(r["kind"] == "query" for r in rows if r.get("status") == "fail")
    page = (tmp / "report.html").read_text(encoding="utf-8")
    assert "spec.minimum-four-fives-are-a-trap" in page and "<html" in page.lower()


def no_divergence(out: str, _: Path) -> None:
    found = re.search(r"^no divergence in (\d+) hand\(s\) of pagat", out, re.M)
    assert found and int(found[1]) >= 20, out  # whole examples: at least the hands asked


def live_case_written(out: str, tmp: Path) -> None:
    written = sorted((tmp / "live").glob("*.json"))
    assert len(written) == 1 and "minimal case" in out, out
    assert json.loads(written[0].read_text())["origin"] == "generated"


def one_case(status: str) -> Check:
    def check(out: str, _: Path) -> None:
        assert re.search(rf"^1 cases in .*: {1 if status == 'passed' else 0} passed, "
                         rf"{1 if status == 'failed' else 0} failed", out, re.MULTILINE), out

    return check


def pytest_items(out: str, _: Path) -> None:
    """One pytest item per spec-example case: some pass, the undeclared ones are skipped."""
    assert re.search(r"\b[1-9]\d* passed, [1-9]\d* skipped\b", out), out[-2000:]
    assert "failed" not in out and "error" not in out


def expect_fail_list(out: str, tmp: Path) -> None:
    lines = (tmp / "expect-fail.txt").read_text().splitlines()
    assert lines and all(re.fullmatch(r"[a-z0-9.-]+\s+# greedy melding", x) for x in lines), lines


def all_expected(out: str, _: Path) -> None:
    assert summary(out)["failed"] == 0
    assert re.search(r"[1-9]\d* expected failures, 0 unexpected passes", out), out


def unexpected_passes(out: str, _: Path) -> None:
    assert re.search(r"[1-9]\d* unexpected passes", out), out


def shards_cover(out: str, tmp: Path) -> None:
    """Both shards together run each case of the full run exactly once."""
    ids = []
    for name in ("shard-1.jsonl", "shard-2.jsonl"):
        rows = [json.loads(x) for x in (tmp / name).read_text().splitlines()]
        ids.append([r["id"] for r in rows if r["type"] == "case"])
    assert ids[0] and ids[1] and not set(ids[0]) & set(ids[1])
    whole = [json.loads(x) for x in (tmp / "report.jsonl").read_text().splitlines()]
    assert sorted(ids[0] + ids[1]) == sorted(r["id"] for r in whole if r["type"] == "case")


def node_deadwood(out: str, _: Path) -> None:
    # DEADWOOD.MINIMUM example minimum-four-fives-are-a-trap: two runs leave 5H 5S = 10.
    reply = json.loads(out)
    assert reply["seq"] == 1 and reply["answer"]["deadwood"] == 10
    assert sorted(map(sorted, reply["answer"]["melds"])) == [["5C", "6C", "7C"], ["5D", "6D", "7D"]]


def node_subset(out: str, _: Path) -> None:
    """The Node engine passes every case it declared (the standard-rules card questions)."""
    all_pass(out)
    for reason in ("profile pagat not declared", "capability query.card not declared"):
        assert reason in out, out


def serve_hello(out: str, _: Path) -> None:
    hello = json.loads(out)
    assert hello["seq"] == 1 and hello["protocol"] == PROTOCOL_VERSION and "warning" not in hello
    assert "pagat" in hello["profiles"]


def pagat_only(out: str, _: Path) -> None:
    """The reference declares every capability but deal.engine (it deals from the deck it is
    sent): it skips the engine-deal checks and nothing else."""
    all_pass(out)
    skipped = summary(out)["skipped"]
    assert skipped > 0 and f"skipped {skipped}: capability deal.engine not declared" in out, out


def derived(out: str, tmp: Path) -> None:
    """The house-rules engine passes every case it runs, committed ones among them, and the
    derived cases the summary counts were written, every one of exactly the house rules."""
    all_pass(out)
    files = sorted((tmp / "house").rglob("*.json"))
    found = re.search(r"; (\d+) of the cases derived for the declared rules \(derived\.\*, (\d+) passed\)", out)
    assert found and int(found.group(1)) == len(files) > 0, out
    assert summary(out)["passed"] > int(found.group(2)), "no committed case was played"
    for f in files:
        case = json.loads(f.read_text(encoding="utf-8"))
        assert case["id"].startswith("derived.")
        assert (case["profile"], case.get("overrides")) == ("wikipedia", {"undercut_bonus": 20})


COMMANDS: dict[str, Expect] = {
    f"ginspec conform --adapter {PY} --smoke": Expect(0, smoke_ok),
    f"ginspec conform --adapter {PY}": Expect(0, all_pass),
    "cp conformance/examples/hand_adapter.py my_adapter.py": Expect(0, chain="copy"),
    "PYTHONPATH=. ginspec conform --adapter python:my_adapter:HandAdapter": Expect(0, all_pass, chain="copy"),
    "echo '{\"seq\": 1, \"cmd\": \"query\", \"what\": \"deadwood\", \"cards\": [\"5C\", \"6C\", \"7C\", "
    "\"5D\", \"6D\", \"7D\", \"5H\", \"5S\"]}' | node conformance/examples/node/adapter.mjs":
        Expect(0, node_deadwood, needs_node=True),
    f"ginspec conform --adapter {NODE} --smoke": Expect(0, smoke_ok, needs_node=True),
    f"ginspec conform --adapter {NODE}": Expect(0, node_subset, needs_node=True),
    "echo '{\"seq\": 1, \"cmd\": \"hello\", \"protocol\": 4}' | ginspec serve": Expect(0, serve_hello),
    "ginspec conform --adapter 'cmd:ginspec serve' --profile pagat": Expect(0, pagat_only),
    f"ginspec conform --adapter {GREEDY} --json report.jsonl --html report.html":
        Expect(1, greedy_fails, chain="report"),
    "python3 -c 'import json, sys; [print(r[\"id\"], \" # greedy melding\") for r in map(json.loads, "
    "open(sys.argv[1])) if r.get(\"status\") == \"fail\"]' report.jsonl > expect-fail.txt":
        Expect(0, expect_fail_list, chain="report"),
    f"ginspec conform --adapter {GREEDY} --expect-fail expect-fail.txt": Expect(0, all_expected, chain="report"),
    f"ginspec conform --adapter {PY} --expect-fail expect-fail.txt": Expect(1, unexpected_passes, chain="report"),
    f"ginspec conform --adapter {PY} --shard 1/2 --json shard-1.jsonl": Expect(0, all_pass, chain="report"),
    f"ginspec conform --adapter {PY} --shard 2/2 --json shard-2.jsonl": Expect(0, shards_cover, chain="report"),
    f"ginspec conform --adapter {HOUSE} --write-derived house": Expect(0, derived),
    f"ginspec conform --live --adapter {PY} --profile pagat --seed 1 --hands 20": Expect(0, no_divergence),
    f"ginspec conform --live --adapter {MUTANT} --profile pagat --seed 1 --hands 20 --out live":
        Expect(1, live_case_written, chain="live"),
    f"ginspec conform --adapter {MUTANT} --suite live": Expect(1, one_case("failed"), chain="live"),
    "ginspec conform --adapter reference --suite live": Expect(0, one_case("passed"), chain="live"),
    f"pytest -q -p no:cacheprovider --ginspec-adapter {PY} --ginspec-cases 'spec.*'":
        Expect(0, pytest_items),
}


def guide_commands() -> list[str]:
    """The ``$ `` lines of the guide's console blocks, in order."""
    commands, inside = [], False
    for line in GUIDE.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```console"
            continue
        if inside and line.startswith("$ "):
            commands.append(line[2:])
    return commands


def test_every_guide_command_is_checked() -> None:
    commands = guide_commands()
    assert commands, "the guide has no commands"
    assert len(commands) == len(set(commands))
    assert set(commands) == set(COMMANDS), {
        "in the guide, not checked": sorted(set(commands) - set(COMMANDS)),
        "checked, not in the guide": sorted(set(COMMANDS) - set(commands)),
    }


def test_guide_commands_in_order(tmp_path: Path) -> None:
    """Run the guide in a scratch folder that sees the repository's examples: each chain of
    dependent commands in guide order, independent chains side by side."""
    (tmp_path / "conformance").symlink_to(ROOT / "conformance")
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "GINSPEC_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("PYTHONPATH", None)
    chains: dict[str, list[str]] = {}
    not_run = []
    for command in guide_commands():
        expect = COMMANDS[command]
        if expect.needs_node and shutil.which("node") is None:
            print(f"skipped (node is not installed): {command}")
            not_run.append(command)
            continue
        chains.setdefault(expect.chain or command, []).append(command)

    def run_chain(commands: list[str]) -> None:
        for command in commands:
            expect = COMMANDS[command]
            proc = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True,
                                  text=True, timeout=300, check=False)
            out = proc.stdout + proc.stderr
            assert proc.returncode == expect.code, f"{command}\nexit {proc.returncode}\n{out[-3000:]}"
            if expect.check is not None:
                expect.check(out, tmp_path)

    with ThreadPoolExecutor(max_workers=3) as pool:
        for future in [pool.submit(run_chain, c) for c in chains.values()]:
            future.result()
    if not_run:  # everything else passed; say loudly what could not be checked here
        pytest.skip(f"node is not installed: {len(not_run)} guide commands not run: {not_run}")


@pytest.mark.parametrize("name", ["hand_adapter.py", "greedy_adapter.py", "node/adapter.mjs"])
def test_example_adapters_are_shown_in_the_guide(name: str) -> None:
    assert f"../../conformance/examples/{name}" in GUIDE.read_text(encoding="utf-8")


RULINGS_GUIDE = ROOT / "docs" / "guides" / "rulings.md"


def test_rulings_guide_runs_a_ruling_against_an_engine(tmp_path: Path) -> None:
    """The rulings guide's console commands, in order, in a scratch folder: each exits 0, the
    conform runs pass the template's expectations as cases ruling.<id>.<n>."""
    commands, inside = [], False
    for line in RULINGS_GUIDE.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            inside = line.strip() == "```console"
        elif inside and line.startswith("$ "):
            commands.append(line[2:])
    assert any("conform" in c and "--suite mine.toml" in c for c in commands), commands
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    outs = []
    for command in commands:
        proc = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True,
                              text=True, timeout=300, check=False)
        assert proc.returncode == 0, f"{command}\nexit {proc.returncode}\n{proc.stdout[-3000:]}{proc.stderr}"
        outs.append(proc.stdout + proc.stderr)
    first = next(o for c, o in zip(commands, outs, strict=True) if c.endswith("--suite mine.toml"))
    assert summary(first) == {"passed": 2, "failed": 0, "adapter errors": 0, "skipped": 0}
    rows = [json.loads(x) for x in (tmp_path / "rulings.jsonl").read_text().splitlines()]
    ids = {r["id"] for r in rows if r["type"] == "case"}
    assert {"ruling.my-knock-with-ten.1", "ruling.my-knock-with-ten.2"} <= ids
    assert any(i.startswith("ruling.my-taken-card.") for i in ids)
    assert all(r["status"] == "pass" for r in rows if r["type"] == "case")
