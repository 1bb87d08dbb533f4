import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { FastCounter, FastHistogram } from './fast-metrics.js';

/** prom-client's own metrics are the second implementation: the same observations must scrape alike. */
const BOUNDS = [0.001, 0.01, 0.1, 1];

/** Series lines sorted: the two may list label sets in another order. */
async function lines(registry: Registry): Promise<string[]> {
  return (await registry.metrics()).split('\n').filter(Boolean).sort();
}

describe('the hot-path metrics', () => {
  it('scrape exactly as prom-client does for the same observations', async () => {
    const ours = new Registry();
    const theirs = new Registry();
    const fastH = new FastHistogram('t_seconds', 'help "text"\\ here', ['method', 'route'], BOUNDS, ours);
    const promH = new Histogram({
      name: 't_seconds',
      help: 'help "text"\\ here',
      labelNames: ['method', 'route'],
      buckets: BOUNDS,
      registers: [theirs],
    });
    const fastC = new FastCounter('t_total', 'runs', ['tool', 'outcome'], ours);
    const promC = new Counter({
      name: 't_total',
      help: 'runs',
      labelNames: ['tool', 'outcome'],
      registers: [theirs],
    });
    const samples: [number, string, string][] = [
      [0.0005, 'GET', '/a'],
      [0.001, 'GET', '/a'], // on a bound: counted in it
      [0.05, 'POST', '/b "quoted"\\'],
      [3, 'GET', '/a'], // past the last bound: +Inf only
      [0.2, 'POST', '/b "quoted"\\'],
    ];
    for (const [v, method, route] of samples) {
      fastH.observe(v, method, route);
      promH.labels(method, route).observe(v);
      fastC.inc(route, method);
      promC.labels(route, method).inc();
    }
    expect(await lines(ours)).toEqual(await lines(theirs));
    fastH.reset();
    promH.reset();
    expect(await lines(ours)).toEqual(await lines(theirs));
  });

  it('drops a value that is not a finite number instead of throwing', async () => {
    const registry = new Registry();
    const h = new FastHistogram('n_seconds', 'n', ['tool'], BOUNDS, registry);
    h.observe(Number.NaN, 'x');
    h.observe(0.5, 'x');
    expect(await registry.metrics()).toContain('n_seconds_count{tool="x"} 1');
  });
});
