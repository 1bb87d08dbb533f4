import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { buildApp } from '../src/app.js';
import { examplePath, optionRequest, readOptionExamples, stableResult } from '../src/docs/examples.js';
import type { ToolSpec } from '../src/shared/tool-def.js';

export interface WriteExamplesOptions {
  /** Only these tools (default: every tool of the registry). */
  only?: readonly string[];
  /** Another tools folder than tools/ (the scaffold's test). */
  toolsDir?: string;
}

/**
 * Writes each tool's examples/expectedOutput.json by really running its basic.json through
 * the hub (`npm run examples`, and `npm run new-tool` for the new tool), and the `result` of
 * each of its examples/options/*.json likewise; test/examples.test.ts checks they stay true.
 * Returns the files written (a file whose answer has not changed is left alone).
 */
export async function writeExpectedOutputs(options: WriteExamplesOptions = {}): Promise<string[]> {
  const app = await buildApp({
    logger: false,
    ...(options.toolsDir ? { toolsDir: options.toolsDir } : {}),
    // A one-shot build step sheds nothing: a busy laptop must not turn an example into a 503.
    env: { LOG_LEVEL: 'silent', POOL_THREADS: '1', PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' },
  });
  const written: string[] = [];
  try {
    for (const [toolId, tool] of app.tools) {
      if (options.only?.length && !options.only.includes(toolId)) continue;
      const basic = JSON.parse(readFileSync(examplePath(tool.docsDir, 'basic'), 'utf8'));
      const res = await app.inject({ method: 'POST', url: '/api/tools/run/', payload: basic });
      if (res.statusCode !== 200)
        throw new Error(`${toolId}: basic example answered ${res.statusCode}: ${res.body}`);
      const path = examplePath(tool.docsDir, 'expectedOutput');
      const before = existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : undefined;
      if (!sameAnswer(tool.def, before, res.json().result)) {
        writeFileSync(path, `${JSON.stringify(res.json().result, null, 2)}\n`);
        written.push(path);
      }
      for (const [optionPath, example] of readOptionExamples(tool.docsDir)) {
        const answer = await app.inject({ method: 'POST', ...optionRequest(example) });
        if (answer.statusCode !== 200)
          throw new Error(`${optionPath}: answered ${answer.statusCode}: ${answer.body}`);
        if (sameAnswer(tool.def, example.result, answer.json().result)) continue;
        const filled = { ...example, result: answer.json().result };
        writeFileSync(optionPath, `${JSON.stringify(filled, null, 2)}\n`);
        written.push(optionPath);
      }
    }
  } finally {
    await app.close();
  }
  return written;
}

/**
 * Whether a file's answer is the new one but for the fields that move with the clock: then
 * the file stays as it is, so the examples (and the docs made from them) do not change with
 * every run of `npm run examples`.
 */
function sameAnswer(def: ToolSpec, before: unknown, after: Record<string, unknown>): boolean {
  if (before === null || typeof before !== 'object') return false;
  const stable = (r: Record<string, unknown>) => JSON.stringify(stableResult(def, r));
  return stable(before as Record<string, unknown>) === stable(after);
}
