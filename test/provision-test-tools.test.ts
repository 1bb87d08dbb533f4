import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../src/paths.js';

/**
 * `npm test`'s pretest on a fresh machine (README, "Development"), without uninstalling
 * anything: scripts/provision-test-tools.sh runs with PATH limited to a folder of stand-ins,
 * a fake `id`, `apt-get` and `dpkg-deb` that log what they are asked, beside the real
 * coreutils it uses. The real run (apt-get download, dpkg-deb -x) is the pretest itself.
 */
const script = join(projectRoot, 'scripts', 'provision-test-tools.sh');
const REAL = ['bash', 'dirname', 'mktemp', 'find', 'mkdir', 'cp', 'chmod', 'rm', 'cat'];

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

interface Machine {
  uid: number;
  /** apt-get has package lists (download works without `apt-get update`). */
  lists: boolean;
  promtoolOnPath?: boolean;
  /** prometheus_client is already in the tools folder. */
  openmetricsParser?: boolean;
  chromium?: boolean;
  env?: Record<string, string>;
}

function provision(machine: Machine) {
  dir = mkdtempSync(join(tmpdir(), 'toolhub-provision-'));
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  for (const tool of REAL) {
    const found = spawnSync('bash', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    symlinkSync(found, join(bin, tool));
  }
  const log = join(dir, 'calls.log');
  const chromium = join(dir, 'chromium');
  const stub = (name: string, body: string) => {
    writeFileSync(join(bin, name), `#!${join(bin, 'bash')}\n${body}\n`);
    chmodSync(join(bin, name), 0o755);
  };
  stub('id', `echo ${machine.uid}`);
  stub(
    'apt-get',
    [
      `echo "apt-get $*" >> ${log}`,
      `lists=${machine.lists ? 1 : 0}`,
      `[ "$1" = update ] && { echo 1 > ${dir}/lists; exit 0; }`,
      `[ -f ${dir}/lists ] && lists=1`,
      `if [ "$1" = download ]; then [ $lists = 1 ] || exit 100; echo deb > "$3"_stub_all.deb; fi`,
      `if [ "$1" = install ]; then printf '#!/bin/sh\\n' > ${chromium}; chmod 755 ${chromium}; fi`,
    ].join('\n'),
  );
  stub(
    'dpkg-deb',
    [
      'case "$2" in',
      `  *prometheus_stub*) mkdir -p "$3/usr/bin"; printf '#!/bin/sh\\necho promtool\\n' > "$3/usr/bin/promtool" ;;`,
      '  *) mkdir -p "$3/usr/lib/python3/dist-packages/prometheus_client/openmetrics"',
      '     echo "# parser" > "$3/usr/lib/python3/dist-packages/prometheus_client/openmetrics/parser.py" ;;',
      'esac',
    ].join('\n'),
  );
  if (machine.openmetricsParser) {
    mkdirSync(join(dir, 'tools', 'python', 'prometheus_client', 'openmetrics'), { recursive: true });
    writeFileSync(
      join(dir, 'tools', 'python', 'prometheus_client', 'openmetrics', 'parser.py'),
      '# parser\n',
    );
  }
  if (machine.promtoolOnPath) stub('promtool', 'echo promtool');
  if (machine.chromium) {
    writeFileSync(chromium, '#!/bin/sh\n');
    chmodSync(chromium, 0o755);
  }
  const r = spawnSync(join(bin, 'bash'), [script], {
    encoding: 'utf8',
    env: { PATH: bin, TEST_TOOLS_DIR: join(dir, 'tools'), DEBIAN_CHROMIUM: chromium, ...machine.env },
  });
  const calls = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  return {
    status: r.status,
    stderr: r.stderr.trim(),
    calls,
    promtool: join(dir, 'tools', 'bin', 'promtool'),
    parser: join(dir, 'tools', 'python', 'prometheus_client', 'openmetrics', 'parser.py'),
  };
}

describe('scripts/provision-test-tools.sh (npm test: pretest)', () => {
  it('on a fresh machine as root: promtool and prometheus_client out of Debian’s packages, chromium installed', () => {
    const r = provision({ uid: 0, lists: false });
    expect(r.calls).toEqual([
      'apt-get download -qq prometheus',
      'apt-get update -qq',
      'apt-get download -qq prometheus',
      'apt-get download -qq python3-prometheus-client',
      'apt-get install -y -qq chromium',
    ]);
    expect(r.status).toBe(0);
    expect(spawnSync(r.promtool, { encoding: 'utf8' }).stdout).toBe('promtool\n');
    expect(existsSync(r.parser)).toBe(true);
  });

  it('as another user without package lists: one line saying what to install, and failure', () => {
    const r = provision({ uid: 1000, lists: false });
    expect(r.calls).toEqual([
      'apt-get download -qq prometheus',
      'apt-get download -qq python3-prometheus-client',
    ]);
    expect(r.status).toBe(1);
    expect(r.stderr.split('\n')).toHaveLength(1);
    expect(r.stderr).toBe(
      "provision-test-tools: npm test needs Debian's packages prometheus python3-prometheus-client chromium: run 'apt-get install -y prometheus python3-prometheus-client chromium' as root (npm test run as root does it)",
    );
  });

  it('as another user with package lists: promtool still comes without root; chromium is named', () => {
    const r = provision({ uid: 1000, lists: true });
    expect(r.calls).toEqual([
      'apt-get download -qq prometheus',
      'apt-get download -qq python3-prometheus-client',
    ]);
    expect(existsSync(r.promtool)).toBe(true);
    expect(existsSync(r.parser)).toBe(true);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain("needs Debian's packages chromium: run 'apt-get install -y chromium' as root");
  });

  it('a CHROMIUM_PATH that points nowhere is named, and Debian’s chromium is not installed for it', () => {
    const r = provision({
      uid: 0,
      lists: true,
      promtoolOnPath: true,
      openmetricsParser: true,
      env: { CHROMIUM_PATH: '/nowhere/chromium' },
    });
    expect(r.calls).toEqual([]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('CHROMIUM_PATH=/nowhere/chromium is not an executable');
  });

  it('with every tool present: nothing is fetched, nothing is said', () => {
    const r = provision({
      uid: 0,
      lists: true,
      promtoolOnPath: true,
      openmetricsParser: true,
      chromium: true,
    });
    expect(r.calls).toEqual([]);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
