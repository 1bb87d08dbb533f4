/**
 * What clients and dashboards depend on, reduced to names: each metric family with its type
 * and label names; each OpenAPI operation with its id, parameters, body and statuses; each
 * component schema with its properties. test/contract-surface.test.ts requires today's
 * surface to hold everything of a baseline taken before a change (additions allowed).
 */
export interface Surface {
  metrics: Record<string, { type: string; labels: string[] }>;
  operations: Record<
    string,
    { operationId: string; parameters: string[]; body: boolean; statuses: string[] }
  >;
  schemas: Record<string, string[]>;
}

type Json = Record<string, unknown>;

export function surfaceOf(scrape: string, doc: Json): Surface {
  const metrics: Surface['metrics'] = {};
  for (const [, name, type] of scrape.matchAll(/^# TYPE (\S+) (\S+)$/gm))
    metrics[name!] = { type: type!, labels: [] };
  for (const [, name, labels] of scrape.matchAll(/^(\w+)\{([^}]*)\}/gm)) {
    const family = Object.keys(metrics).find((f) => name === f || name!.startsWith(`${f}_`));
    if (!family) continue;
    for (const [, label] of labels!.matchAll(/(\w+)="/g))
      if (label !== 'le' && label !== 'quantile' && !metrics[family]!.labels.includes(label!))
        metrics[family]!.labels.push(label!);
  }
  for (const m of Object.values(metrics)) m.labels.sort();
  const operations: Surface['operations'] = {};
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(ops)) {
      operations[`${method.toUpperCase()} ${path}`] = {
        operationId: String(op.operationId),
        parameters: ((op.parameters as Json[] | undefined) ?? []).map((p) => `${p.in}:${p.name}`).sort(),
        body: op.requestBody !== undefined,
        statuses: Object.keys(op.responses as Json).sort(),
      };
    }
  }
  const schemas: Surface['schemas'] = {};
  for (const [name, schema] of Object.entries((doc.components as Json).schemas as Record<string, Json>))
    schemas[name] = Object.keys((schema.properties as Json | undefined) ?? {}).sort();
  return { metrics, operations, schemas };
}

/** What `baseline` has that `now` lacks or changed: empty when `now` only adds. */
export function missingFrom(baseline: Surface, now: Surface): string[] {
  const out: string[] = [];
  for (const [name, m] of Object.entries(baseline.metrics)) {
    const n = now.metrics[name];
    if (!n) out.push(`metric ${name} is gone`);
    else if (n.type !== m.type) out.push(`metric ${name} is a ${n.type}, was a ${m.type}`);
    else for (const l of m.labels) if (!n.labels.includes(l)) out.push(`metric ${name} lost label ${l}`);
  }
  for (const [key, op] of Object.entries(baseline.operations)) {
    const n = now.operations[key];
    if (!n) out.push(`operation ${key} is gone`);
    else {
      if (n.operationId !== op.operationId) out.push(`${key} is ${n.operationId}, was ${op.operationId}`);
      if (n.body !== op.body) out.push(`${key} request body changed`);
      for (const p of op.parameters) if (!n.parameters.includes(p)) out.push(`${key} lost parameter ${p}`);
      for (const s of op.statuses) if (!n.statuses.includes(s)) out.push(`${key} lost status ${s}`);
    }
  }
  for (const [name, props] of Object.entries(baseline.schemas)) {
    const n = now.schemas[name];
    if (!n) out.push(`schema ${name} is gone`);
    else for (const p of props) if (!n.includes(p)) out.push(`schema ${name} lost property ${p}`);
  }
  return out;
}
