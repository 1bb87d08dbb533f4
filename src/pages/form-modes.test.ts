import { beforeAll, describe, expect, it } from 'vitest';
import { resolvePolicies } from '../config/policy.js';
import { type RegisteredTool, scanTools } from '../registry.js';
import { readExample, tryItModel } from './form-model.js';
import { type Doc, find, one, parse, textOf } from './test-helpers.js';
import { renderToolPage } from './tool-page.js';

/** Which fields the try-it form shows under which mode, and what their hints say (docs/api.md, "Tool pages"). */
let tools: Map<string, RegisteredTool>;
beforeAll(async () => {
  tools = await scanTools();
});

function page(id: string): Doc {
  const { def, docsDir } = tools.get(id)!;
  const policy = resolvePolicies([def], { DISABLED_TOOLS: '' }, {}).get(id)!;
  return parse(
    renderToolPage({
      def,
      policy,
      callable: true,
      keyRequired: false,
      model: tryItModel(def, readExample(def, docsDir)),
      tools,
      baseUrl: 'http://hub',
      assets: { script: null, style: null, favicon: null, modules: [] },
    }),
  );
}

/** The modes a field's wrapper is shown under, by field name. */
function modes(doc: Doc): Record<string, string[]> {
  return Object.fromEntries(
    find(doc, 'div', { class: 'field' })
      .filter((d) => d.attribs['data-modes'] !== undefined)
      .map((d) => [find(d, 'label')[0]!.attribs.for!.slice(2), d.attribs['data-modes']!.split(' ')]),
  );
}

const hint = (doc: Doc, name: string) => textOf(one(doc, 'p', { id: `f-${name}-hint` }));

describe('the try-it form’s fields per mode', () => {
  it('a mode on a path of its own leaves out the base field its slot map displaces', () => {
    const palette = modes(page('color-palette'));
    expect(palette.count).not.toContain('convert');
    expect(palette.count).toContain('triadic');
    expect(palette.format).toEqual(['convert']);
    expect(palette.color).toContain('convert');
    const cron = modes(page('cron-expression'));
    expect(cron.expression).toEqual(['parse', 'convert']);
    expect(cron.fields).toEqual(['build']);
    // Convert's b is `to`; its time zone travels as an option (optionModes).
    expect(cron.timezone).toEqual(['parse', 'build', 'convert']);
    expect(cron.to).toEqual(['convert']);
  });

  it('an option belongs to the modes optionModes gives it, else to every mode', () => {
    const cron = modes(page('cron-expression'));
    expect(cron.dialect).toEqual(['parse', 'convert']);
    // Build lists the next runs of what it built, from `from` too.
    expect(cron.from).toEqual(['parse', 'build', 'convert']);
    expect(modes(page('qr-code')).margin).toEqual(['svg', 'png', 'utf8']);
    expect(modes(page('structured-diff')).patchFormat).toEqual(['apply']);
    expect(modes(page('token-counter')).messages).toEqual(['count']);
  });

  it('a mode sharing its path keeps every field of it (regex flags under replace)', () => {
    expect(modes(page('regex-tester')).flags).toContain('replace');
  });

  it('the curl line of an endpoint sends a field that endpoint takes', () => {
    const curls = find(page('cron-expression'), 'pre', { class: 'curl' }).map(textOf);
    expect(curls.find((c) => c.includes('/build/'))).toContain('"fields":"<fields>"');
  });
});

describe('the try-it form’s hints', () => {
  it('say each restriction once: no “(convert only)” after “Convert only:”', () => {
    const palette = page('color-palette');
    expect(hint(palette, 'format')).toMatch(/^Convert only: /);
    expect(hint(palette, 'format')).not.toMatch(/\(convert only\)$/);
    expect(hint(page('regex-tester'), 'replacement')).not.toMatch(/\(replace only\)$/);
    expect(hint(page('cron-expression'), 'fields')).not.toMatch(/\(build only\)$/);
  });

  it('the mode select of a two-path tool says which path each mode runs, not “Generate only”', () => {
    const text = hint(page('color-palette'), 'mode');
    expect(text).not.toMatch(/only:/);
    expect(text).toContain('convert runs /api/color-palette/convert/');
    expect(text).toMatch(/tints run \/api\/color-palette\/generate\/$/);
    // A hint that holds for every mode stays as the tool wrote it.
    expect(hint(page('regex-tester'), 'mode')).toMatch(/^match \(default/);
  });
});
