// Allure 3 configuration of the conformance report (rendered by conformance/results/html.py).
// The environment points it at any report directory: ACL_ALLURE_OUTPUT (the report folder),
// ACL_ALLURE_HISTORY (trend file) and ACL_ALLURE_NAME (the title: the run's verdict and counts);
// ACL_ALLURE_LANGUAGE (Allure's own language: en or zh, the kit's --lang) and ACL_ALLURE_CATEGORY_NAMES
// (a JSON object: each category's English name below -> its name in that language, from the kit's
// message catalogue; a name it lacks stays English).
import { defineConfig } from "allure";

const output = process.env.ACL_ALLURE_OUTPUT ?? "reports/allure-report";
const historyPath = process.env.ACL_ALLURE_HISTORY ?? "reports/history.jsonl";
const reportName = process.env.ACL_ALLURE_NAME ?? "ACL host-memory conformance";
const reportLanguage = process.env.ACL_ALLURE_LANGUAGE ?? "en";
const categoryNames = JSON.parse(process.env.ACL_ALLURE_CATEGORY_NAMES ?? "{}");
const byCategory = (category) => ({ labels: { category } });
const named = (category) => ({ ...category, name: categoryNames[category.name] ?? category.name });

export default defineConfig({
  name: reportName,
  output,
  historyPath,
  hideLabels: ["thread", "host", "language", "framework", "package"],
  categories: [
    // Root causes first: a BLOCKED case is grouped under the rule whose promise failed.
    { name: "Blocked by another rule", matchers: byCategory("blocked"), groupBy: [{ label: "blocked_by" }], expand: true },
    { name: "Crash", matchers: byCategory("crash"), groupBy: ["severity"], expand: true },
    { name: "Timeout", matchers: byCategory("timeout"), groupBy: ["severity"], expand: true },
    { name: "Spec violation", matchers: byCategory("spec_violation"), groupBy: ["severity", { label: "feature" }] },
    { name: "Wrong error code", matchers: byCategory("wrong_error_code"), groupBy: ["severity", { label: "feature" }] },
    { name: "Missing function", matchers: byCategory("missing_symbol"), groupBy: [{ label: "feature" }] },
    { name: "Backend leak", matchers: byCategory("leak"), groupBy: ["severity", { label: "feature" }] },
    { name: "Run deadline reached", matchers: byCategory("deadline"), groupBy: [{ label: "feature" }] },
    { name: "Harness instrument failed", matchers: byCategory("instrument"), groupBy: [{ label: "feature" }] },
    { name: "Outcome contradicted by its observations", matchers: byCategory("inconsistent"), groupBy: [{ label: "feature" }] },
    { name: "Harness error", matchers: byCategory("harness_error"), groupBy: ["status"] },
    { name: "Not run", matchers: byCategory("not_run"), groupBy: [{ label: "feature" }] },
    { name: "Waived", matchers: byCategory("waived"), groupBy: [{ label: "feature" }] },
    { name: "Not applicable", matchers: byCategory("not_applicable"), groupBy: [{ label: "feature" }], groupByMessage: true },
  ].map(named),
  plugins: {
    awesome: {
      options: {
        reportName,
        singleFile: true,
        reportLanguage,
        groupBy: ["epic", "feature", "story"],
      },
    },
  },
});
