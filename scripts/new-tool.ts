// Scaffolds a new tool (docs/writing-a-tool.md):
//   npm run new-tool -- <id>                  tools/<id>/ in the hub, with its docs and examples;
//   npm run new-tool -- <id> --package <dir>  a publishable npm package holding the tool.
// Either way the tool works as written, so the suites pass with it before it becomes the real tool.
import { relative } from 'node:path';
import { projectRoot } from '../src/paths.js';
import { scaffoldPackage, scaffoldTool } from './scaffold/scaffold.js';

const USAGE = `usage: npm run new-tool -- <id> [--package <dir>]
  e.g. npm run new-tool -- word-count
       npm run new-tool -- word-count --package ../toolhub-tool-word-count`;

const args = process.argv.slice(2);
const [id] = args;
const packageAt = args[1] === '--package' ? args[2] : undefined;
if (!id || id.startsWith('-') || !(args.length === 1 || (args.length === 3 && packageAt))) {
  console.error(USAGE);
  process.exit(2);
}
try {
  const { folder, created, regenerated } = packageAt
    ? await scaffoldPackage(id, packageAt)
    : await scaffoldTool(id);
  const base = packageAt ? folder : projectRoot;
  const rel = (paths: string[]) => paths.map((p) => `  ${relative(base, p)}`).join('\n');
  console.log(
    `created${packageAt ? ` in ${folder}` : ''}:\n${rel(created)}\nregenerated:\n${rel(regenerated)}\n`,
  );
  console.log(packageAt ? nextForPackage(id, folder) : nextForHub(id));
} catch (err) {
  console.error(`new-tool: ${(err as Error).message}`);
  process.exit(1);
}

function nextForHub(id: string): string {
  return `Next, make tools/${id}/ the real tool (docs/writing-a-tool.md):
  1. tool.ts: title, description, input schema (each field's description), output schema, modes, policy;
     page.ts: the page content (FAQs, how-to, keywords, related tools);
  2. run.ts and run.test.ts: the implementation and its test (npx vitest run tools/${id}); of the hub,
     import only '#tool-kit' (npm run check:imports checks it);
  3. SKILL.md prose and examples/basic.json, edgeCase.json; then npm run docs && npm run examples -- ${id}.`;
}

function nextForPackage(id: string, folder: string): string {
  return `Next (docs/writing-a-tool.md):
  1. make tools/${id}/ the real tool: tool.js, run.js, page.js, SKILL.md, examples/;
  2. cd ${folder} && npm test && npm pack;
  3. in the hub's TOOL_PACKAGES_DIR: npm install <the .tgz, or the published name>, then start the hub
     with TOOL_PACKAGES=toolhub-tool-${id}.`;
}
