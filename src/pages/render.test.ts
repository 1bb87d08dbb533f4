import { beforeAll, describe, expect, it } from 'vitest';
import { resolvePolicies, type ToolPolicy } from '../config/policy.js';
import { namedFields, type RegisteredTool, scanTools } from '../registry.js';
import type { ToolSpec } from '../shared/tool-def.js';
import { readExample, tryItModel } from './form-model.js';
import { renderIndex } from './index-page.js';
import type { AssetUrls } from './layout.js';
import { find, one, parse, textOf } from './test-helpers.js';
import { renderToolPage } from './tool-page.js';

const assets: AssetUrls = { script: '/a/app.js', style: '/a/styles.css', favicon: null, modules: [] };
let tools: Map<string, RegisteredTool>;
let policies: Map<string, ToolPolicy>;

beforeAll(async () => {
  tools = await scanTools();
  const defs = [...tools.values()].map((t) => t.def);
  policies = resolvePolicies(
    defs,
    { DISABLED_TOOLS: 'token-counter' },
    { tools: { 'regex-tester': { limit: 7 } } },
  );
});

function page(def: ToolSpec, docsDir = tools.get(def.id)?.docsDir ?? '/nowhere') {
  const policy = policies.get(def.id) ?? policies.get('regex-tester')!;
  const model = tryItModel(def, readExample(def, docsDir));
  return parse(
    renderToolPage({
      def,
      policy,
      callable: policy.enabled,
      keyRequired: false,
      model,
      tools,
      baseUrl: 'http://hub',
      assets,
    }),
  );
}

describe('the index page', () => {
  it('lists every tool under its category heading, with a link to its page', () => {
    const doc = parse(renderIndex(tools, assets));
    expect(one(doc, 'html').attribs.lang).toBe('en');
    expect(textOf(one(doc, 'title'))).toBe('Tools · Tool Hub');
    expect(find(doc, 'h2').map(textOf)).toEqual(['Developer tools', 'AI tools']);
    const links = find(doc, 'a').map((a) => a.attribs.href);
    for (const id of tools.keys()) expect(links).toContain(`/tools/${id}/`);
    expect(find(doc, 'li', { class: 'card' })).toHaveLength(tools.size);
    expect(one(doc, 'input', { id: 'filter', type: 'search' })).toBeTruthy();
    expect(one(doc, 'label', { for: 'filter' })).toBeTruthy();
  });
});

describe('a tool page', () => {
  it('has the title, one h1 with the name, how-to steps, FAQs and related tools', () => {
    for (const { def } of tools.values()) {
      const doc = page(def);
      expect(one(doc, 'html').attribs.lang).toBe('en');
      expect(textOf(one(doc, 'title'))).toBe(`${def.name} · Tool Hub`);
      expect(find(doc, 'h1').map(textOf)).toEqual([def.name]);
      expect(find(one(doc, 'ol', { class: 'steps' }), 'li')).toHaveLength(def.howTo.length);
      const h3 = find(doc, 'h3').map(textOf);
      for (const faq of def.faqs) expect(h3).toContain(faq.question);
      const links = find(doc, 'a').map((a) => a.attribs.href);
      for (const id of def.relatedTools) expect(links).toContain(`/tools/${id}/`);
      expect(links).toEqual(expect.arrayContaining([`/skills/${def.id}/SKILL.md`, '/docs']));
    }
  });

  it('has a form whose controls are named after the dedicated fields, with a label each', () => {
    for (const { def } of tools.values()) {
      const doc = page(def);
      const form = one(doc, 'form', { 'data-tool': def.id });
      const controls = [...find(form, 'input'), ...find(form, 'select'), ...find(form, 'textarea')];
      const names = controls.map((c) => c.attribs.name).filter((n) => n && n !== 'source');
      const expected = [...new Set([...namedFields(def), ...Object.keys(def.input.properties as object)])];
      expect(names.sort()).toEqual([...expected, ...(def.modeField ? [def.modeField] : [])].sort());
      for (const c of controls.filter((c) => c.attribs.type !== 'hidden')) {
        expect(find(doc, 'label', { for: c.attribs.id! }), `label of ${c.attribs.id}`).toHaveLength(1);
      }
      expect(textOf(one(form, 'button', { type: 'submit' }))).toBe('Run');
      expect(one(doc, 'output', { id: 'answer' })).toBeTruthy();
    }
  });

  it('offers enumerated options and the modes as selects', () => {
    const qr = page(tools.get('qr-code')!.def);
    const level = one(qr, 'select', { name: 'errorCorrection' });
    expect(find(level, 'option').map(textOf)).toEqual(['L', 'M', 'Q', 'H']);
    expect(one(level, 'option', { value: 'M' }).attribs.selected).toBe('');
    expect(find(one(qr, 'select', { name: 'format' }), 'option').map(textOf)).toEqual(['svg', 'png', 'utf8']);
    // An optional enum without a default can be left out.
    const fd = page(tools.get('format-detective')!.def);
    expect(find(one(fd, 'select', { name: 'from' }), 'option')[0]!.attribs.value).toBe('');
    // Two-path tools: the mode picks the endpoint and is not a field.
    const mode = one(fd, 'select', { id: 'f-mode' });
    expect(mode.attribs.name).toBeUndefined();
    expect(JSON.parse(one(fd, 'form').attribs['data-endpoints']!)).toEqual({
      detect: { path: '/api/format-detective/detect/', fixed: true },
      convert: { path: '/api/format-detective/convert/', fixed: true },
    });
  });

  it('shows a field that only one mode takes under that mode only', () => {
    const doc = page(tools.get('regex-tester')!.def);
    const replacement = one(doc, 'input', { name: 'replacement' });
    expect(replacement.attribs.disabled).toBe('');
    expect(one(doc, 'input', { name: 'flags' }).attribs.disabled).toBeUndefined();
    const cron = page(tools.get('cron-expression')!.def);
    expect(one(cron, 'textarea', { name: 'fields' }).attribs.disabled).toBe('');
    expect(one(cron, 'input', { name: 'expression' }).attribs.disabled).toBeUndefined();
  });

  it('shows the effective limits, the endpoints with a curl line and the switch state', () => {
    const regex = page(tools.get('regex-tester')!.def);
    expect(textOf(one(regex, 'dl', { class: 'limits' }))).toContain(
      '7 attempts per 60 s per client (refused ones too)',
    );
    const curl = textOf(one(regex, 'pre', { class: 'curl' }));
    expect(curl).toMatch(
      /^curl -s -X POST 'http:\/\/hub\/api\/regex-tester\/' -H 'content-type: application\/json' -d '/,
    );
    const tokens = page(tools.get('token-counter')!.def);
    expect(textOf(one(tokens, 'dl', { class: 'limits' }))).toContain('switched off by the operator');
    // One curl line per endpoint: parse, build and convert.
    expect(find(page(tools.get('cron-expression')!.def), 'pre', { class: 'curl' })).toHaveLength(3);
  });

  it('escapes tool text: names, descriptions, FAQs, examples and hints never become markup', () => {
    const base = tools.get('regex-tester')!.def;
    const evil = '<img src=x onerror=alert(1)>"\'';
    const def: ToolSpec = {
      ...base,
      name: `<script>alert(1)</script>`,
      description: evil,
      faqs: [{ question: evil, answer: `\`${evil}\` ${evil}` }],
      howTo: [{ title: evil, description: evil }],
      semanticFields: { ...base.semanticFields, pattern: evil },
    };
    const markup = renderToolPage({
      def,
      policy: policies.get('regex-tester')!,
      callable: true,
      keyRequired: false,
      model: tryItModel(def, {
        mode: 'match',
        fields: { pattern: `</textarea>${evil}`, text: '</textarea><b>' },
      }),
      tools,
      baseUrl: 'http://hub',
      assets,
    });
    expect(markup).not.toMatch(/<script>alert|<img src=x|<\/textarea><b>/);
    expect(markup).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    const doc = parse(markup);
    expect(find(doc, 'script')).toHaveLength(1);
    expect(find(doc, 'img')).toHaveLength(0);
    expect(textOf(one(doc, 'h1'))).toBe(def.name);
    expect(one(doc, 'input', { name: 'pattern' }).attribs.value).toBe(`</textarea>${evil}`);
  });
});
