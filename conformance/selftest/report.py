"""The self-test's report: Markdown for selftest.md, and the table printed at the end."""

from __future__ import annotations

from ..results.terminal import Style
from .scoring import SelftestJSON


def markdown(result: SelftestJSON) -> str:
    """The self-test result as a Markdown report."""
    score = result["mutation_score"]
    alarms = result["false_alarm_score"]
    precision = result["diagnostic_precision"]
    lines = [
        "# Conformance suite self-test",
        "",
        f"Spec `{result['spec_hash']}` — **{'PASSED' if result['passed'] else 'FAILED'}** — mutation score "
        f"{score['killed']}/{score['total']} ({score['percent']} %) — false alarms {alarms['mandatory_failures']} "
        f"mandatory failure(s) over {alarms['runs']} legal-variant run(s) — collateral mandatory FAILs "
        f"{precision['collateral_mandatory_failures']} over {score['total']} fault(s) — {result['seconds']} s",
        "",
        "## Faithful simulator",
        "",
        "| run | family | kernel | totals | seconds |",
        "| --- | --- | --- | --- | --- |",
    ]
    for run in result["faithful_runs"]:
        totals = ", ".join(f"{k} {v}" for k, v in sorted((run["totals"] or {}).items()) if v)
        lines.append(f"| {run['name']} | {run['family']} | {run['kernel']} | {totals} | {run['seconds']} |")
    lines += ["", f"False alarms and applicability mismatches: {len(result['faithful_problems'])}", ""]
    lines += [f"- {p}" for p in result["faithful_problems"]]
    lines += ["", "## Faults", "", "Collateral rules fail on their own although the fault does not declare them "
              "(one deviation should fail its own rules and BLOCK the rest).", "",
              "| fault | status | rules it breaks | killed by rules | collateral | blocked cases | killing cases |",
              "| --- | --- | --- | --- | --- | --- | --- |"]
    for v in result["faults"]:
        cases = ", ".join(f"`{c}`" for c in v["killing_cases"][:4]) + (" ..." if len(v["killing_cases"]) > 4 else "")
        lines.append(f"| {v['fault']} | {v['status']} | {', '.join(v['violates'])} | "
                     f"{', '.join(v['killing_rules'])} | {', '.join(v.get('collateral_rules', [])) or '-'} | "
                     f"{v.get('blocked_cases', 0)} | {cases} |")
    older = result.get("older_releases") or {"faults": {}, "runs": []}
    lines += ["", "## Faults on older releases", "", "Each fault runs, on its rules there, on the older releases "
              "whose contract of a rule it breaks differs from the newest release's (`selftest --all-releases`: "
              "on every older release whose contract holds such a rule).", "",
              "| release | killed | runs | survivors |", "| --- | --- | --- | --- |"]
    for release, entry in older["faults"].items():
        lines.append(f"| {release} | {entry['killed']} | {entry['total']} | {', '.join(entry['survivors']) or '-'} |")
    lines += ["", "## Legal variants (no mandatory rule may fail)", "",
              "| run | status | non-mandatory rules that deviated | findings | false alarms |",
              "| --- | --- | --- | --- | --- |"]
    for variant in result["legal_variants"]:
        shown = "; ".join(variant["false_alarms"][:3]).replace("|", "\\|")
        lines.append(f"| {variant['run']} | {variant['status']} | {', '.join(variant['deviating_rules']) or '-'} | "
                     f"{variant['findings']} | {shown or '-'} |")
    lines += ["", "## Sequence faults: what the explorer adds", "",
              "| fault | killed by the explorer | killed by the fixed matrix |", "| --- | --- | --- |"]
    for row in result.get("sequence_faults", []):
        lines.append(f"| {row['fault']} | {', '.join(row['explorer_rules']) or 'no'} | "
                     f"{', '.join(row['fixed_matrix_rules']) or 'no'} |")
    lines += ["", "## Rules no switch proves", ""]
    lines += [f"- {r}" for r in result["unproven_rules"]] or ["- none"]
    return "\n".join(lines) + "\n"


def print_table(result: SelftestJSON, style: Style | None = None) -> None:
    """Print fault → killing cases → rules, the score and the unproven rules."""
    width = max((len(v["fault"]) for v in result["faults"]), default=5)
    print(f"\n{'fault':<{width}}  {'status':<10} {'cases':>5}  rules killed (declared)")
    for v in result["faults"]:
        print(f"{v['fault']:<{width}}  {v['status']:<10} {len(v['killing_cases']):>5}  "
              f"{','.join(v['killing_rules']) or '-'} ({','.join(v['violates'])})")
    score = result["mutation_score"]
    alarms = result["false_alarm_score"]
    precision = result["diagnostic_precision"]
    print(f"\nmutation score: {score['killed']}/{score['total']} ({score['percent']} %)")
    older = (result.get("older_releases") or {}).get("faults") or {}
    if older:
        shown = ", ".join(f"{release} {e['killed']}/{e['total']}" for release, e in older.items())
        print(f"on older releases: {shown}")
        for entry in older.values():
            for survivor in entry["survivors"]:
                print(f"  {survivor}: survived")
    print(f"false-alarm score: {alarms['mandatory_failures']} mandatory failure(s) over {alarms['runs']} run(s) of "
          f"{len(alarms['variants'])} legal variant(s) ({alarms['clean_runs']} clean)")
    for variant in result["legal_variants"]:
        for alarm in variant["false_alarms"][:10]:
            print(f"  {variant['run']}: false alarm {alarm}")
    print(f"collateral FAILs: {precision['collateral_mandatory_failures']} mandatory "
          f"({precision['collateral_failures']} in all) over {score['total']} fault(s); "
          f"{precision['blocked_cases']} case(s) BLOCKED by the rule that failed")
    for fault, rules in precision["faults_with_collateral"].items():
        print(f"  {fault}: collateral mandatory FAIL of {', '.join(rules)}")
    print(f"faithful runs: {len(result['faithful_runs'])}, problems: {len(result['faithful_problems'])}")
    for problem in result["faithful_problems"][:50]:
        print(f"  {problem}")
    rows = result.get("sequence_faults", [])
    if rows:
        alone = [row["fault"] for row in rows if not row["fixed_matrix_rules"]]
        print(f"sequence faults: {len(rows)}, killed by the explorer: "
              f"{sum(bool(row['explorer_rules']) for row in rows)}, by the fixed matrix too: "
              f"{len(rows) - len(alone)} (explorer only: {', '.join(alone) or 'none'})")
    print(f"unproven rules: {', '.join(result['unproven_rules']) or 'none'}")
    print(f"self-test {(style or Style()).word('PASSED' if result['passed'] else 'FAILED')} in {result['seconds']} s")
    # One check per fault, per faithful run, per legal-variant run, and one for "every mandatory rule is proven".
    checks = len(result["faults"]) + len(result["faithful_runs"]) + len(result["legal_variants"]) + 1
    failed = (len(result["faults"]) - score["killed"]) + len({p.split(":")[0] for p in result["faithful_problems"]})
    failed += sum(v["status"] != "clean" for v in result["legal_variants"])
    failed += 1 if result["unproven_mandatory_rules"] else 0
    failed += sum(1 for v in result["faults"] if v.get("collateral_mandatory") and v["status"] == "killed")
    older_runs = (result.get("older_releases") or {}).get("runs") or []
    checks += len(older_runs)
    failed += sum(v["status"] != "killed" for v in older_runs)
    print(f"selftest: {checks - failed} passed, {failed} failed")
