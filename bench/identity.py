"""Behaviour identity across a restructuring: the same reports from an earlier commit and from this tree.

Both trees run, against the same simulator build: a faithful run, a fault run and a legal-variant
run (``summary.json`` and ``junit.xml`` of each), a certification (``certificate.md``) and a small
self-test (``selftest.json``). Durations, timestamps, paths, host facts, digests of files that
hold them, the spec hash, the suite version and the step at which the explorer met a fault (which
varies run to run) are blanked; what is left must be byte-identical. Prints one line
per report and a unified diff of any that differ; exit status 1 when one does.

    python bench/identity.py --before d97dc6f
    python bench/identity.py --before 14223f0 --own-sim   # each tree on its own simulator build

``--own-sim`` builds the earlier tree's simulator in its worktree and runs that tree against it, so
that a change to the simulator is shown to be invisible in the reports too.
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
#: The last commit before issue 21's restructuring began.
BEFORE = "d97dc6f"
BASE_ENV = {"ACLSIM_SOC": "Ascend910B1", "ACLSIM_DEVICE_COUNT": "2", "ACL_SYNC_WINDOW": "0.05",
            "ACL_EXPLORE_STEPS": "300"}
RUNS = {"faithful": {}, "fault": {"ACLSIM_FAULTS": "double_free_ok"},
        "legal": {"ACLSIM_FAULTS": "legal_alt_codes"}}
#: Keys whose values are times, places or versions, not behaviour.
BLANK_KEYS = re.compile(r"(duration|seconds|_s$|^at_ms$|^time$|timestamp|_at$|^date$|started|finished|elapsed|"
                        r"^host$|hostname|^pid$|^python|suite_version|spec_hash|^command$|^path$|sha256|^files$)")
#: The same facts where a report prints them as text (JUnit properties, the certificate's header).
BLANK_TEXT = re.compile(r'(name="(?:spec_hash|suite_version)" value=)"[^"]*"|'
                        r"(\*\*(?:Spec hash|Suite version):\*\*) .*")
#: Where the explorer met a fault: with threads in the sequences, the step it meets it at varies from
#: run to run of one tree (its outcome and what it rests on do not).
EXPLORER_FINDING = re.compile(r"after \d+ steps in \d+ sequences.*?(?=\"|</)", re.S)
HEX = re.compile(r"\b[0-9a-f]{32,64}\b")
STAMP = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(\.\d+)?Z?|\d{8}T\d{6}Z|\d+(\.\d+)? ?(s|ms)\b")


def _blank(value: Any, key: str = "") -> Any:
    if BLANK_KEYS.search(key):
        return "<blank>"
    if isinstance(value, dict):
        return {k: _blank(v, k) for k, v in sorted(value.items())}
    if isinstance(value, list):
        return [_blank(v, key) for v in value]
    return value


def normalized(path: Path, places: list[str]) -> str:
    """The report at ``path`` with times, places and digests blanked (JSON re-serialized, sorted)."""
    text = path.read_text(encoding="utf-8")
    for place in sorted(places, key=len, reverse=True):
        text = text.replace(place, "<place>")
    if path.suffix == ".json":
        text = json.dumps(_blank(json.loads(text)), indent=1, sort_keys=True)
    text = re.sub(r'(time|timestamp|hostname)="[^"]*"', r'\1=""', text)
    text = BLANK_TEXT.sub(lambda m: (m.group(1) + '""') if m.group(1) else m.group(2) + " <blank>", text)
    text = EXPLORER_FINDING.sub("after <the explorer's finding>", text)
    text = HEX.sub("<hex>", text)
    return STAMP.sub("<stamp>", text) + "\n"


def _run(tree: Path, args: list[str], env: dict[str, str], log: Path) -> None:
    full = {k: v for k, v in os.environ.items() if not k.startswith(("ACLSIM_", "ACL_"))}
    full.update(env, PYTHONPATH=str(tree))
    with log.open("a", encoding="utf-8") as out:
        subprocess.run([sys.executable, "-m", "conformance", *args], cwd=tree, env=full, stdout=out,
                       stderr=subprocess.STDOUT, check=False)


def reports_of(tree: Path, lib: Path, out: Path) -> dict[str, Path]:
    """Run everything in ``tree``; the report files by name."""
    out.mkdir(parents=True)
    log = out / "log.txt"
    found: dict[str, Path] = {}
    for name, extra in RUNS.items():
        _run(tree, ["run", "--no-html", "-n", "1", "--acl-lib", str(lib), "--acl-report-dir", str(out / name)],
             {**BASE_ENV, **extra}, log)
        found[f"{name}/summary.json"] = out / name / "summary.json"
        found[f"{name}/junit.xml"] = out / name / "junit.xml"
    _run(tree, ["certify", "--no-html", "-n", "1", "--acl-lib", str(lib), "--out-dir", str(out / "cert")],
         BASE_ENV, log)
    certificates = sorted((out / "cert").glob("*/certificate.md"))
    if certificates:
        found["certificate.md"] = certificates[-1]
    _run(tree, ["selftest", "--acl-lib", str(lib), "--out", str(out / "selftest"), "--family", "atlas_a2",
                "--fault", "double_free_ok", "--variant", "legal_alt_codes"], {}, log)
    found["selftest.json"] = out / "selftest" / "selftest.json"
    return found


def main(argv: list[str] | None = None) -> int:
    """Compare the reports of ``--before`` and of this tree."""
    parser = argparse.ArgumentParser(prog="python bench/identity.py", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", default=BEFORE, help=f"the earlier commit (default {BEFORE})")
    parser.add_argument("--acl-lib", type=Path, default=ROOT / "build" / "sim" / "libascendcl.so")
    parser.add_argument("--own-sim", action="store_true",
                        help="run the earlier tree against its own simulator build (built in its worktree)")
    args = parser.parse_args(argv)
    lib = args.acl_lib.resolve()
    with tempfile.TemporaryDirectory() as tmp:
        before_tree = Path(tmp) / "before"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(before_tree), args.before],
                       check=True, capture_output=True)
        try:
            before_lib = lib
            if args.own_sim:
                subprocess.run(["make", "-s", "-C", str(before_tree / "sim")], check=True, capture_output=True)
                before_lib = before_tree / "build" / "sim" / "libascendcl.so"
            before = reports_of(before_tree, before_lib, Path(tmp) / "out-before")
            after = reports_of(ROOT, lib, Path(tmp) / "out-after")
            places = [str(before_lib), str(before_tree), str(ROOT), tmp, str(lib), str(Path(tmp) / "out-before"),
                      str(Path(tmp) / "out-after")]
            differing = 0
            for name in before:
                if not before[name].is_file() or not after.get(name, Path("/nonexistent")).is_file():
                    print(f"{name}: missing ({'before' if not before[name].is_file() else 'after'}); "
                          f"see {Path(tmp)}/out-*/log.txt")
                    differing += 1
                    continue
                old, new = normalized(before[name], places), normalized(after[name], places)
                if old == new:
                    print(f"{name}: identical")
                    continue
                differing += 1
                print(f"{name}: DIFFERS")
                sys.stdout.writelines(difflib.unified_diff(old.splitlines(True), new.splitlines(True),
                                                           f"{args.before}/{name}", f"HEAD/{name}", n=1))
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(before_tree)],
                           check=False, capture_output=True)
    print(f"{len(before) - differing} of {len(before)} reports identical with times, places and digests blanked")
    return 1 if differing else 0


if __name__ == "__main__":
    raise SystemExit(main())
