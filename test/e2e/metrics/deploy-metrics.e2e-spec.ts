import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { createTestApp, type TestContext } from '../../utils/create-test-app';

const ADMIN = process.env.ADMIN_API_KEY!;
const DEPLOY = join(__dirname, '..', '..', '..', 'deploy');
const DASHBOARD = join(DEPLOY, 'grafana/dashboards/voice-assistant-config.json');
const RULES = join(DEPLOY, 'prometheus/alerts.yml');

/** Series Prometheus itself writes for every target; no application exports them. */
const PROMETHEUS_SERIES = new Set(['up']);

const PROMQL_WORDS = new Set([
  'sum',
  'min',
  'max',
  'avg',
  'count',
  'stddev',
  'stdvar',
  'topk',
  'bottomk',
  'quantile',
  'count_values',
  'group',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'and',
  'or',
  'unless',
  'bool',
  'offset',
  'inf',
  'nan',
]);

/**
 * The metric names a PromQL expression reads: what is left once strings, label matchers, range
 * selectors, grouping clauses, function calls and keywords are taken out.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/[A-Za-z_:][A-Za-z0-9_:]*(?=\s*(\()?)/g)) {
    const [word, call] = [match[0], match[1]];
    if (call || PROMQL_WORDS.has(word.toLowerCase())) continue;
    if (/^\d/.test(word)) continue;
    names.add(word);
  }
  return [...names];
}

interface Dashboard {
  panels: { title: string; targets?: { expr: string }[] }[];
}
interface RuleFile {
  groups: { rules: { alert?: string; record?: string; expr: string }[] }[];
}

/** Every PromQL expression of the dashboard and the alert rules, with where it is. */
function expressions(dashboard: Dashboard, rules: RuleFile): { where: string; expr: string }[] {
  return [
    ...dashboard.panels.flatMap((panel) =>
      (panel.targets ?? []).map((t) => ({ where: `panel "${panel.title}"`, expr: t.expr })),
    ),
    ...rules.groups.flatMap((group) =>
      group.rules.map((rule) => ({ where: `rule ${rule.alert ?? rule.record}`, expr: rule.expr })),
    ),
  ];
}

/** The sample names `/metrics` declares (`# TYPE`), histogram and summary series included. */
function exportedNames(text: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of text.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name);
    if (type === 'histogram') for (const s of ['_bucket', '_count', '_sum']) names.add(name + s);
    if (type === 'summary') for (const s of ['_count', '_sum']) names.add(name + s);
  }
  return names;
}

function missing(exprs: { where: string; expr: string }[], exported: Set<string>): string[] {
  return exprs.flatMap(({ where, expr }) =>
    metricNames(expr)
      .filter((name) => !exported.has(name) && !PROMETHEUS_SERIES.has(name))
      .map((name) => `${where}: ${name}`),
  );
}

describe('deploy/: Grafana dashboard and Prometheus rules', () => {
  let ctx: TestContext;
  let exported: Set<string>;
  const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as Dashboard;
  const rules = load(readFileSync(RULES, 'utf8')) as RuleFile;

  beforeAll(async () => {
    ctx = await createTestApp();
    const res = await ctx
      .http()
      .get('/metrics')
      .set('Authorization', `Bearer ${ADMIN}`)
      .expect(200);
    exported = exportedNames(res.text);
  });
  afterAll(() => ctx.close());

  it('reads metric names out of PromQL', () => {
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le, route) (rate(http_request_duration_seconds_bucket{route=~"/a.*"}[5m]))) / on(job) up',
      ).sort(),
    ).toEqual(['http_request_duration_seconds_bucket', 'up']);
  });

  it('uses only metrics that GET /metrics exports', () => {
    const exprs = expressions(dashboard, rules);
    expect(exprs.length).toBeGreaterThan(10);
    expect(missing(exprs, exported)).toEqual([]);
  });

  it('charts and alerts on lookups by error class, webhook latency and readiness', () => {
    const exprs = expressions(dashboard, rules).map((e) => e.expr);
    const used = new Set(exprs.flatMap(metricNames));
    for (const name of [
      'webhook_request_duration_seconds_bucket',
      'health_ready',
      'health_dependency_up',
    ])
      expect(used).toContain(name);
    expect(exprs.some((e) => /by \([^)]*error_class/.test(e))).toBe(true);
    for (const name of ['health_ready', 'health_dependency_up', 'webhook_request_duration_seconds'])
      expect(exported).toContain(name);
  });

  it('would name a panel that reads a metric the service does not export', () => {
    const broken: Dashboard = {
      panels: [
        ...dashboard.panels,
        {
          title: 'Lookups by error class',
          targets: [{ expr: 'sum by (error_class) (rate(lookup_errors_total[5m]))' }],
        },
      ],
    };
    expect(missing(expressions(broken, rules), exported)).toEqual([
      'panel "Lookups by error class": lookup_errors_total',
    ]);
  });
});
