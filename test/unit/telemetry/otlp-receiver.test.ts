/**
 * The test receiver's two decoders agree with the OTel packages' own encoders:
 * spans made by the SDK, serialized by @opentelemetry/otlp-transformer in
 * protobuf and in JSON, decode to the same plain spans.
 */
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { JsonTraceSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { startOtlpReceiver, SPAN_KIND } from '../../helpers/otlp-receiver.js';

test('protobuf and JSON exports decode to the same spans', async () => {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'decoder-check' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('t');
  const span = tracer.startSpan('chat m', { kind: SpanKind.SERVER, attributes: { s: 'x', i: 42, d: 0.5, b: true, list: ['a', 'b'] } });
  span.addEvent('fallback', { from: 'a', to: 'b' });
  span.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
  span.end();
  const spans = exporter.getFinishedSpans();

  const receiver = await startOtlpReceiver();
  try {
    for (const [type, body] of [
      ['application/x-protobuf', ProtobufTraceSerializer.serializeRequest(spans)],
      ['application/json', JsonTraceSerializer.serializeRequest(spans)],
    ] as const) {
      const response = await fetch(`${receiver.url}/v1/traces`, {
        method: 'POST',
        headers: { 'content-type': type },
        body: Buffer.from(body!),
      });
      expect(response.status).toBe(200);
    }
    const [fromProto, fromJson] = receiver.spans;
    expect(fromProto).toEqual(fromJson);
    expect(fromProto).toMatchObject({
      traceId: span.spanContext().traceId,
      spanId: span.spanContext().spanId,
      parentSpanId: '',
      name: 'chat m',
      kind: SPAN_KIND.server,
      attributes: { s: 'x', i: 42, d: 0.5, b: true, list: ['a', 'b'] },
      events: [{ name: 'fallback', attributes: { from: 'a', to: 'b' } }],
      status: { code: 2, message: 'boom' },
      resource: expect.objectContaining({ 'service.name': 'decoder-check' }),
    });
    expect(fromProto!.endNs).toBeGreaterThanOrEqual(fromProto!.startNs);
  } finally {
    await receiver.close();
    await provider.shutdown();
  }
});
