import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generatedDocs, WIRING_DOC } from '../src/docs/generate.js';
import { GENERATED_DOCS, headingSlug } from '../src/docs/readme-sections.js';
import { numberWord } from '../src/docs/sections.js';
import { ERROR_CODES, ERROR_TABLE } from '../src/errors.js';
import { projectRoot } from '../src/paths.js';
import { scanTools } from '../src/registry.js';
import { wiringRows } from '../src/wiring.js';

const read = (file: string) => readFileSync(join(projectRoot, file), 'utf8');
const readme = read('README.md');
/** The project's own documents: README.md and every docs/*.md. */
const documents = [
  'README.md',
  ...readdirSync(join(projectRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** Markdown without its fenced code blocks (links and headings there are not links or headings). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm, '');
}

/** Markdown without code blocks and code spans. */
function outsideCode(markdown: string): string {
  return prose(markdown).replace(/`[^`\n]*`/g, '');
}

/** Every link and image target of a Markdown document, outside code. */
function linkTargets(markdown: string): string[] {
  const text = outsideCode(markdown);
  return [...text.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]!);
}

/** The anchors GitHub makes for the headings of a Markdown document (repeats get -1, -2, ...). */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6}[ \t]+(.+?)[ \t#]*$/gm)) {
    const slug = headingSlug(heading!);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

describe('generated documentation', () => {
  it('README.md, docs/*.md and every SKILL.md carry each generated section exactly as the code makes it (run `npm run docs`)', async () => {
    const docs = generatedDocs(await scanTools(), wiringRows());
    const written = docs.map((d) => relative(projectRoot, d.path));
    expect(written).toEqual(expect.arrayContaining([...GENERATED_DOCS, WIRING_DOC]));
    for (const doc of docs) {
      const file = relative(projectRoot, doc.path);
      expect(doc.actual, `${file} is stale: run npm run docs`).toBe(doc.expected);
      expect(doc.actual, `${file} has unwritten parts`).not.toContain('TODO');
      // Each section once, and no section markers the generator does not write (a stale copy).
      for (const name of doc.sections) {
        expect(doc.actual.split(`<!-- ${name}:start -->`).length - 1, `${file}: section ${name}`).toBe(1);
        expect(doc.actual.split(`<!-- ${name}:end -->`).length - 1, `${file}: section ${name}`).toBe(1);
      }
      const markers = [...outsideCode(doc.actual).matchAll(/<!-- ([\w-]+):(?:start|end) -->/g)].map(
        (m) => m[1]!,
      );
      for (const name of markers) {
        expect(doc.sections, `${file} has a section '${name}' that npm run docs does not write`).toContain(
          name,
        );
      }
    }
  });

  it('every project document with section markers is one that npm run docs writes', () => {
    for (const file of documents) {
      if (/<!-- [\w-]+:start -->/.test(outsideCode(read(file))))
        expect([...GENERATED_DOCS, WIRING_DOC]).toContain(file);
    }
  });

  it('docs/api.md lists every error code with its statuses', () => {
    const api = read('docs/api.md');
    for (const code of ERROR_CODES) {
      const statuses = [ERROR_TABLE[code].status, ...ERROR_TABLE[code].otherStatuses].join(' / ');
      expect(api).toContain(`| ${code} | ${statuses} |`);
    }
  });
});

describe('README.md', () => {
  it('is a guide of at most 450 lines', () => {
    expect(readme.split('\n').length).toBeLessThanOrEqual(450);
  });

  it('says how many tools there are as the registry does (a generated section)', async () => {
    const count = (await scanTools()).size;
    expect(readme).toContain(`<!-- count:start -->${numberWord(count)}<!-- count:end --> tools`);
  });

  it('links to every document in docs/', () => {
    for (const file of documents.filter((f) => f.startsWith('docs/'))) {
      expect(linkTargets(readme), `README.md does not link to ${file}`).toContain(file);
    }
  });

  it('keeps the place for the loaded-machine proof', () => {
    expect(readme).toContain('<!-- loaded-proof -->');
  });

  it('names the test command that CI runs', () => {
    expect(readme).toContain('npm test');
    // Run as a stage of its own (`stage '<heading>' npm test`), with at most a project filter
    // (the unit project runs in `npm run check` just before it).
    expect(readFileSync(join(projectRoot, '.ci', 'run'), 'utf8')).toMatch(
      /^stage '[^']+' npm test( -- --project integration)?$/m,
    );
  });
});

describe('links in README.md and docs/*.md', () => {
  it('point to files and headings that exist, inside the repository', () => {
    const broken: string[] = [];
    for (const file of documents) {
      const markdown = read(file);
      for (const target of linkTargets(markdown)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:
        const [path = '', anchor] = target.split('#');
        const resolved = path
          ? resolve(dirname(join(projectRoot, file)), decodeURI(path))
          : join(projectRoot, file);
        const where = `${file}: ${target}`;
        if (relative(projectRoot, resolved).startsWith('..')) {
          broken.push(`${where} (outside the repository)`);
          continue;
        }
        if (!existsSync(resolved)) {
          broken.push(`${where} (no such file)`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && statSync(resolved).isFile()) {
          if (!anchors(readFileSync(resolved, 'utf8')).has(anchor)) broken.push(`${where} (no such heading)`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});
