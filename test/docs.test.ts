import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedDocs } from '../src/docs/generate.js';
import { ERROR_CODES, ERROR_TABLE } from '../src/errors.js';
import { projectRoot } from '../src/paths.js';
import { scanTools } from '../src/registry.js';

const readme = readFileSync(join(projectRoot, 'README.md'), 'utf8');

describe('README', () => {
  it('and every SKILL.md carry the generated sections exactly as the code makes them (run `npm run docs`)', async () => {
    for (const doc of generatedDocs(await scanTools())) {
      expect(doc.actual, `${doc.path} is stale: run npm run docs`).toBe(doc.expected);
      expect(doc.actual, `${doc.path} has unwritten parts`).not.toContain('TODO');
    }
  });

  it('lists every error code with its statuses', () => {
    for (const code of ERROR_CODES) {
      const statuses = [ERROR_TABLE[code].status, ...ERROR_TABLE[code].otherStatuses].join(' / ');
      expect(readme).toContain(`| ${code} | ${statuses} |`);
    }
  });

  it('names the test command that CI runs', () => {
    expect(readme).toContain('npm test');
    expect(readFileSync(join(projectRoot, '.ci', 'run'), 'utf8')).toMatch(/^npm test$/m);
  });
});
