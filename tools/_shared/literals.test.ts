import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { jsJson } from './literals.js';

const evaluate = (code: string) => runInNewContext(`(${code})`) as unknown;

describe('jsJson', () => {
  it('keeps a __proto__ key as a key, at any depth and in pretty output', () => {
    const value = JSON.parse(
      '{"__proto__":{"a":1},"list":[{"__proto__":2}],"s":"\\"__proto__\\":x","pad":"' +
        'x'.repeat(200) +
        '"}',
    );
    const code = jsJson(value, '  ');
    const back = evaluate(code) as Record<string, unknown>;
    expect(JSON.stringify(back)).toBe(JSON.stringify(value));
    expect(Object.hasOwn(back, '__proto__')).toBe(true);
  });

  it('leaves a "__proto__" string value alone and stays script-safe', () => {
    const value = { k: '__proto__', tag: '</script><!--' };
    const code = jsJson(value);
    expect(code).not.toContain('</script>');
    expect(evaluate(code)).toEqual(value);
  });
});
