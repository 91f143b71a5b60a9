"""The self-test's report: Markdown for selftest.md, and the table printed at the end."""

from __future__ import annotations

from ..i18n import _
from ..results.terminal import Style, pad
from .plan import DRIVER_PINS
from .scoring import SelftestJSON


def markdown(result: SelftestJSON) -> str:
    """The self-test result as a Markdown report, in this process's language (fault, rule and case IDs stay)."""
    score = result["mutation_score"]
    alarms = result["false_alarm_score"]
    precision = result["diagnostic_precision"]
    lines = [
        _("# Conformance suite self-test"),
        "",
        _("Spec `{spec}` — **{result}** — mutation score {killed}/{total} ({percent} %) — false alarms {alarms} "
          "mandatory failure(s) over {runs} legal-variant run(s) — collateral mandatory FAILs {collateral} over "
          "{total} fault(s) — {seconds} s").format(
            spec=result["spec_hash"], result="PASSED" if result["passed"] else "FAILED", killed=score["killed"],
            total=score["total"], percent=score["percent"], alarms=alarms["mandatory_failures"], runs=alarms["runs"],
            collateral=precision["collateral_mandatory_failures"], seconds=result["seconds"]),
        "",
        _("## Faithful simulator"),
        "",
        _("Where the family's driver can pin aclrtHostRegisterV2 PINNED memory itself, each run is made once "
          "per pin register (`ACLSIM_PIN_REGISTER`): on the driver's path a rule below mandatory may deviate."),
        "",
        _("| run | family | kernel | pin register | totals | deviating rules | seconds |"),
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for run in result["faithful_runs"]:
        totals = ", ".join(f"{k} {v}" for k, v in sorted((run["totals"] or {}).items()) if v)
        lines.append(f"| {run['name']} | {run['family']} | {run['kernel']} | {run['pin_register']} | {totals} | "
                     f"{', '.join(run['deviating_rules']) or '-'} | {run['seconds']} |")
    lines += ["", _("False alarms and applicability mismatches: {count}").format(
        count=len(result["faithful_problems"])), ""]
    lines += [f"- {p}" for p in result["faithful_problems"]]
    lines += ["", _("## Faults"), "", _("Collateral rules fail on their own although the fault does not declare them "
                                       "(one deviation should fail its own rules and BLOCK the rest)."), "",
              _("| fault | status | rules it breaks | killed by rules | collateral | blocked cases | killing cases |"),
              "| --- | --- | --- | --- | --- | --- | --- |"]
    for v in result["faults"]:
        cases = ", ".join(f"`{c}`" for c in v["killing_cases"][:4]) + (" ..." if len(v["killing_cases"]) > 4 else "")
        lines.append(f"| {v['fault']} | {v['status']} | {', '.join(v['violates'])} | "
                     f"{', '.join(v['killing_rules'])} | {', '.join(v.get('collateral_rules', [])) or '-'} | "
                     f"{v.get('blocked_cases', 0)} | {cases} |")
    older = result.get("older_releases") or {"faults": {}, "runs": []}
    lines += ["", _("## Faults on older releases"), "", _("Each fault runs, on its rules there, on the older releases "
              "whose contract of a rule it breaks differs from the newest release's (`selftest --all-releases`: "
              "on every older release whose contract holds such a rule)."), "",
              _("| release | killed | runs | survivors |"), "| --- | --- | --- | --- |"]
    for release, entry in older["faults"].items():
        lines.append(f"| {release} | {entry['killed']} | {entry['total']} | {', '.join(entry['survivors']) or '-'} |")
    lines += ["", _("## Legal variants (no mandatory rule may fail)"), "",
              _("| run | pin register | status | non-mandatory rules that deviated | findings | false alarms |"),
              "| --- | --- | --- | --- | --- | --- |"]
    for variant in result["legal_variants"]:
        shown = "; ".join(variant["false_alarms"][:3]).replace("|", "\\|")
        lines.append(f"| {variant['run']} | {variant['pin_register']} | {variant['status']} | "
                     f"{', '.join(variant['deviating_rules']) or '-'} | {variant['findings']} | {shown or '-'} |")
    lines += ["", _("## Sequence faults: what the explorer adds"), "",
              _("| fault | killed by the explorer | killed by the fixed matrix |"), "| --- | --- | --- |"]
    no = _("no")
    for row in result.get("sequence_faults", []):
        lines.append(f"| {row['fault']} | {', '.join(row['explorer_rules']) or no} | "
                     f"{', '.join(row['fixed_matrix_rules']) or no} |")
    lines += ["", _("## Rules no switch proves"), ""]
    lines += [f"- {r}" for r in result["unproven_rules"]] or ["- " + _("none")]
    return "\n".join(lines) + "\n"


def print_table(result: SelftestJSON, style: Style | None = None) -> None:
    """Print fault → killing cases → rules, the score and the unproven rules."""
    width = max((len(v["fault"]) for v in result["faults"]), default=5)
    head = (_("fault"), _("status"), _("cases"), _("rules killed (declared)"))
    print(f"\n{pad(head[0], width)}  {pad(head[1], 10)} {pad(head[2], 5, right=True)}  {head[3]}")
    for v in result["faults"]:
        print(f"{v['fault']:<{width}}  {v['status']:<10} {len(v['killing_cases']):>5}  "
              f"{','.join(v['killing_rules']) or '-'} ({','.join(v['violates'])})")
    score = result["mutation_score"]
    alarms = result["false_alarm_score"]
    precision = result["diagnostic_precision"]
    print("\n" + _("mutation score: {killed}/{total} ({percent} %)").format(
        killed=score["killed"], total=score["total"], percent=score["percent"]))
    older = (result.get("older_releases") or {}).get("faults") or {}
    if older:
        shown = ", ".join(f"{release} {e['killed']}/{e['total']}" for release, e in older.items())
        print(_("on older releases: {releases}").format(releases=shown))
        for entry in older.values():
            for survivor in entry["survivors"]:
                print("  " + _("{fault}: survived").format(fault=survivor))
    print(_("false-alarm score: {failures} mandatory failure(s) over {runs} run(s) of {variants} legal variant(s) "
            "({clean} clean)").format(failures=alarms["mandatory_failures"], runs=alarms["runs"],
                                      variants=len(alarms["variants"]), clean=alarms["clean_runs"]))
    for variant in result["legal_variants"]:
        for alarm in variant["false_alarms"][:10]:
            print("  " + _("{run}: false alarm {alarm}").format(run=variant["run"], alarm=alarm))
    print(_("collateral FAILs: {mandatory} mandatory ({all} in all) over {faults} fault(s); {blocked} case(s) "
            "BLOCKED by the rule that failed").format(
        mandatory=precision["collateral_mandatory_failures"], all=precision["collateral_failures"],
        faults=score["total"], blocked=precision["blocked_cases"]))
    for fault, rules in precision["faults_with_collateral"].items():
        print("  " + _("{fault}: collateral mandatory FAIL of {rules}").format(fault=fault, rules=", ".join(rules)))
    on_driver = sum(run["pin_register"] == DRIVER_PINS for run in result["faithful_runs"])
    on_driver += sum(v["pin_register"] == DRIVER_PINS for v in result["legal_variants"])
    print(_("faithful runs: {runs}, problems: {problems}; faithful and legal runs on the driver's pinning path: "
            "{driver}").format(runs=len(result["faithful_runs"]), problems=len(result["faithful_problems"]),
                               driver=on_driver))
    for problem in result["faithful_problems"][:50]:
        print(f"  {problem}")
    rows = result.get("sequence_faults", [])
    if rows:
        alone = [row["fault"] for row in rows if not row["fixed_matrix_rules"]]
        print(_("sequence faults: {count}, killed by the explorer: {explorer}, by the fixed matrix too: {fixed} "
                "(explorer only: {alone})").format(count=len(rows), explorer=sum(bool(row["explorer_rules"])
                                                                                  for row in rows),
                                                   fixed=len(rows) - len(alone), alone=", ".join(alone) or _("none")))
    print(_("unproven rules: {rules}").format(rules=", ".join(result["unproven_rules"]) or _("none")))
    print(_("self-test {result} in {seconds} s ({cpu} s of CPU)").format(
        result=(style or Style()).word("PASSED" if result["passed"] else "FAILED"), seconds=result["seconds"],
        cpu=result.get("cpu_seconds", "?")))
    # One check per fault, per faithful run, per legal-variant run, and one for "every mandatory rule is proven".
    checks = len(result["faults"]) + len(result["faithful_runs"]) + len(result["legal_variants"]) + 1
    failed = (len(result["faults"]) - score["killed"]) + len({p.split(":")[0] for p in result["faithful_problems"]})
    failed += sum(v["status"] != "clean" for v in result["legal_variants"])
    failed += 1 if result["unproven_mandatory_rules"] else 0
    failed += sum(1 for v in result["faults"] if v.get("collateral_mandatory") and v["status"] == "killed")
    older_runs = (result.get("older_releases") or {}).get("runs") or []
    checks += len(older_runs)
    failed += sum(v["status"] != "killed" for v in older_runs)
    print(_("selftest: {passed} passed, {failed} failed").format(passed=checks - failed, failed=failed))
