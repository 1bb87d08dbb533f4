import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './paths.js';

/**
 * One meaning per word (docs/architecture.md, "Glossary"): the names the glossary retired stay
 * out of src/. Each entry is a retired name, the name that replaced it, and where it may still
 * stand: `files` narrows the check to some files, `except` names files where the old word is
 * a public name kept on purpose, and a line matching `allow` is Node's or a public name.
 */
interface Retired {
  word: RegExp;
  now: string;
  files?: RegExp;
  except?: readonly string[];
  allow?: RegExp;
}

const CLUSTER = /^src\/cluster\/(primary|gather|handoff|link|messages)\.ts$/;

const RETIRED: readonly Retired[] = [
  // The junk counter counts junk; a refusal is an answer a limit decided.
  { word: /\bRefusalCounter\b/, now: 'JunkCounter' },
  { word: /\bREFUSAL_STATUSES\b/, now: 'JUNK_STATUSES' },
  { word: /\b(app|server)\.refusals\b/, now: 'app.junk' },
  { word: /toolhub-refusals|\/refusals\.js|\brefusalsPlugin\b/, now: 'toolhub-junk, src/plugins/junk.ts' },
  { word: /\bonRefused\b/, now: 'onJunk' },
  // JUNK_LIMIT's deprecated alias: read only by the environment and named by the boot's warning.
  { word: /\bREFUSAL_LIMIT\b/, now: 'JUNK_LIMIT', except: ['src/config/env.ts', 'src/plugins/junk.ts'] },
  { word: /\brpcRefusal\b/, now: 'rpcHubError' },
  // The hub is the product; the run facade is the facade.
  { word: /\b(app|parts)\.hub\b|toolhub-hub\b|(run|plugins)\/hub\.js/, now: 'app.facade, toolhub-facade' },
  { word: /(?<!Tool )\bHub\b|\bHubParts\b|\bhubPlugin\b/, now: 'RunFacade, FacadeParts' },
  { word: /\bRunnerOptions\b/, now: 'FacadeOptions' },
  // node:cluster's workers are our processes; a slot is a place under a cap.
  { word: /\bslots?\b|\bbySlot\b/i, now: 'ordinal', files: CLUSTER },
  { word: /\bworkers?\b/, now: 'proc, procs', files: CLUSTER, allow: /\bcluster\.workers\b/ },
  // A JSON-RPC batch is a message array; a client's batch is a batch request.
  {
    word: /\bBatchBounds\b|\bbatchProblem\b|kind: 'batch'|kind === 'batch'/,
    now: 'MessageArrayBounds, arrayProblem',
  },
  {
    word: /\b(batchEtagOf|batchRouteDoc|batchSchemas|batchRoutes|batchFields|readBatch)\b/,
    now: 'batchRequest…',
  },
  // The run cells' memory is the cell memory; "shared" is the shared code and the shared layer.
  { word: /\bSharedSlots\b|\bsharedCells\b/, now: 'CellMemory, cellMemory' },
  // The limits' store is the store; the result cache writes.
  { word: /\brecordCacheStore\b|\bcacheStores\b/, now: 'recordCacheWrite, cacheWrites' },
  // Every tool run, not the generic runtime: runsEnabled (the policy file's field is public).
  {
    word: /\bruntimeEnabled\b/,
    now: 'runsEnabled',
    except: ['src/config/policy.ts'],
    allow: /policyFile\.runtimeEnabled|`runtimeEnabled`|\{ runtimeEnabled: false \}/,
  },
];

/** Each line of `text` (the file `path`, from the root) where a retired name stands. */
function retiredIn(path: string, text: string, table = RETIRED): string[] {
  const hits: string[] = [];
  for (const r of table) {
    if (r.files && !r.files.test(path)) continue;
    if (r.except?.includes(path)) continue;
    text.split('\n').forEach((line, i) => {
      const found = line.match(r.word);
      if (found && !r.allow?.test(line)) hits.push(`${path}:${i + 1}: '${found[0]}' (now: ${r.now})`);
    });
  }
  return hits;
}

describe('retired words stay out of src/ (docs/architecture.md, "Glossary")', () => {
  it('finds none', () => {
    const files = readdirSync(join(projectRoot, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && f !== 'glossary-words.test.ts')
      .map((f) => `src/${f.split('\\').join('/')}`);
    expect(files.length).toBeGreaterThan(100);
    const hits = files.flatMap((f) => retiredIn(f, readFileSync(join(projectRoot, f), 'utf8')));
    expect(hits).toEqual([]);
  });

  it('names the file and the line of a word put back, and lets a kept public name be', () => {
    const text = 'ok\nconst c = new RefusalCounter(3);\nconst p = policyFile.runtimeEnabled;';
    expect(retiredIn('src/http/x.ts', text)).toEqual([
      "src/http/x.ts:2: 'RefusalCounter' (now: JunkCounter)",
    ]);
    expect(retiredIn('src/cluster/primary.ts', 'const slot = 0;')).toHaveLength(1);
    expect(retiredIn('src/cluster/sizing.ts', 'const slot = 0;')).toEqual([]);
    expect(retiredIn('src/pages/layout.ts', "title: 'Tool Hub'")).toEqual([]);
  });
});
