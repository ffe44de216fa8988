"""JUnit XML: one testsuite per case kind (per engine and kind when several engines ran), one
testcase per case (name = case ID). A failure's message is its headline and what differed; its
body the whole plain-text report (:func:`ginspec.conformance.reports.explain.plain`): cards,
expected beside actual, the clause text and the command that reruns the case."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Mapping, Sequence
from pathlib import Path

from ginspec.conformance.reports.explain import Rerun, explain, plain
from ginspec.conformance.reports.output import emit
from ginspec.conformance.runner import RunSummary
from ginspec.reference.cli.escape import xml_text


def _message(headline: str, detail: str) -> str:
    return xml_text(f"{headline}: {detail}"[:500] if detail else headline[:500])


def _stop_case(root: ET.Element, prefix: str, summary: RunSummary) -> None:
    """A run cut short (a signal) or refused at hello: a test suite of its own, whose properties
    say so and whose one test case is an error naming the signal and the cases not run (or why
    the adapter was refused), so a CI that reads only JUnit never shows such a run green."""
    suite = ET.SubElement(root, "testsuite", name=xml_text(prefix + "run"), tests="1",
                          failures="0", errors="1", skipped="0")
    props = ET.SubElement(suite, "properties")
    if summary.interrupted:
        ET.SubElement(props, "property", name="interrupted", value=xml_text(summary.interrupted))
        ET.SubElement(props, "property", name="not_run", value=str(summary.not_run))
        name, kind = "interrupted", "interrupted"
    else:
        ET.SubElement(props, "property", name="refused", value=xml_text(summary.refused[:500]))
        name, kind = "hello", "refused"
    tc = ET.SubElement(suite, "testcase", classname="ginspec.run", name=name, time="0")
    el = ET.SubElement(tc, "error", type=kind, message=_message(summary.warning, ""))
    el.text = xml_text(summary.warning)


def write_junit_runs(path: Path | str, runs: Sequence[tuple[Rerun, RunSummary]],
                     reasons: Mapping[str, str] | None = None) -> None:
    names = " / ".join(s.hello.name for _, s in runs)
    root = ET.Element("testsuites", name=xml_text(f"ginspec conformance: {names}"))
    for rerun, summary in runs:
        prefix = f"{summary.hello.name}: " if len(runs) > 1 else ""
        suites: dict[str, ET.Element] = {}
        for o in summary.outcomes:
            suite = suites.get(o.case.kind)
            if suite is None:
                suite = suites[o.case.kind] = ET.SubElement(root, "testsuite",
                                                            name=xml_text(prefix + o.case.kind))
            tc = ET.SubElement(suite, "testcase", classname=f"ginspec.{o.case.kind}",
                               name=xml_text(o.case.id), time=f"{o.seconds:.6f}")
            detail = str(o.mismatch) if o.mismatch else o.message
            if o.status in ("fail", "xpass", "error"):
                f = explain(o, rerun)
                first = detail.splitlines()[0] if detail else ""
                el = ET.SubElement(tc, "error" if o.status == "error" else "failure",
                                   message=_message(f.headline, first))
                el.text = xml_text(plain(f))
            elif o.status == "xfail":
                why = (reasons or {}).get(o.case.id, "")
                ET.SubElement(tc, "skipped", message=xml_text(f"xfail: {why} — {detail}"[:500] if why
                                                              else f"xfail: {detail}"[:500]))
            elif o.status in ("skip", "declined"):
                ET.SubElement(tc, "skipped", message=xml_text(f"{o.status}: {detail}"[:500]))
        if summary.warning:
            _stop_case(root, prefix, summary)
        for kind, suite in suites.items():
            outs = [o for o in summary.outcomes if o.case.kind == kind]
            suite.set("tests", str(len(outs)))
            suite.set("failures", str(sum(o.status in ("fail", "xpass") for o in outs)))
            suite.set("errors", str(sum(o.status == "error" for o in outs)))
            suite.set("skipped", str(sum(o.status in ("skip", "xfail", "declined") for o in outs)))
    ET.indent(root)
    emit(path, ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n")
