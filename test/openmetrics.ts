import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { projectRoot } from '../src/paths.js';

/** Where `npm test`'s pretest puts prometheus_client (scripts/provision-test-tools.sh). */
const provisioned = join(
  process.env.TEST_TOOLS_DIR ?? join(projectRoot, 'node_modules', '.cache', 'test-tools'),
  'python',
);

const PARSE = `
import json, sys
from prometheus_client.openmetrics.parser import text_string_to_metric_families
out = []
for family in text_string_to_metric_families(sys.stdin.read()):
    for s in family.samples:
        out.append({"family": family.name, "type": family.type, "name": s.name, "labels": s.labels,
                    "exemplar": s.exemplar.labels if s.exemplar else None})
print(json.dumps(out))
`;

export interface OpenMetricsSample {
  family: string;
  type: string;
  name: string;
  labels: Record<string, string>;
  exemplar: Record<string, string> | null;
}

/**
 * An OpenMetrics exposition read by the reference parser (the Python client's, strict: a
 * malformed exposition throws there and fails here). Missing, it fails saying how to get it.
 */
export function parseOpenMetrics(text: string): OpenMetricsSample[] {
  const r = spawnSync('python3', ['-c', PARSE], {
    input: text,
    encoding: 'utf8',
    env: { ...process.env, PYTHONPATH: [provisioned, process.env.PYTHONPATH].filter(Boolean).join(':') },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.status !== 0) {
    const why = r.stderr.includes('No module named')
      ? "prometheus_client is missing: 'npm test' provisions it (bash scripts/provision-test-tools.sh)"
      : r.stderr.slice(-2000);
    throw new Error(`the OpenMetrics parser refused the exposition: ${why}`);
  }
  return JSON.parse(r.stdout) as OpenMetricsSample[];
}
