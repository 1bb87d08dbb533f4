import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { buildTestApp, freePort, policyFile, type TestApp } from './helpers.js';
import { promtool as runPromtool } from './promtool.js';

/**
 * The operator's kit in deploy/: the alert rules and the Prometheus configuration pass
 * promtool, and every PromQL expression of the Grafana dashboard, the alerts and the
 * autoscalers names only metrics and labels a real hub exports, so none can drift from
 * src/metrics.ts unnoticed.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');

function promtool(...args: string[]): { status: number | null; out: string } {
  const r = runPromtool(args);
  return { status: r.status, out: r.stdout + r.stderr };
}

interface Rule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}
const alertRules = (): Rule[] =>
  (parse(read('deploy/prometheus/alerts.yml')) as { groups: { rules: Rule[] }[] }).groups.flatMap(
    (g) => g.rules,
  );

/** The anchors of a Markdown file's headings, as GitHub makes them (no repeats expected here). */
const headingAnchors = (markdown: string) =>
  new Set(
    [...markdown.matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );

describe('Prometheus rules and configuration (promtool)', () => {
  it('alerts.yml passes promtool check rules', () => {
    const r = promtool('check', 'rules', 'deploy/prometheus/alerts.yml');
    expect(r.out).toContain('SUCCESS');
    expect(r.status, r.out).toBe(0);
  });

  it('alerts.test.yml passes promtool test rules, and tests every alert both firing and silent', () => {
    const r = promtool('test', 'rules', 'deploy/prometheus/alerts.test.yml');
    expect(r.status, r.out).toBe(0);
    const tests = (
      parse(read('deploy/prometheus/alerts.test.yml')) as {
        tests: { alert_rule_test: { alertname: string; exp_alerts?: unknown[] }[] }[];
      }
    ).tests.flatMap((t) => t.alert_rule_test);
    for (const { alert } of alertRules()) {
      const cases = tests.filter((t) => t.alertname === alert);
      expect(
        cases.some((c) => (c.exp_alerts ?? []).length > 0),
        `${alert}: no case where it fires`,
      ).toBe(true);
      expect(
        cases.some((c) => (c.exp_alerts ?? []).length === 0),
        `${alert}: no case where it stays silent`,
      ).toBe(true);
    }
  });

  it('prometheus.yml passes promtool check config and loads the rules', () => {
    const r = promtool('check', 'config', 'deploy/prometheus/prometheus.yml');
    expect(r.status, r.out).toBe(0);
    expect(r.out).toMatch(/SUCCESS: 1 rule files found/);
  });

  it('every alert has a for, a severity, a summary, a description and a runbook section', () => {
    const anchors = headingAnchors(read('docs/operations.md'));
    const rules = alertRules();
    expect(rules.length).toBeGreaterThanOrEqual(6);
    for (const rule of rules) {
      expect(rule.for, rule.alert).toMatch(/^\d+[smh]$/);
      expect(['warning', 'critical'], rule.alert).toContain(rule.labels?.severity);
      expect(rule.annotations?.summary, rule.alert).toBeTruthy();
      expect(rule.annotations?.description, rule.alert).toBeTruthy();
      const [file, anchor] = (rule.annotations?.runbook ?? '').split('#');
      expect(file, rule.alert).toBe('docs/operations.md');
      expect(anchors.has(anchor ?? ''), `${rule.alert}: no heading #${anchor} in docs/operations.md`).toBe(
        true,
      );
    }
  });
});

const PROMQL_KEYWORDS = new Set([
  'and',
  'or',
  'unless',
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'offset',
  'bool',
  'inf',
  'nan',
]);

/**
 * The metric names and label names a PromQL expression refers to. Strings, label matchers
 * ({...}: their label names are kept), grouping clauses (by, on, ...: their labels are kept),
 * ranges and offsets are cut out first; what is left that looks like a name and is not
 * called (a function or an aggregation) nor a keyword is a metric name.
 */
function promqlRefs(expr: string): { metrics: string[]; labels: string[] } {
  const labels = new Set<string>();
  let e = expr.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`[^`]*`/g, '""');
  e = e.replace(/\{([^}]*)\}/g, (_, body: string) => {
    for (const m of body.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(?:=~|!~|!=|=)/g)) labels.add(m[1]!);
    return ' ';
  });
  e = e.replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\(([^)]*)\)/g, (_, list: string) => {
    for (const label of list.split(',')) if (label.trim()) labels.add(label.trim());
    return ' ';
  });
  e = e.replace(/\[[^\]]*\]/g, ' ').replace(/\boffset\s+-?\w+/g, ' ');
  const metrics = new Set<string>();
  for (const m of e.matchAll(/(?<![\w.:$])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) {
    if (!m[2] && !PROMQL_KEYWORDS.has(m[1]!.toLowerCase())) metrics.add(m[1]!);
  }
  return { metrics: [...metrics], labels: [...labels] };
}

/** Grafana's variables, replaced so that the expression is plain PromQL. */
const grafanaToPromql = (expr: string) =>
  expr.replace(/\$__(rate_)?interval|\$__range/g, '1m').replace(/\$\{?(instance|tool)\}?/g, '.*');

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { h: number; w: number; x: number; y: number };
  datasource?: { type: string; uid: string };
  targets?: { refId: string; expr: string; datasource?: { uid: string } }[];
  panels?: Panel[];
}
interface Dashboard {
  uid: string;
  panels: Panel[];
  templating: { list: { name: string; type: string; query: unknown; definition?: string }[] };
}
const dashboard = (): Dashboard => JSON.parse(read('deploy/grafana/dashboards/tool-hub.json'));
const allPanels = (d: Dashboard) => d.panels.flatMap((p) => [p, ...(p.panels ?? [])]);

/** Every PromQL expression of deploy/, with where it is and the target labels it may use. */
function expressions(): { where: string; expr: string; targetLabels: string[] }[] {
  const out: { where: string; expr: string; targetLabels: string[] }[] = [];
  const hub = ['job', 'instance'];
  const pod = [...hub, 'namespace', 'pod'];
  const d = dashboard();
  for (const p of allPanels(d)) {
    for (const t of p.targets ?? []) {
      out.push({
        where: `panel ${p.id} "${p.title}" ${t.refId}`,
        expr: grafanaToPromql(t.expr),
        targetLabels: hub,
      });
    }
  }
  for (const v of d.templating.list) {
    if (v.type !== 'query') continue;
    const m = /^label_values\((.+),\s*(\w+)\)$/.exec(v.definition ?? '');
    expect(m, `variable ${v.name}: label_values(expr, label) expected`).toBeTruthy();
    // `expr and on() label` has no meaning; `sum by (label) (expr)` checks the label too.
    out.push({
      where: `variable ${v.name}`,
      expr: `sum by (${m![2]}) (${grafanaToPromql(m![1]!)})`,
      targetLabels: hub,
    });
  }
  for (const rule of alertRules())
    out.push({ where: `alert ${rule.alert}`, expr: rule.expr, targetLabels: hub });
  const hpa = parse(read('deploy/kubernetes/hpa.yaml')) as {
    spec: { metrics: { type: string; pods?: { metric: { name: string } } }[] };
  };
  for (const m of hpa.spec.metrics) {
    if (m.pods) out.push({ where: 'hpa.yaml', expr: m.pods.metric.name, targetLabels: pod });
  }
  const keda = parse(read('deploy/kubernetes/optional/keda-scaledobject.yaml')) as {
    spec: { triggers: { type: string; metadata: { query: string } }[] };
  };
  for (const t of keda.spec.triggers) {
    out.push({ where: 'keda-scaledobject.yaml', expr: t.metadata.query, targetLabels: pod });
  }
  const adapter = parse(read('deploy/kubernetes/optional/prometheus-adapter-values.yaml')) as {
    rules: { custom: { seriesQuery: string; metricsQuery: string }[] };
  };
  for (const r of adapter.rules.custom) {
    out.push({ where: 'adapter seriesQuery', expr: r.seriesQuery, targetLabels: pod });
    const series = promqlRefs(r.seriesQuery).metrics[0]!;
    const metricsQuery = r.metricsQuery
      .replaceAll('<<.Series>>', series)
      .replaceAll('<<.LabelMatchers>>', 'namespace="tool-hub"')
      .replaceAll('<<.GroupBy>>', 'pod');
    out.push({ where: 'adapter metricsQuery', expr: metricsQuery, targetLabels: pod });
  }
  return out;
}

describe('the PromQL parser of these tests', () => {
  it('finds the metrics and labels, and skips functions, keywords, strings and ranges', () => {
    const refs = promqlRefs(
      'histogram_quantile(0.95, sum by (tool, le) (rate(foo_bucket{a="x{y}", b=~"$v"}[5m] offset 1h))) ' +
        '/ on (job) group_left () bar_total > 1e3 and absent(up{job="j"}) or vector(0) unless sum(baz) without (c)',
    );
    expect(refs.metrics.sort()).toEqual(['bar_total', 'baz', 'foo_bucket', 'up']);
    expect(refs.labels.sort()).toEqual(['a', 'b', 'c', 'job', 'le', 'tool']);
  });
});

describe('the dashboard, the alerts and the autoscalers name only what the hub exports', () => {
  let app: TestApp;
  let scrape = '';
  /** Every series name Prometheus stores for the scrape, with the labels seen on it. */
  const exported = new Map<string, Set<string>>();
  /** The metric families and their types (a histogram foo is stored as foo_bucket, foo_sum, foo_count). */
  const families = new Map<string, string>();

  beforeAll(async () => {
    // A Redis that is not there: the limiter falls back to its insurance store, so the
    // fallback counter and the degraded gauge have series; a limit of one run refuses the second;
    // the validator's result is cached, so its second run is a hit (the result cache's series).
    const policy = await policyFile({
      tools: {
        'token-counter': { limit: 1, burst: 0 },
        'structured-output-validator': { cacheTtlSec: 60 },
        'cron-expression': { quota: { runsPerDay: 1 } },
      },
    });
    app = await buildTestApp(
      {
        REDIS_URL: `redis://127.0.0.1:${await freePort()}`,
        REDIS_COMMAND_TIMEOUT_MS: '50',
        POLICY_FILE: policy,
      },
      true,
    );
    const ok = await app.inject({ url: '/api/tools/run/?toolId=token-counter&a=hello&b=gpt-4o' });
    expect(ok.statusCode, ok.body).toBe(200);
    const refused = await app.inject({ url: '/api/tools/run/?toolId=token-counter&a=again&b=gpt-4o' });
    expect(refused.statusCode, refused.body).toBe(429);
    // A quota of one run a day: the first run is admitted (the used-ratio gauge), the second refused.
    for (const status of [200, 429]) {
      const r = await app.inject({
        url: '/api/tools/run/?toolId=cron-expression&a=*/5%20*%20*%20*%20*&mode=parse',
      });
      expect(r.statusCode, r.body).toBe(status);
    }
    for (const cached of [undefined, true]) {
      const dedicated = await app.inject({
        method: 'POST',
        url: '/api/schema-validator/',
        payload: { schema: { type: 'object' }, target: {} },
      });
      expect(dedicated.statusCode, dedicated.body).toBe(200);
      expect(dedicated.json().runtime.cached).toBe(cached);
    }
    scrape = (await app.inject({ url: '/metrics' })).body;
    // The GC histogram has series (and its `kind` label) only once a collection was observed,
    // which a short test may not have seen yet (it happened on a CI run under Node 24): make
    // short-lived garbage until one shows, a bounded number of times.
    for (let i = 0; i < 100 && !/^nodejs_gc_duration_seconds_count\{/m.test(scrape); i++) {
      const junk: object[] = [];
      for (let j = 0; j < 100_000; j++) junk.push({ j });
      await new Promise((resolve) => setTimeout(resolve, 10));
      scrape = (await app.inject({ url: '/metrics' })).body;
    }
    for (const [, name, type] of scrape.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      families.set(name!, type!);
      const names = type === 'histogram' || type === 'summary' ? ['_bucket', '_sum', '_count', ''] : [''];
      for (const suffix of names) {
        if (type === 'summary' && suffix === '_bucket') continue;
        if (type === 'histogram' && suffix === '') continue;
        exported.set(name + suffix, new Set());
      }
    }
    for (const [, name, body] of scrape.matchAll(/^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? \S+$/gm)) {
      const labels = exported.get(name!);
      expect(labels, `${name} has samples but no TYPE line`).toBeDefined();
      for (const [, label] of (body ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="/g)) labels!.add(label!);
    }
    // Made by Prometheus for every target, not by the hub.
    exported.set('up', new Set());
  }, 90_000);

  afterAll(async () => {
    await app?.close();
  });

  it('the scrape has the labelled series the checks need', () => {
    expect(scrape).toMatch(/^toolhub_runs_total\{[^}]*outcome="ok"/m);
    expect(scrape).toMatch(/^toolhub_runs_total\{[^}]*outcome="RATE_LIMITED"/m);
    expect(scrape).toMatch(/^toolhub_limiter_fallbacks_total\{reason="/m);
    expect(scrape).toMatch(/^toolhub_limiter_store_degraded 1$/m);
  });

  it('every expression is valid PromQL (promtool check rules on a rule file made of them)', () => {
    const exprs = expressions();
    const dir = mkdtempSync(join(tmpdir(), 'toolhub-promql-'));
    try {
      const rules = exprs.map((e, i) => ({ record: `deploy_expr_${i}`, expr: e.expr }));
      writeFileSync(join(dir, 'exprs.yml'), JSON.stringify({ groups: [{ name: 'deploy', rules }] }));
      const r = promtool('check', 'rules', join(dir, 'exprs.yml'));
      const bad = [...r.out.matchAll(/deploy_expr_(\d+)/g)].map((m) => exprs[Number(m[1])]!.where);
      expect(r.status, `${r.out}\n${bad.join('\n')}`).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every metric and label named in the panels, the variables, the alerts and the autoscalers is on /metrics', () => {
    const problems: string[] = [];
    const exprs = expressions();
    expect(exprs.length).toBeGreaterThan(40);
    for (const { where, expr, targetLabels } of exprs) {
      const refs = promqlRefs(expr);
      expect(refs.metrics.length, `${where}: no metric in ${expr}`).toBeGreaterThan(0);
      const known = new Set(targetLabels);
      for (const metric of refs.metrics) {
        const labels = exported.get(metric);
        if (!labels) problems.push(`${where}: no metric ${metric} on /metrics`);
        for (const label of labels ?? []) known.add(label);
      }
      for (const label of refs.labels) {
        if (!known.has(label)) problems.push(`${where}: no label ${label} on ${refs.metrics.join(', ')}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('every toolhub_* metric the hub exports has a panel', () => {
    const used = new Set(
      allPanels(dashboard()).flatMap((p) =>
        (p.targets ?? []).flatMap((t) => promqlRefs(grafanaToPromql(t.expr)).metrics),
      ),
    );
    const missing = [...families.keys()].filter(
      (f) => f.startsWith('toolhub_') && !['', '_bucket', '_sum', '_count'].some((s) => used.has(f + s)),
    );
    expect(missing, 'metrics without a panel in deploy/grafana/dashboards/tool-hub.json').toEqual([]);
  });
});

describe('the Grafana dashboard and its provisioning', () => {
  it('is well-formed: unique ids, panels on the 24-column grid without overlap, each on the data source variable', () => {
    const d = dashboard();
    expect(d.uid).toBe('tool-hub');
    const panels = allPanels(d);
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    const cells = new Map<string, string>();
    for (const p of panels) {
      const { x, y, w, h } = p.gridPos;
      expect(x + w, p.title).toBeLessThanOrEqual(24);
      for (let i = x; i < x + w; i++) {
        for (let j = y; j < y + h; j++) {
          expect(cells.get(`${i},${j}`), `${p.title} overlaps`).toBeUndefined();
          cells.set(`${i},${j}`, p.title);
        }
      }
      if (p.type === 'row') continue;
      expect(p.datasource?.uid, p.title).toBe(`\${datasource}`);
      expect(p.targets?.length, `${p.title}: no query`).toBeGreaterThan(0);
      for (const t of p.targets ?? []) expect(t.expr.trim(), p.title).not.toBe('');
    }
    const titles = panels.map((p) => p.title).join('\n');
    for (const needed of [
      'Runs by tool and outcome',
      'HTTP latency',
      'Queue wait',
      'Workers',
      'Event-loop lag',
      'Memory',
    ]) {
      expect(titles).toContain(needed);
    }
  });

  it('compose provisions the data source and the dashboard where Grafana looks for them', () => {
    const compose = parse(read('docker-compose.yml')) as {
      services: Record<string, { image?: string; volumes?: string[]; ports?: string[] }>;
    };
    const grafana = compose.services.grafana!;
    expect(grafana.image).toMatch(/^grafana\/grafana-oss:\d+\.\d+\.\d+$/);
    const mounts = new Map((grafana.volumes ?? []).map((v) => [v.split(':')[1]!, v.split(':')[0]!]));
    expect(mounts.get('/etc/grafana/provisioning')).toBe('./deploy/grafana/provisioning');
    const provider = (
      parse(read('deploy/grafana/provisioning/dashboards/dashboards.yml')) as {
        providers: { options: { path: string } }[];
      }
    ).providers[0]!;
    expect(mounts.get(provider.options.path)).toBe('./deploy/grafana/dashboards');
    expect(readdirSync(join(root, 'deploy/grafana/dashboards'))).toContain('tool-hub.json');
    const source = (
      parse(read('deploy/grafana/provisioning/datasources/prometheus.yml')) as {
        datasources: { uid: string; type: string; url: string }[];
      }
    ).datasources[0]!;
    const dsVariable = dashboard().templating.list.find((v) => v.name === 'datasource')!;
    expect(source.type).toBe(dsVariable.query);
    expect(source.url).toBe('http://prometheus:9090');
    expect(compose.services.prometheus?.ports).toContain('9090:9090');
    const promMount = compose.services.prometheus?.volumes?.[0]?.split(':');
    expect(promMount?.slice(0, 2)).toEqual(['./deploy/prometheus', '/etc/prometheus']);
    expect(parseAllDocuments(read('deploy/prometheus/prometheus.yml')).length).toBe(1);
  });
});

describe('the compose stack and the Redis advice (docs/operations.md, "Result cache")', () => {
  interface ComposeService {
    command?: string[];
    environment?: Record<string, string>;
    depends_on?: Record<string, unknown>;
  }
  const compose = () => parse(read('docker-compose.yml')) as { services: Record<string, ComposeService> };
  /** The value after `flag` in a `redis-server` command. */
  const arg = (service: ComposeService | undefined, flag: string) => {
    const command = service?.command ?? [];
    return command.includes(flag) ? command[command.indexOf(flag) + 1] : undefined;
  };
  /** The compose service a `redis://host:port` URL names. */
  const serviceOf = (url: string | undefined) => /^redis:\/\/([^:/]+):6379$/.exec(url ?? '')?.[1];

  it("keeps the limiter's Redis on noeviction and the results on a Redis of their own that evicts", () => {
    const { services } = compose();
    const env = services.hub?.environment ?? {};
    const limiter = serviceOf(env.REDIS_URL);
    const cache = serviceOf(env.CACHE_REDIS_URL);
    expect(limiter).toBeDefined();
    expect(cache).toBeDefined();
    expect(cache).not.toBe(limiter);
    expect(arg(services[limiter!], '--maxmemory-policy')).toBe('noeviction');
    expect(arg(services[cache!], '--maxmemory-policy')).toBe('allkeys-lru');
    expect(arg(services[cache!], '--maxmemory')).toMatch(/^\d+[kmg]b$/);
    expect(Object.keys(services.hub?.depends_on ?? {}).sort()).toEqual([cache, limiter].sort());
  });
});
