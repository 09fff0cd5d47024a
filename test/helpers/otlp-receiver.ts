/**
 * An OTLP/HTTP trace receiver for tests, on 127.0.0.1: `POST /v1/traces` in
 * http/protobuf (decoded with the OTel JS packages' own protobuf reader,
 * `ProtobufReader` of @opentelemetry/otlp-transformer, field numbers from
 * opentelemetry-proto's trace.proto) or http/json (OTLP/JSON: hex ids), both
 * turned into the same plain spans.
 *
 * @example
 * const receiver = await startOtlpReceiver();
 * process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
 * const [span] = await receiver.waitFor((spans) => spans.filter((span) => span.kind === SERVER));
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { ProtobufReader } from '@opentelemetry/otlp-transformer/build/src/common/protobuf/protobuf-reader.js';

export type AttributeValue = string | number | boolean | AttributeValue[] | undefined;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  /** OTLP's SpanKind: 1 internal, 2 server, 3 client. */
  kind: number;
  attributes: Record<string, AttributeValue>;
  events: { name: string; attributes: Record<string, AttributeValue> }[];
  /** 0 unset, 1 ok, 2 error. */
  status: { code: number; message: string };
  startNs: bigint;
  endNs: bigint;
  /** The resource's attributes (service.name...). */
  resource: Record<string, AttributeValue>;
}

export const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;

export interface OtlpReceiver {
  /** The base URL, as OTEL_EXPORTER_OTLP_ENDPOINT takes it. */
  url: string;
  spans: ReceivedSpan[];
  /** The content types of the exports received, in order. */
  contentTypes: string[];
  /** Resolves with `pick(spans)` once it is non-empty (and rejects after `timeoutMs`). */
  waitFor<T>(pick: (spans: ReceivedSpan[]) => T[] | undefined, timeoutMs?: number): Promise<T[]>;
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      let body = Buffer.concat(chunks);
      if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body);
      const type = String(req.headers['content-type'] ?? '');
      contentTypes.push(type);
      if (req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      if (type.includes('json')) {
        spans.push(...fromJson(JSON.parse(body.toString('utf8')) as JsonRequest));
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else {
        spans.push(...fromProtobuf(new Uint8Array(body)));
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    async waitFor(pick, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = pick(spans);
        if (found && found.length > 0) return found;
        if (Date.now() > deadline)
          throw new Error(`no such spans within ${timeoutMs} ms; received:\n${spans.map((span) => span.name).join('\n')}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// ---- http/protobuf (opentelemetry-proto: collector/trace/v1, trace/v1, common/v1, resource/v1) ----

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** Each field of a message, by number: length-delimited ones as bytes, varints as numbers, fixed64 as their 8 bytes. */
function fields(bytes: Uint8Array): { field: number; value: Uint8Array | number }[] {
  const reader = new ProtobufReader(bytes);
  const out: { field: number; value: Uint8Array | number }[] = [];
  while (!reader.isAtEnd()) {
    const { fieldNumber, wireType } = reader.readTag();
    if (wireType === 0) out.push({ field: fieldNumber, value: reader.readVarint() });
    else if (wireType === 2) out.push({ field: fieldNumber, value: reader.readBytes() });
    else if (wireType === 1 || wireType === 5) {
      const size = wireType === 1 ? 8 : 4;
      out.push({ field: fieldNumber, value: bytes.subarray(reader.pos, reader.pos + size) });
      reader.skip(wireType);
    } else reader.skip(wireType);
  }
  return out;
}

const text = (value: Uint8Array | number) => Buffer.from(value as Uint8Array).toString('utf8');
const fixed64 = (value: Uint8Array | number) => Buffer.from(value as Uint8Array).readBigUInt64LE(0);

function anyValue(bytes: Uint8Array): AttributeValue {
  for (const { field, value } of fields(bytes)) {
    switch (field) {
      case 1:
        return text(value);
      case 2:
        return value === 1;
      case 3:
        return value as number;
      case 4:
        return Buffer.from(value as Uint8Array).readDoubleLE(0);
      case 5:
        return fields(value as Uint8Array)
          .filter((item) => item.field === 1)
          .map((item) => anyValue(item.value as Uint8Array));
    }
  }
  return undefined;
}

function keyValues(list: { field: number; value: Uint8Array | number }[], number: number): Record<string, AttributeValue> {
  const attributes: Record<string, AttributeValue> = {};
  for (const { field, value } of list) {
    if (field !== number) continue;
    let key = '';
    let found: AttributeValue;
    for (const part of fields(value as Uint8Array)) {
      if (part.field === 1) key = text(part.value);
      if (part.field === 2) found = anyValue(part.value as Uint8Array);
    }
    attributes[key] = found;
  }
  return attributes;
}

function fromProtobuf(body: Uint8Array): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of fields(body).filter((item) => item.field === 1)) {
    const parts = fields(resourceSpans.value as Uint8Array);
    const resourceField = parts.find((item) => item.field === 1);
    const resource = resourceField ? keyValues(fields(resourceField.value as Uint8Array), 1) : {};
    for (const scopeSpans of parts.filter((item) => item.field === 2)) {
      for (const spanField of fields(scopeSpans.value as Uint8Array).filter((item) => item.field === 2)) {
        const span = fields(spanField.value as Uint8Array);
        const one = (number: number) => span.find((item) => item.field === number)?.value;
        const statusFields = one(15) ? fields(one(15) as Uint8Array) : [];
        spans.push({
          traceId: hex(one(1) as Uint8Array),
          spanId: hex(one(2) as Uint8Array),
          parentSpanId: one(4) ? hex(one(4) as Uint8Array) : '',
          name: one(5) ? text(one(5)!) : '',
          kind: (one(6) as number | undefined) ?? 0,
          startNs: fixed64(one(7)!),
          endNs: fixed64(one(8)!),
          attributes: keyValues(span, 9),
          events: span
            .filter((item) => item.field === 11)
            .map((item) => {
              const event = fields(item.value as Uint8Array);
              const name = event.find((part) => part.field === 2);
              return { name: name ? text(name.value) : '', attributes: keyValues(event, 3) };
            }),
          status: {
            code: (statusFields.find((item) => item.field === 3)?.value as number | undefined) ?? 0,
            message: statusFields.some((item) => item.field === 2) ? text(statusFields.find((item) => item.field === 2)!.value) : '',
          },
          resource,
        });
      }
    }
  }
  return spans;
}

// ---- http/json (OTLP/JSON: ids in hex, 64-bit integers as numbers or strings) ----

interface JsonValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: JsonValue[] };
}
interface JsonKeyValue {
  key: string;
  value: JsonValue;
}
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: JsonKeyValue[];
  events?: { name: string; attributes?: JsonKeyValue[] }[];
  status?: { code?: number; message?: string };
}
interface JsonRequest {
  resourceSpans?: { resource?: { attributes?: JsonKeyValue[] }; scopeSpans?: { spans?: JsonSpan[] }[] }[];
}

function jsonValue(value: JsonValue): AttributeValue {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.boolValue !== undefined) return value.boolValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  if (value.doubleValue !== undefined) return value.doubleValue;
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(jsonValue);
  return undefined;
}

const jsonAttributes = (list: JsonKeyValue[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, jsonValue(value)]));

function fromJson(body: JsonRequest): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = jsonAttributes(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: span.kind,
        startNs: BigInt(span.startTimeUnixNano),
        endNs: BigInt(span.endTimeUnixNano),
        attributes: jsonAttributes(span.attributes),
        events: (span.events ?? []).map((event) => ({ name: event.name, attributes: jsonAttributes(event.attributes) })),
        status: { code: span.status?.code ?? 0, message: span.status?.message ?? '' },
        resource,
      })),
    );
  });
}
