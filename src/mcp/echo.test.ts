import { describe, expect, it } from 'vitest';
import { cut } from '../shared/quote.js';
import { boundEcho, boundErrorAnswer, longHeaderValues } from './echo.js';

const LONG = 'v'.repeat(15_000);
const CUT = `${'v'.repeat(100)}…`;

describe('boundEcho', () => {
  it('cuts a long header value wherever it is echoed, spaces and all', () => {
    const spaced = 'a '.repeat(500);
    expect(boundEcho(`header names "${spaced}" here`, [spaced])).toBe(`header names "${cut(spaced)}" here`);
    expect(cut(spaced)).toHaveLength(101);
  });

  it('cuts any other run longer than a value may be, keeping the quotes around it', () => {
    expect(boundEcho(`names "${LONG}" but ${LONG}`, [])).toBe(`names "${CUT}" but ${CUT}`);
  });

  it('bounds the whole at 1,000 characters and leaves short text alone', () => {
    expect(boundEcho('x '.repeat(2_000), [])).toHaveLength(1000);
    expect(boundEcho('Method not found', [LONG])).toBe('Method not found');
  });
});

describe('boundErrorAnswer', () => {
  const error = {
    jsonrpc: '2.0',
    id: 1,
    error: { code: -32020, message: `disagree: ${LONG}`, data: { mismatch: { header: LONG, body: LONG } } },
  };

  it('bounds the message and every string of data, in JSON and in SSE', () => {
    const json = boundErrorAnswer('application/json', JSON.stringify(error), [LONG]);
    expect(JSON.parse(json ?? '')).toEqual({
      ...error,
      error: { code: -32020, message: `disagree: ${CUT}`, data: { mismatch: { header: CUT, body: CUT } } },
    });
    const sse = boundErrorAnswer(
      'text/event-stream',
      `event: message\ndata: ${JSON.stringify(error)}\n\n`,
      [],
    );
    expect(sse).toMatch(/^event: message\ndata: \{.*\}\n\n$/);
    expect(sse?.length).toBeLessThan(600);
  });

  it('leaves results and already bounded errors as they came (null)', () => {
    const result = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text: `"error" ${LONG}` } });
    expect(boundErrorAnswer('application/json', result, [LONG])).toBeNull();
    const short = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'Method not found' },
    });
    expect(boundErrorAnswer('text/event-stream', `data: ${short}\n\n`, [])).toBeNull();
    expect(boundErrorAnswer('application/json', '{"error"', [])).toBeNull();
  });

  it('bounds each error of an array answer', () => {
    const array = JSON.stringify([error, { jsonrpc: '2.0', id: 2, result: {} }]);
    const out = JSON.parse(boundErrorAnswer('application/json', array, []) ?? '[]');
    expect(out[0].error.data.mismatch.header).toBe(CUT);
    expect(out[1]).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });
});

describe('longHeaderValues', () => {
  it('names the values over 100 characters, as sent and trimmed, longest first', () => {
    const headers = new Headers({ 'mcp-name': `  ${LONG}`, 'mcp-method': 'tools/call' });
    // Headers trims the value as the HTTP parser does.
    expect(longHeaderValues(headers)).toEqual([LONG]);
  });
});
