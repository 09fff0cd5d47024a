/** When tracing is on, and how: the `telemetry` section first, the standard OTEL_* variables for the rest. */
import { loadConfig } from '../../../src/runtime/configuration.js';
import { resolveTelemetry } from '../../../src/telemetry/resolve-telemetry.js';

const base = { backends: { up: { kind: 'openai', url: 'http://127.0.0.1:1/v1' } }, routes: [{ model: '*', backend: 'up' }] };
const section = (telemetry: Record<string, unknown>) => loadConfig({ ...base, telemetry }).telemetry;

describe('resolveTelemetry', () => {
  test('off with neither a section nor an endpoint variable', () => {
    expect(resolveTelemetry(undefined, {})).toBeUndefined();
    expect(resolveTelemetry(undefined, { OTEL_SERVICE_NAME: 'x', OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' })).toBeUndefined();
  });

  test('on with OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT; the exporter reads the URL itself', () => {
    expect(resolveTelemetry(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' })).toEqual({
      protocol: 'http/protobuf',
      serviceName: 'dialect-proxy',
      captureContent: false,
    });
    expect(
      resolveTelemetry(undefined, {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_SERVICE_NAME: 'gw',
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
      }),
    ).toEqual({ protocol: 'http/json', serviceName: 'gw', captureContent: true });
  });

  test('OTEL_SDK_DISABLED, OTEL_TRACES_EXPORTER=none and enabled: false turn it off', () => {
    const env = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318' };
    expect(resolveTelemetry(undefined, { ...env, OTEL_SDK_DISABLED: 'true' })).toBeUndefined();
    expect(resolveTelemetry(section({ endpoint: 'http://c:4318' }), { OTEL_SDK_DISABLED: 'TRUE' })).toBeUndefined();
    expect(resolveTelemetry(undefined, { ...env, OTEL_TRACES_EXPORTER: 'none' })).toBeUndefined();
    expect(resolveTelemetry(section({ enabled: false }), env)).toBeUndefined();
  });

  test('the section wins over the variables where it says something', () => {
    const resolved = resolveTelemetry(
      section({
        endpoint: 'http://tempo:4318/',
        protocol: 'http/json',
        headers: { 'x-key': 'k' },
        serviceName: 'yaml',
        sampler: 'traceidratio',
        samplerRatio: 0.25,
      }),
      { OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_SERVICE_NAME: 'env' },
    );
    expect(resolved).toEqual({
      url: 'http://tempo:4318/v1/traces',
      protocol: 'http/json',
      headers: { 'x-key': 'k' },
      serviceName: 'yaml',
      sampler: { name: 'traceidratio', ratio: 0.25 },
      captureContent: false,
    });
    expect(resolveTelemetry(section({}), { OTEL_SERVICE_NAME: 'env' })).toMatchObject({ serviceName: 'env', protocol: 'http/protobuf' });
  });

  test('a protocol or sampler the proxy does not ship is an error naming the variable', () => {
    expect(() => resolveTelemetry(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' })).toThrow(
      /OTEL_EXPORTER_OTLP_PROTOCOL=grpc/,
    );
    expect(() => resolveTelemetry(undefined, { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c', OTEL_TRACES_SAMPLER: 'jaeger_remote' })).toThrow(
      /OTEL_TRACES_SAMPLER=jaeger_remote/,
    );
  });
});

describe('the telemetry section', () => {
  test.each([
    [{ protocol: 'grpc' }, /telemetry\.protocol/],
    [{ endpoint: 'tempo:4318' }, /telemetry\.endpoint/],
    [{ sampler: 'sometimes' }, /telemetry\.sampler/],
    [{ samplerRatio: 2 }, /telemetry\.samplerRatio/],
    [{ headers: { a: 1 } }, /telemetry\.headers\.a/],
    [{ captureContent: 'yes' }, /telemetry\.captureContent/],
    [{ exporter: 'zipkin' }, /exporter/],
  ])('%j is refused by name', (telemetry, message) => {
    expect(() => loadConfig({ ...base, telemetry })).toThrow(message);
  });
});
