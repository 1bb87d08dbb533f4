import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedFields, scanTools } from '../src/registry.js';
import { fieldsFor, type ToolSpec } from '../src/shared/tool-def.js';
import { buildTestApp, policyFile, type TestApp } from './helpers.js';
import { CASES, dedicatedRequest } from './tool-cases.js';

/**
 * `optionModes` (docs/architecture.md, "option") says which modes an option belongs to: the
 * try-it page shows it under those only and SKILL.md lists them. Both directions against real
 * runs: a mode where a case of test/tool-cases.ts uses an option must be one it is declared for
 * (cron's `from` was declared for parse and convert while build used it), and the tool refuses
 * the option in a mode it is not declared for, so a misplaced option is never silently ignored.
 */

const tools = [...(await scanTools()).values()].map((t) => t.def);

/** The input's fields that no slot carries in `mode` (the mode field aside): its options there. */
function optionsIn(def: ToolSpec, mode: string): string[] {
  const carried = new Set(Object.values(fieldsFor(def, mode)));
  const properties = Object.keys((def.input.properties as Record<string, unknown>) ?? {});
  return properties.filter((p) => !carried.has(p) && p !== def.modeField);
}

/**
 * The modes a field is declared for as an option: those `optionModes` names; with no entry,
 * every mode for a field no slot carries, none for one a slot carries somewhere (a mode that
 * displaces it does not take it unless `optionModes` says so).
 */
function declaredModes(def: ToolSpec, field: string): readonly string[] {
  return def.optionModes?.[field] ?? (namedFields(def).includes(field) ? [] : def.modes);
}

/** An option with a schema default is in every mode's input once a client fills defaults (MCP clients do). */
function hasDefault(def: ToolSpec, option: string): boolean {
  const schema = (def.input.properties as Record<string, { default?: unknown }>)[option];
  return schema?.default !== undefined;
}

let app: TestApp;
beforeAll(async () => {
  const file = await policyFile({
    tools: Object.fromEntries(tools.map((def) => [def.id, { limit: 1_000_000, burst: 1000 }])),
  });
  app = await buildTestApp({ POLICY_FILE: file }, true);
});
afterAll(async () => {
  await app?.close();
});

describe.each(tools.filter((def) => CASES[def.id]).map((def) => [def.id, def] as const))(
  '%s options',
  (_id, def) => {
    const cases = CASES[def.id]!;

    it('are declared for every mode a valid run uses them in', () => {
      for (const [mode, input] of cases)
        for (const option of optionsIn(def, mode).filter((o) => input[o] !== undefined))
          expect(declaredModes(def, option), `${option} in mode ${mode}`).toContain(mode);
    });

    it('declared for a mode of their own appear in some valid run of it', () => {
      for (const [option, modes] of Object.entries(def.optionModes ?? {}))
        for (const mode of modes)
          expect(
            cases.some(([m, input]) => m === mode && input[option] !== undefined),
            `${option} in mode ${mode}`,
          ).toBe(true);
    });

    // Every field that some mode takes as an option without being declared for it, where a
    // client cannot have filled it in from a default.
    const refusals = def.modes.flatMap((mode) =>
      optionsIn(def, mode)
        .filter((o) => !declaredModes(def, o).includes(mode) && !hasDefault(def, o))
        .map((option) => [option, mode] as const),
    );
    if (refusals.length === 0) return;
    it.each(refusals)('refuses %s in mode %s', async (option, mode) => {
      const using = cases.find(([, input]) => input[option] !== undefined);
      expect(using, `no case sends ${option}`).toBeDefined();
      const input = cases.find(([m]) => m === mode)![1];
      const { url, body } = dedicatedRequest(def, mode, { ...input, [option]: using![1][option] });
      const res = await app.inject({ method: 'POST', url, payload: body });
      expect(res.statusCode, res.body).toBe(400);
      // The message names the option, so the caller knows what to take out.
      expect(res.json().error).toContain(option);
    });
  },
);
