/**
 * An OTLP trace receiver for tests (docs/operations.md, "Traces"): a real HTTP server on a
 * free loopback port that takes what the hub's exporter sends to `/v1/traces`, in OTLP/JSON
 * or OTLP/protobuf, and keeps the spans; or (`grpc`) a real gRPC server of the collector's
 * TraceService/Export, whose messages are the same protobuf. The protobuf is read by a small wire
 * decoder of its own, a second implementation beside the exporter's encoder.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as grpc from '@grpc/grpc-js';

export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, string | number | boolean>;
  status: { code: number; message: string };
}

export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Content types of the requests received. */
  readonly contentTypes: string[] = [];
  private server: Server | undefined;
  endpoint = '';

  private grpcServer: grpc.Server | undefined;

  constructor(private readonly transport: 'http' | 'grpc' = 'http') {}

  async start(): Promise<this> {
    if (this.transport === 'grpc') return this.startGrpc();
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const type = req.headers['content-type'] ?? '';
        this.contentTypes.push(type);
        try {
          if (req.url !== '/v1/traces') throw new Error(`unexpected path ${req.url}`);
          this.spans.push(...(type.includes('json') ? fromJson(body) : fromProtobuf(body)));
          res.writeHead(200, { 'content-type': type.includes('json') ? 'application/json' : type });
          res.end(type.includes('json') ? '{}' : '');
        } catch (err) {
          res.writeHead(400).end(String(err));
        }
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.endpoint = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** The collector's gRPC service by its path, its messages as raw bytes: decoded below. */
  private async startGrpc(): Promise<this> {
    const raw = (b: Buffer) => b;
    const service: grpc.ServiceDefinition = {
      Export: {
        path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
        requestStream: false,
        responseStream: false,
        requestSerialize: raw,
        requestDeserialize: raw,
        responseSerialize: raw,
        responseDeserialize: raw,
      },
    };
    this.grpcServer = new grpc.Server();
    this.grpcServer.addService(service, {
      Export: (call: grpc.ServerUnaryCall<Buffer, Buffer>, done: grpc.sendUnaryData<Buffer>) => {
        this.contentTypes.push('application/grpc');
        this.spans.push(...fromProtobuf(call.request));
        done(null, Buffer.alloc(0)); // an empty ExportTraceServiceResponse
      },
    });
    const port = await new Promise<number>((resolve, reject) =>
      this.grpcServer!.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (err, p) =>
        err ? reject(err) : resolve(p),
      ),
    );
    this.endpoint = `http://127.0.0.1:${port}`;
    return this;
  }

  async stop(): Promise<void> {
    this.grpcServer?.forceShutdown();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Waits (up to `ms`) until `found` holds of the spans received. */
  async waitFor(found: (spans: ReceivedSpan[]) => boolean, ms = 20_000): Promise<ReceivedSpan[]> {
    const until = Date.now() + ms;
    while (!found(this.spans)) {
      if (Date.now() > until)
        throw new Error(`spans not received in ${ms} ms: ${this.spans.map((s) => s.name).join(', ')}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    return this.spans;
  }
}

// ── OTLP/JSON ──

interface JsonValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
}
interface JsonKv {
  key: string;
  value: JsonValue;
}

function jsonAttributes(list: JsonKv[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    if (value.stringValue !== undefined) out[key] = value.stringValue;
    else if (value.boolValue !== undefined) out[key] = value.boolValue;
    else if (value.intValue !== undefined) out[key] = Number(value.intValue);
    else if (value.doubleValue !== undefined) out[key] = value.doubleValue;
  }
  return out;
}

function fromJson(body: Buffer): ReceivedSpan[] {
  const req = JSON.parse(String(body));
  const spans: ReceivedSpan[] = [];
  for (const rs of req.resourceSpans ?? []) {
    const service = String(jsonAttributes(rs.resource?.attributes)['service.name'] ?? '');
    for (const ss of rs.scopeSpans ?? [])
      for (const s of ss.spans ?? [])
        spans.push({
          service,
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? '',
          name: s.name,
          kind: s.kind ?? 0,
          startNs: BigInt(s.startTimeUnixNano),
          endNs: BigInt(s.endTimeUnixNano),
          attributes: jsonAttributes(s.attributes),
          status: { code: s.status?.code ?? 0, message: s.status?.message ?? '' },
        });
  }
  return spans;
}

// ── OTLP/protobuf: the protobuf wire format, only the fields read here ──

type Field = { no: number; wire: number; value: bigint | Buffer };

function* fields(buf: Buffer): Generator<Field> {
  let i = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = buf[i++]!;
      result |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (i < buf.length) {
    const tag = Number(varint());
    const no = tag >>> 3;
    const wire = tag & 7;
    if (wire === 0) yield { no, wire, value: varint() };
    else if (wire === 1) {
      yield { no, wire, value: buf.readBigUInt64LE(i) };
      i += 8;
    } else if (wire === 2) {
      const len = Number(varint());
      yield { no, wire, value: buf.subarray(i, i + len) };
      i += len;
    } else if (wire === 5) {
      yield { no, wire, value: BigInt(buf.readUInt32LE(i)) };
      i += 4;
    } else throw new Error(`wire type ${wire} not read here`);
  }
}

const all = (buf: Buffer, no: number) => [...fields(buf)].filter((f) => f.no === no).map((f) => f.value);
const bytes = (buf: Buffer, no: number) => (all(buf, no)[0] as Buffer | undefined) ?? Buffer.alloc(0);
const num = (buf: Buffer, no: number) => (all(buf, no)[0] as bigint | undefined) ?? 0n;

function anyValue(buf: Buffer): string | number | boolean {
  for (const f of fields(buf)) {
    if (f.no === 1) return String(f.value);
    if (f.no === 2) return f.value === 1n;
    if (f.no === 3) return Number(BigInt.asIntN(64, f.value as bigint));
    if (f.no === 4) {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(f.value as bigint);
      return b.readDoubleLE(0);
    }
  }
  return '';
}

function pbAttributes(list: (bigint | Buffer)[]): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const kv of list as Buffer[]) out[String(bytes(kv, 1))] = anyValue(bytes(kv, 2));
  return out;
}

function fromProtobuf(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of all(body, 1) as Buffer[]) {
    const service = String(pbAttributes(all(bytes(rs, 1), 1))['service.name'] ?? '');
    for (const ss of all(rs, 2) as Buffer[])
      for (const s of all(ss, 2) as Buffer[]) {
        const status = bytes(s, 15);
        spans.push({
          service,
          traceId: bytes(s, 1).toString('hex'),
          spanId: bytes(s, 2).toString('hex'),
          parentSpanId: bytes(s, 4).toString('hex'),
          name: String(bytes(s, 5)),
          kind: Number(num(s, 6)),
          startNs: num(s, 7),
          endNs: num(s, 8),
          attributes: pbAttributes(all(s, 9)),
          status: { code: Number(num(status, 3)), message: String(bytes(status, 2)) },
        });
      }
  }
  return spans;
}
