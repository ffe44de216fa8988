"""JUnit XML: one testsuite per case kind, one testcase per case (name = case ID)."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from ginspec.conformance.escape import xml_text
from ginspec.conformance.runner import RunSummary


def write_junit(path: Path, summary: RunSummary) -> None:
    root = ET.Element("testsuites", name=xml_text(f"ginspec conformance: {summary.hello.name}"))
    suites: dict[str, ET.Element] = {}
    for o in summary.outcomes:
        suite = suites.get(o.case.kind)
        if suite is None:
            suite = suites[o.case.kind] = ET.SubElement(root, "testsuite", name=o.case.kind)
        tc = ET.SubElement(
            suite,
            "testcase",
            classname=f"ginspec.{o.case.kind}",
            name=xml_text(o.case.id),
            time=f"{o.seconds:.6f}",
        )
        detail = xml_text(str(o.mismatch) if o.mismatch else o.message)
        clause = xml_text(f"[{o.culprit}] ") if o.culprit else ""
        if o.status in ("fail", "xpass"):
            el = ET.SubElement(tc, "failure", message=f"{clause}{detail}"[:500])
            el.text = detail
        elif o.status == "error":
            el = ET.SubElement(
                tc, "error", message=detail.splitlines()[0][:500] if detail else ""
            )
            el.text = detail
        elif o.status in ("skip", "xfail", "declined"):
            ET.SubElement(tc, "skipped", message=f"{o.status}: {detail}"[:500])
    for kind, suite in suites.items():
        outs = [o for o in summary.outcomes if o.case.kind == kind]
        suite.set("tests", str(len(outs)))
        suite.set("failures", str(sum(o.status in ("fail", "xpass") for o in outs)))
        suite.set("errors", str(sum(o.status == "error" for o in outs)))
        suite.set("skipped", str(sum(o.status in ("skip", "xfail", "declined") for o in outs)))
    ET.indent(root)
    path.write_text(
        ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n", encoding="utf-8"
    )
