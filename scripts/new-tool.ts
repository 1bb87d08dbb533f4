// Scaffolds a new tool (`npm run new-tool -- <id>`): tools/<id>/ with a working text tool,
// its test, agent guide and examples, and regenerates the docs and its expected output,
// so the whole suite passes with it before it becomes the real tool.
import { relative } from 'node:path';
import { projectRoot } from '../src/paths.js';
import { scaffoldTool } from './scaffold/scaffold.js';

const [id, ...rest] = process.argv.slice(2);
if (!id || rest.length > 0) {
  console.error('usage: npm run new-tool -- <id>   (e.g. npm run new-tool -- word-count)');
  process.exit(2);
}
try {
  const { created, regenerated } = await scaffoldTool(id);
  const rel = (paths: string[]) => paths.map((p) => `  ${relative(projectRoot, p)}`).join('\n');
  console.log(`created:\n${rel(created)}\nregenerated:\n${rel(regenerated)}\n`);
  console.log(`Next, make tools/${id}/ the real tool:
  1. tool.ts: name, description, input schema, modes, policy, endpoints, FAQs, related tools;
  2. run.ts and run.test.ts: the implementation and its test (npx vitest run tools/${id}); of the hub,
     import only '#tool-kit' (npm run check:imports checks it);
  3. SKILL.md prose and examples/basic.json, edgeCase.json; then npm run docs && npm run examples -- ${id}.`);
} catch (err) {
  console.error(`new-tool: ${(err as Error).message}`);
  process.exit(1);
}
