/**
 * What promtool does not check in deploy/prometheus/: every alert of alerts.yml has a unit test in
 * alerts.test.yml that fires it and one that does not, a `runbook_url` naming a section of
 * docs/operations.md (relative to the repository root) that exists, and an alert on a ratio (an
 * expression with a division) is guarded by a minimum volume (`and` a count). CI runs it beside
 * `promtool test rules`:
 *
 *   npx ts-node --transpile-only scripts/check-alerts.ts
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { anchorsOf } from './check-doc-links';

const ROOT = join(__dirname, '..');
const RUNBOOKS = 'docs/operations.md';

interface RuleFile {
  groups: { rules: { alert?: string; expr: string; annotations?: Record<string, string> }[] }[];
}
interface TestFile {
  tests: { alert_rule_test?: { alertname: string; exp_alerts?: unknown[] }[] }[];
}

export function alertProblems(rules: RuleFile, tests: TestFile, runbooks: string): string[] {
  const anchors = anchorsOf(runbooks);
  const cases = tests.tests.flatMap((t) => t.alert_rule_test ?? []);
  const problems: string[] = [];
  for (const rule of rules.groups.flatMap((g) => g.rules)) {
    if (!rule.alert) continue;
    const own = cases.filter((c) => c.alertname === rule.alert);
    if (!own.some((c) => (c.exp_alerts ?? []).length > 0))
      problems.push(`${rule.alert}: no test in alerts.test.yml that fires it`);
    if (!own.some((c) => (c.exp_alerts ?? []).length === 0))
      problems.push(`${rule.alert}: no test in alerts.test.yml where it stays quiet`);
    const url = rule.annotations?.runbook_url ?? '';
    const [file, anchor] = url.split('#', 2);
    if (file !== RUNBOOKS || !anchor || !anchors.has(anchor))
      problems.push(`${rule.alert}: runbook_url "${url}" does not name a section of ${RUNBOOKS}`);
    if (rule.expr.includes('/') && !/\band\b/.test(rule.expr))
      problems.push(`${rule.alert}: a ratio without a minimum-volume guard (\`and\` a count)`);
  }
  return problems;
}

if (require.main === module) {
  const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
  const problems = alertProblems(
    load(read('deploy/prometheus/alerts.yml')) as RuleFile,
    load(read('deploy/prometheus/alerts.test.yml')) as TestFile,
    read(RUNBOOKS),
  );
  for (const problem of problems) console.error(problem);
  if (problems.length > 0) process.exit(1);
  console.log(
    'alerts: every alert tested both ways, with its runbook section and, for a ratio, a volume guard',
  );
}
