import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { namedFields, scanTools } from '../src/registry.js';
import type { ToolDefinition } from '../src/shared/tool-def.js';
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

/** The input's fields that no slot carries (the mode field aside): its options. */
function optionsOf(def: ToolDefinition): string[] {
  const named = new Set(namedFields(def));
  const properties = Object.keys((def.input.properties as Record<string, unknown>) ?? {});
  return properties.filter((p) => !named.has(p) && p !== def.modeField);
}

/** An option with a schema default is in every mode's input once a client fills defaults (MCP clients do). */
function hasDefault(def: ToolDefinition, option: string): boolean {
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
    const options = optionsOf(def);

    it('are declared for every mode a valid run uses them in', () => {
      for (const [mode, input] of cases)
        for (const option of options.filter((o) => input[o] !== undefined))
          expect(def.optionModes?.[option] ?? def.modes, `${option} in mode ${mode}`).toContain(mode);
    });

    const limited = Object.entries(def.optionModes ?? {});
    if (limited.length === 0) return;

    it('with modes of their own appear in some valid run, so the refusals below have a value to send', () => {
      for (const [option] of limited)
        expect(
          cases.some(([, input]) => input[option] !== undefined),
          option,
        ).toBe(true);
    });

    const refusals = limited
      .filter(([option]) => !hasDefault(def, option))
      .flatMap(([option, modes]) =>
        def.modes.filter((m) => !modes.includes(m)).map((mode) => [option, mode] as const),
      );
    if (refusals.length === 0) return;
    it.each(refusals)('refuses %s in mode %s', async (option, mode) => {
      const value = cases.find(([, input]) => input[option] !== undefined)![1][option];
      const input = cases.find(([m]) => m === mode)![1];
      const { url, body } = dedicatedRequest(def, mode, { ...input, [option]: value });
      const res = await app.inject({ method: 'POST', url, payload: body });
      expect(res.statusCode, res.body).toBe(400);
      // The message names the option, so the caller knows what to take out.
      expect(res.json().error).toContain(option);
    });
  },
);
