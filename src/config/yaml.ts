import { createRequire } from 'node:module';
import { once } from '../shared/once.js';

/**
 * The yaml package, loaded on first use (synchronously, through its CommonJS build): importing
 * it costs a boot ~80 ms, and most boots read no YAML policy file and serve no openapi.yaml.
 */
export const yamlModule = once(() => createRequire(import.meta.url)('yaml') as typeof import('yaml'));
