import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Namespace } from 'kubernetes-models/v1/Namespace';
import { Service } from 'kubernetes-models/v1/Service';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';

/**
 * deploy/kubernetes/: every document passes the Kubernetes JSON schemas of its kind
 * (kubernetes-models), with no field the schema does not know (as `kubectl apply
 * --validate=strict`), and the manifests agree with each other and with the hub.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = join(root, 'deploy/kubernetes');

interface Model {
  validate(): void;
}
const MODELS: Record<string, new (data: never) => Model> = {
  'v1/Namespace': Namespace,
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy,
};

// biome-ignore lint/suspicious/noExplicitAny: manifests are checked by the schemas, then read freely
type Doc = any;
function documents(file: string): Doc[] {
  return parseAllDocuments(readFileSync(file, 'utf8')).map((d) => {
    expect(d.errors, file).toEqual([]);
    return d.toJS();
  });
}
const manifests = readdirSync(dir)
  .filter((f) => f.endsWith('.yaml'))
  .flatMap((f) => documents(join(dir, f)).map((doc) => ({ file: f, doc })));
const find = (kind: string, name: string) =>
  manifests.find((m) => m.doc.kind === kind && m.doc.metadata.name === name)?.doc;

/**
 * Validates a model against its schema, and returns the fields the schema does not know.
 * The generated validators read every property their schema declares and list the keys
 * of free-form maps (labels, data, resources): a key of an object that was neither read
 * nor listed is unknown to the schema, e.g. a misspelt `readinesProbe`.
 */
function validateStrict(model: Model): string[] {
  const read = new Map<object, Set<PropertyKey>>();
  const listed = new Set<object>();
  const proxies = new WeakMap<object, object>();
  const track = (value: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value;
    let proxy = proxies.get(value);
    if (!proxy) {
      read.set(value, new Set());
      proxy = new Proxy(value, {
        get: (t, k, r) => {
          read.get(t)!.add(k);
          return track(Reflect.get(t, k, r));
        },
        has: (t, k) => {
          read.get(t)!.add(k);
          return Reflect.has(t, k);
        },
        ownKeys: (t) => {
          listed.add(t);
          return Reflect.ownKeys(t);
        },
      });
      proxies.set(value, proxy);
    }
    return proxy;
  };
  model.validate.call(track(model));
  const unknown: string[] = [];
  const walk = (value: unknown, path: string) => {
    if (value === null || typeof value !== 'object') return;
    if (Array.isArray(value)) {
      for (const [i, v] of value.entries()) walk(v, `${path}[${i}]`);
      return;
    }
    for (const [key, child] of Object.entries(value)) {
      if (!listed.has(value) && !read.get(value)?.has(key)) unknown.push(`${path}.${key}`);
      else walk(child, `${path}.${key}`);
    }
  };
  walk(model, '');
  return unknown;
}

describe('Kubernetes manifests against the Kubernetes schemas (kubernetes-models)', () => {
  it('has the documents of the kit', () => {
    const kinds = manifests.map((m) => `${m.doc.kind}/${m.doc.metadata.name}`).sort();
    expect(kinds).toEqual([
      'ConfigMap/tool-hub-config',
      'Deployment/tool-hub',
      'Deployment/tool-hub-cache-redis',
      'Deployment/tool-hub-redis',
      'HorizontalPodAutoscaler/tool-hub',
      'Namespace/tool-hub',
      'NetworkPolicy/tool-hub-cache-redis',
      'NetworkPolicy/tool-hub-redis',
      'PodDisruptionBudget/tool-hub',
      'Service/tool-hub',
      'Service/tool-hub-cache-redis',
      'Service/tool-hub-redis',
    ]);
  });

  for (const { file, doc } of manifests) {
    it(`${file}: ${doc.kind} ${doc.metadata?.name} is valid, with no unknown field`, () => {
      const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
      expect(Model, `no model for ${doc.apiVersion} ${doc.kind}`).toBeDefined();
      const unknown = validateStrict(new Model!(doc as never));
      expect(unknown, 'fields the schema does not know').toEqual([]);
      if (doc.kind !== 'Namespace') expect(doc.metadata.namespace).toBe('tool-hub');
    });
  }

  it('the strict check finds a misspelt field and a schema error', () => {
    const deployment = structuredClone(find('Deployment', 'tool-hub'));
    deployment.spec.template.spec.containers[0].readinesProbe = { httpGet: { path: '/readyz', port: 8080 } };
    expect(validateStrict(new Deployment(deployment))).toEqual([
      '.spec.template.spec.containers[0].readinesProbe',
    ]);
    deployment.spec.template.spec.containers[0].ports[0].containerPort = 'eighty';
    expect(() => new Deployment(deployment).validate()).toThrow(/containerPort must be integer/);
  });
});

describe('the manifests agree with each other and with the hub', () => {
  const hub = find('Deployment', 'tool-hub');
  const pod = hub.spec.template;
  const container = pod.spec.containers[0];
  const config = find('ConfigMap', 'tool-hub-config').data;
  const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
    Object.entries(selector).every(([k, v]) => labels[k] === v);

  it('the Deployment selects its own pods; the Service and the PDB select the hub pods only', () => {
    expect(matches(hub.spec.selector.matchLabels, pod.metadata.labels)).toBe(true);
    const service = find('Service', 'tool-hub');
    expect(matches(service.spec.selector, pod.metadata.labels)).toBe(true);
    expect(
      matches(find('PodDisruptionBudget', 'tool-hub').spec.selector.matchLabels, pod.metadata.labels),
    ).toBe(true);
    const redisPods = ['tool-hub-redis', 'tool-hub-cache-redis'].map(
      (name) => [name, find('Deployment', name).spec.template] as const,
    );
    for (const [name, redisPod] of redisPods) {
      expect(matches(service.spec.selector, redisPod.metadata.labels), name).toBe(false);
      expect(matches(find('Service', name).spec.selector, redisPod.metadata.labels), name).toBe(true);
      const policy = find('NetworkPolicy', name).spec;
      expect(matches(policy.podSelector.matchLabels, redisPod.metadata.labels), name).toBe(true);
      expect(matches(policy.ingress[0].from[0].podSelector.matchLabels, pod.metadata.labels), name).toBe(
        true,
      );
      // Each Service and NetworkPolicy selects its own Redis only.
      const [, other] = redisPods.find(([n]) => n !== name)!;
      expect(matches(find('Service', name).spec.selector, other.metadata.labels), name).toBe(false);
      expect(matches(policy.podSelector.matchLabels, other.metadata.labels), name).toBe(false);
    }
  });

  it('the Service and the probes point to the container port; the probes to /readyz and /healthz', () => {
    const port = container.ports.find((p: Doc) => p.name === 'http');
    expect(port.containerPort).toBe(Number(config.PORT));
    expect(find('Service', 'tool-hub').spec.ports[0].targetPort).toBe('http');
    expect(container.readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.startupProbe.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(pod.metadata.annotations['prometheus.io/port']).toBe(config.PORT);
    expect(pod.metadata.annotations['prometheus.io/path']).toBe('/metrics');
    expect(container.envFrom[0].configMapRef.name).toBe('tool-hub-config');
    const redis = find('Service', 'tool-hub-redis');
    expect(config.REDIS_URL).toBe(`redis://${redis.metadata.name}:${redis.spec.ports[0].port}`);
    const cache = find('Service', 'tool-hub-cache-redis');
    expect(config.CACHE_REDIS_URL).toBe(`redis://${cache.metadata.name}:${cache.spec.ports[0].port}`);
  });

  it('the limiter\'s Redis never evicts; the result cache\'s evicts least recently used results (docs/operations.md, "Result cache")', () => {
    const policyOf = (name: string) => {
      const args: string[] = find('Deployment', name).spec.template.spec.containers[0].args;
      return {
        policy: args[args.indexOf('--maxmemory-policy') + 1],
        maxmemory: args.includes('--maxmemory') ? args[args.indexOf('--maxmemory') + 1] : undefined,
      };
    };
    expect(policyOf('tool-hub-redis').policy).toBe('noeviction');
    expect(policyOf('tool-hub-cache-redis')).toEqual({
      policy: 'allkeys-lru',
      maxmemory: expect.any(String),
    });
  });

  it('runs as the image user, read-only, without privilege escalation or capabilities', () => {
    expect(pod.spec.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(readFileSync(join(root, 'Dockerfile'), 'utf8')).toMatch(/^USER node$/m);
    expect(container.securityContext).toEqual({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    const tmp = container.volumeMounts.find((v: Doc) => v.mountPath === '/tmp');
    expect(pod.spec.volumes.find((v: Doc) => v.name === tmp.name).emptyDir).toBeDefined();
  });

  it('enforces Pod Security "restricted", and every pod meets its container rules', () => {
    expect(find('Namespace', 'tool-hub').metadata.labels['pod-security.kubernetes.io/enforce']).toBe(
      'restricted',
    );
    for (const { doc } of manifests.filter((m) => m.doc.kind === 'Deployment')) {
      const spec = doc.spec.template.spec;
      expect(spec.securityContext.runAsNonRoot, doc.metadata.name).toBe(true);
      expect(spec.securityContext.seccompProfile?.type, doc.metadata.name).toBe('RuntimeDefault');
      for (const c of spec.containers) {
        expect(c.securityContext.allowPrivilegeEscalation, c.name).toBe(false);
        expect(c.securityContext.capabilities.drop, c.name).toEqual(['ALL']);
        // restricted allows adding NET_BIND_SERVICE only
        expect(c.securityContext.capabilities.add ?? [], c.name).toEqual([]);
      }
    }
  });

  it('is sized for 2 cores and 1 GiB: POOL_THREADS follows the CPU limit, the RSS bound is under the memory limit', () => {
    const { limits, requests } = container.resources;
    expect(Number(config.POOL_THREADS)).toBe(Number(limits.cpu));
    expect(requests).toEqual(limits);
    expect(limits.memory).toBe('1Gi');
    expect(Number(config.PRESSURE_MAX_RSS_BYTES)).toBeLessThan(1024 ** 3);
    expect(Number(config.PRESSURE_MAX_RSS_BYTES)).toBeGreaterThan(0.75 * 1024 ** 3);
  });

  it('the grace period covers the preStop sleep and the whole drain (SHUTDOWN_TIMEOUT_MS)', () => {
    const [command, seconds] = container.lifecycle.preStop.exec.command;
    expect(command).toBe('sleep');
    expect(Number(seconds)).toBeGreaterThanOrEqual(5);
    expect(pod.spec.terminationGracePeriodSeconds).toBeGreaterThan(
      Number(seconds) + Number(config.SHUTDOWN_TIMEOUT_MS) / 1000,
    );
  });

  it('the HPA scales the hub Deployment at least 2 replicas up, which the Deployment leaves to it', () => {
    const hpa = find('HorizontalPodAutoscaler', 'tool-hub').spec;
    expect(hpa.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'tool-hub' });
    expect(hpa.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hub.spec.replicas).toBeUndefined();
    expect(hpa.metrics.map((m: Doc) => m.type)).toEqual(['Pods']);
    // The adapter rule serves the metric under the name the HPA asks for.
    const adapter = documents(join(dir, 'optional/prometheus-adapter-values.yaml'))[0];
    expect(adapter.rules.custom.map((r: Doc) => r.name.as)).toContain(hpa.metrics[0].pods.metric.name);
  });

  it('the KEDA alternative (a CRD: checked with a JSON Schema of its own) targets the same Deployment', () => {
    const [keda] = documents(join(dir, 'optional/keda-scaledobject.yaml'));
    const ajv = new Ajv({ allErrors: true, strict: true });
    const object = (properties: Record<string, object>, required: string[] = []) => ({
      type: 'object',
      properties,
      required,
      additionalProperties: false,
    });
    const map = { type: 'object', additionalProperties: { type: 'string' } };
    const behaviour = { type: 'object' }; // an autoscaling/v2 HPA behaviour, checked below
    const validate = ajv.compile(
      object(
        {
          apiVersion: { const: 'keda.sh/v1alpha1' },
          kind: { const: 'ScaledObject' },
          metadata: object({ name: { type: 'string' }, namespace: { type: 'string' }, labels: map }, [
            'name',
          ]),
          spec: object(
            {
              scaleTargetRef: object(
                { apiVersion: { type: 'string' }, kind: { type: 'string' }, name: { type: 'string' } },
                ['name'],
              ),
              minReplicaCount: { type: 'integer', minimum: 0 },
              maxReplicaCount: { type: 'integer', minimum: 1 },
              pollingInterval: { type: 'integer', minimum: 1 },
              cooldownPeriod: { type: 'integer', minimum: 0 },
              advanced: object({ horizontalPodAutoscalerConfig: object({ behavior: behaviour }) }),
              triggers: {
                type: 'array',
                minItems: 1,
                items: object(
                  {
                    type: { const: 'prometheus' },
                    metricType: { enum: ['AverageValue', 'Value', 'Utilization'] },
                    metadata: object(
                      {
                        serverAddress: { type: 'string', pattern: '^https?://' },
                        query: { type: 'string' },
                        threshold: { type: 'string', pattern: '^[0-9.]+$' },
                        activationThreshold: { type: 'string', pattern: '^[0-9.]+$' },
                      },
                      ['serverAddress', 'query', 'threshold'],
                    ),
                  },
                  ['type', 'metadata'],
                ),
              },
            },
            ['scaleTargetRef', 'triggers'],
          ),
        },
        ['apiVersion', 'kind', 'metadata', 'spec'],
      ),
    );
    expect(validate(keda), ajv.errorsText(validate.errors)).toBe(true);
    expect(keda.spec.scaleTargetRef.name).toBe(hub.metadata.name);
    expect(keda.metadata.namespace).toBe('tool-hub');
    const hpa = find('HorizontalPodAutoscaler', 'tool-hub');
    expect(keda.spec.minReplicaCount).toBe(hpa.spec.minReplicas);
    expect(keda.spec.maxReplicaCount).toBe(hpa.spec.maxReplicas);
    // Its behaviour is an HPA's: validated as one.
    const asHpa = structuredClone(hpa);
    asHpa.spec.behavior = keda.spec.advanced.horizontalPodAutoscalerConfig.behavior;
    expect(validateStrict(new HorizontalPodAutoscaler(asHpa))).toEqual([]);
  });
});
