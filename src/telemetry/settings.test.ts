import { describe, expect, it } from 'vitest';
import { loadEnv } from '../config/env.js';
import { traceSettings } from './settings.js';

const settings = (vars: Record<string, string>) => traceSettings(loadEnv(vars));

describe('traceSettings', () => {
  it('is off unless an endpoint or an exporter is named', () => {
    expect(settings({})).toBeNull();
    expect(settings({ OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toBeNull();
  });

  it('is on with an endpoint, over http/protobuf with the hub sampler unless told', () => {
    expect(settings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual({
      exporter: 'otlp',
      protocol: 'http/protobuf',
      samplerFromEnv: false,
    });
    expect(settings({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' })?.exporter).toBe(
      'otlp',
    );
    expect(settings({ OTEL_TRACES_EXPORTER: 'console' })?.exporter).toBe('console');
    expect(settings({ OTEL_TRACES_EXPORTER: 'otlp' })?.exporter).toBe('otlp');
  });

  it('takes the traces protocol over the general one, and the SDK reads a sampler that is set', () => {
    const s = settings({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4317',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc',
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: 'http/json',
      OTEL_TRACES_SAMPLER: 'always_on',
    });
    expect(s).toEqual({ exporter: 'otlp', protocol: 'http/json', samplerFromEnv: true });
    expect(
      settings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })?.protocol,
    ).toBe('grpc');
  });

  it('is off when disabled or told none, whatever else is set', () => {
    expect(settings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' })).toBeNull();
    expect(
      settings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_TRACES_EXPORTER: 'none' }),
    ).toBeNull();
    expect(
      settings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'false' }),
    ).not.toBeNull();
  });

  it('stops the boot on a protocol, sampler or ratio it does not know, naming the variable', () => {
    expect(() => settings({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/xml' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL/,
    );
    expect(() => settings({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() => settings({ OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
    expect(() => settings({ OTEL_TRACES_EXPORTER: 'zipkin' })).toThrow(/OTEL_TRACES_EXPORTER/);
  });
});
