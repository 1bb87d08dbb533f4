import type { ToolPolicy } from '../config/policy.js';
import type { ToolEndpoint, ToolSpec } from '../shared/tool-def.js';
import type { TryIt } from './form-model.js';
import { type Html, html } from './html.js';

const shellQuote = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/** The body an endpoint's curl line sends: the example where it runs there, else a placeholder. */
function bodyFor(def: ToolSpec, ep: ToolEndpoint, model: TryIt): Record<string, unknown> {
  const served = ep.mode ? [ep.mode] : (ep.modes ?? def.modes);
  if (!served.includes(model.mode)) {
    const first = model.fields.find((f) => f.modes.includes(served[0]!));
    return first ? { [first.name]: `<${first.name}>` } : {};
  }
  const body: Record<string, unknown> = {};
  for (const f of model.fields) {
    const value = model.example[f.name];
    if (value === undefined || !f.modes.includes(model.mode)) continue;
    body[f.name] =
      f.kind === 'textarea' ? jsonOrText(value) : f.kind === 'number' ? numberOrText(value) : value;
  }
  if (!ep.mode && def.modeField && model.mode !== served[0]) body[def.modeField] = model.mode;
  return body;
}

/**
 * A number field is sent as a JSON number, the type the OpenAPI document declares: the hub
 * would coerce "3", but a validating gateway in front of it would not (docs/api.md, "Client generation").
 */
function numberOrText(value: string): unknown {
  return value.trim() !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
}

/** A JSON object or array given as text is sent as the JSON value: easier to read in a curl line. */
function jsonOrText(value: string): unknown {
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null ? parsed : value;
  } catch {
    return value;
  }
}

export function curlLine(
  baseUrl: string,
  ep: ToolEndpoint,
  method: string,
  body: Record<string, unknown>,
  keyRequired = false,
): string {
  const url = `${baseUrl}${ep.path}`;
  // Double quotes so the shell expands the variable the reader sets to their key.
  const auth = keyRequired ? ` -H "Authorization: Bearer $TOOLHUB_API_KEY"` : '';
  if (method === 'GET') {
    const query = new URLSearchParams(
      Object.entries(body).map(([k, v]): [string, string] => [
        k,
        typeof v === 'string' ? v : JSON.stringify(v),
      ]),
    ).toString();
    return `curl -s${auth} ${shellQuote(query ? `${url}?${query}` : url)}`;
  }
  return `curl -s -X POST ${shellQuote(url)}${auth} -H 'content-type: application/json' -d ${shellQuote(JSON.stringify(body))}`;
}

/** Endpoints with a copyable curl line each (POST where the endpoint takes it) and the reference links. */
export function renderApi(def: ToolSpec, model: TryIt, baseUrl: string, keyRequired: boolean): Html {
  return html`<section aria-labelledby="api">
<h2 id="api">API</h2>
<p>The same runs from a script or an agent: named fields as a JSON body (POST) or a query (GET).
Read <a href="/skills/${def.id}/SKILL.md">the agent guide (SKILL.md)</a>, the
<a href="/docs">OpenAPI reference</a> or <a href="/api/tools/${def.id}.json">the tool's descriptor</a>.${keyRequired ? html` This hub needs an API key: set <code>TOOLHUB_API_KEY</code> to yours.` : null}</p>
${def.endpoints.map((ep) => {
  const method = ep.methods.includes('POST') ? 'POST' : ep.methods[0]!;
  return html`<div class="endpoint">
<h3><code>${ep.methods.join(', ')} ${ep.path}</code></h3>
<p>${ep.summary}</p>
<pre class="curl" data-copyable><code>${curlLine(baseUrl, ep, method, bodyFor(def, ep, model), keyRequired)}</code></pre>
</div>`;
})}
</section>`;
}

const bytes = (n: number) =>
  n >= 1048576 && n % 1048576 === 0
    ? `${n / 1048576} MiB`
    : n >= 1024 && n % 1024 === 0
      ? `${n / 1024} KiB`
      : `${n} bytes`;

/** The effective limits (operator overrides included): the same for this page as for any client. */
export function renderLimits(policy: ToolPolicy, callable: boolean): Html {
  const rows: [string, string][] = [
    [
      'Rate limit',
      `${policy.limit} attempts per ${policy.windowSec} s per client (refused ones too), plus a burst of ${policy.burst}`,
    ],
    ['Input size', `up to ${bytes(policy.inputMaxBytes)}`],
    ['Timeout', `${policy.timeoutMs} ms of execution per run`],
    [
      'Runs at once',
      `${policy.maxInFlightPerClient} per client, ${policy.maxInFlight} in all on this instance`,
    ],
    ['Compute budget', `${policy.computeBudgetMs} ms of worker time per client per ${policy.windowSec} s`],
    ['Status', callable ? 'enabled' : 'switched off by the operator'],
  ];
  return html`<section aria-labelledby="limits">
<h2 id="limits">Limits</h2>
<dl class="limits">
${rows.map(([k, v]) => html`<div><dt>${k}</dt><dd>${v}</dd></div>`)}
</dl>
</section>`;
}
