import type { ToolPolicy } from '../config/policy.js';

/** A tool policy for the limits' own tests: generous everywhere but what a test sets. */
export function testPolicy(overrides: Partial<ToolPolicy> = {}): ToolPolicy {
  return {
    limit: 1e6,
    burst: 0,
    windowSec: 60,
    inputMaxBytes: 1000,
    timeoutMs: 1000,
    cacheTtlSec: 0,
    enabled: true,
    runtimeSurface: true,
    maxInFlight: 100,
    maxInFlightPerClient: 1,
    computeBudgetMs: 1e9,
    networkEnabled: false,
    memoryMb: 256,
    supportsStreaming: false,
    riskClass: 'L',
    ...overrides,
  };
}
