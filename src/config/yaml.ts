import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');
let yaml: Yaml | undefined;

/**
 * The yaml package, loaded on first use (synchronously, through its CommonJS build): importing
 * it costs a boot ~80 ms, and most boots read no YAML policy file and serve no openapi.yaml.
 */
export function yamlModule(): Yaml {
  yaml ??= createRequire(import.meta.url)('yaml') as Yaml;
  return yaml;
}
