/**
 * Golden cases: test/golden/<dialect>/<case>/ holds what a caller sends, what
 * the proxy must send upstream, what the upstream answers and what the caller
 * must get back. A new mapping case is a new folder, not new test code.
 *
 *   case.json               backend settings and expectations (see GoldenCase), the caller's headers and the upstream's
 *   request.json            the caller's body
 *   upstream-request.json   the exact upstream body (upstream-requests.json: several, any order)
 *   upstream-response.json | upstream.sse   the upstream's answer
 *   response.json | response.sse            what the caller must receive
 *
 * The folder is named after its dialect (the registry's name), which picks the endpoint: its path
 * (openai-chat/ -> /v1/chat/completions), or for a dialect whose URL carries the model, its URL for
 * `golden-model` (gemini/ -> /v1beta/models/golden-model:generateContent; a case.json `endpoint` names
 * another method: streams are `:streamGenerateContent?alt=sse`; without `alt=sse`, one JSON array,
 * compared as JSON). Named events (`event:`) are compared too; a stream ends as its dialect's framing
 * says (`[DONE]` for chat and completions, none for Responses, Messages, Gemini).
 *
 * UPDATE_GOLDEN=1 records the observed upstream request and response instead
 * of asserting them. A file is rewritten only when a normal run would fail on it
 * (same comparison, so timings and tool-call ids alone change nothing); each
 * rewrite prints a line diff (old vs new) under the case name, and the run ends
 * with how many files were rewritten. Review every change before committing.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { diffLinesUnified, type DiffOptions } from 'jest-diff';
import { DIALECTS } from '../../src/dialects/registry.js';
import { loadConfig } from '../../src/runtime/configuration.js';
import { createLogger } from '../../src/logging/logger.js';
import { startServer, type RunningServer } from '../../src/http/server.js';
import { sseFrames, startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';

interface GoldenCase {
  description: string;
  /** The path posted to, where it is not the dialect's own (`/v1/responses/compact`). */
  endpoint?: string;
  backend: Record<string, unknown>;
  upstreamModel?: string;
  headers?: Record<string, string>;
  upstreamStatus?: number;
  upstreamHeaders?: Record<string, string>;
  expectStatus?: number;
  expectHeaders?: Record<string, string>;
  /** Headers the upstream request must carry (lower-case names), e.g. the `anthropic-beta` relayed to an anthropic backend. */
  expectUpstreamHeaders?: Record<string, string>;
  /** Keys the proxy stamps with its own clock in this case (`created`, where the upstream's answer has none: Anthropic's). */
  clockKeys?: string[];
}

const root = path.dirname(fileURLToPath(import.meta.url));
const update = process.env.UPDATE_GOLDEN === '1';
const cases = readdirSync(root, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dialect) => readdirSync(path.join(root, dialect.name)).map((name) => path.join(dialect.name, name)));

const read = (dir: string, file: string) => readFileSync(path.join(root, dir, file), 'utf8');
const has = (dir: string, file: string) => existsSync(path.join(root, dir, file));
const json = (dir: string, file: string) => JSON.parse(read(dir, file)) as unknown;

/** Update mode: files rewritten so far, as `<case>/<file>`, for the closing summary. */
const rewritten: string[] = [];

/** Uncoloured, so the diff reads the same in a terminal, a CI log or a file. */
const plain = (text: string) => text;
const DIFF_OPTIONS: DiffOptions = {
  omitAnnotationLines: true,
  expand: false,
  contextLines: 2,
  aColor: plain,
  bColor: plain,
  changeColor: plain,
  commonColor: plain,
  patchColor: plain,
  changeLineTrailingSpaceColor: plain,
  commonLineTrailingSpaceColor: plain,
};

/**
 * Update mode: writes `content` to the case's `file` unless `unchanged` says the
 * old file already matches (then it stays untouched, keeping reviews free of noise),
 * and prints what changed.
 */
function rewrite(dir: string, file: string, content: string, unchanged: (old: string) => boolean): void {
  const target = path.join(root, dir, file);
  const old = existsSync(target) ? readFileSync(target, 'utf8') : undefined;
  if (old !== undefined && matches(old, unchanged)) return;
  const changes = diffLinesUnified((old ?? '').split('\n'), content.split('\n'), DIFF_OPTIONS);
  console.log(`UPDATE_GOLDEN ${dir}: ${old === undefined ? 'new' : 'changed'} ${file}\n--- ${file} (old)\n+++ ${file} (new)\n${changes}`);
  writeFileSync(target, content);
  rewritten.push(`${dir}/${file}`);
}

/** A hand-broken old file (JSON that no longer parses) counts as changed, not as a crash. */
function matches(old: string, unchanged: (old: string) => boolean): boolean {
  try {
    return unchanged(old);
  } catch {
    return false;
  }
}

/** The dialect of a case, by its folder (test/golden/<dialect>/<case>). */
function dialectOf(dir: string) {
  const [folder] = dir.split(path.sep);
  const dialect = DIALECTS.find(({ name }) => name === folder);
  if (!dialect) throw new Error(`test/golden/${folder}/ is named after no dialect (${DIALECTS.map(({ name }) => name).join(', ')})`);
  return dialect;
}

/** The endpoint each dialect folder is served on. */
function endpointOf(dir: string): string {
  const dialect = dialectOf(dir);
  return dialect.route?.urlFor('golden-model', false) ?? dialect.path;
}

/** The proxy's own clock: a Response's `completed_at` (seconds) is read when the answer ends. */
const CLOCK_KEYS = new Set(['completed_at']);

/**
 * A Responses answer's id is the proxy's own and random (`resp_<base>`), and its items are
 * named after the same base (`msg_<base>`, `rs_<base>`, `fc_<base>_<i>`, `call_<base>_<i>`).
 */
const RESPONSE_ID = /^(resp|msg|rs|cmp)_([A-Za-z0-9-]+)$|^(fc|call)_([A-Za-z0-9-]+)(_\d+)$/;

/** What the proxy seals (src/dialects/sealer.ts) is random in its nonce; the e2e tests open it (responses-sealed-items.test.ts). */
const SEALED = /^dpx1\./;

/** The key every case's proxy seals under: a request.json may hold a value sealed with it. */
const GOLDEN_ENCRYPTION_KEY = 'golden-cases-encryption-key';

/**
 * Timings, the proxy's clock, the ids the proxy gives tool calls it parses and a Responses
 * answer's random id differ on every run; everything else must match exactly. Each id base
 * becomes `<id-1>`, `<id-2>`... in order of appearance (`bases`, one map per document), so
 * the comparison still checks that an answer's items share its id's base.
 */
function normalize(value: unknown, clock: ReadonlySet<string> = CLOCK_KEYS, bases = new Map<string, string>()): unknown {
  if (Array.isArray(value)) return value.map((item) => normalize(item, clock, bases));
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        (/time/.test(key) || clock.has(key)) && typeof item === 'number' ? '<seconds>' : normalize(item, clock, bases),
      ]),
    );
  }
  if (typeof value !== 'string') return value;
  if (/^call_[0-9a-f]{24}$/.test(value)) return '<call-id>';
  if (SEALED.test(value)) return '<sealed>';
  const id = RESPONSE_ID.exec(value);
  if (!id) return value;
  const base = id[2] ?? id[4];
  if (!bases.has(base)) bases.set(base, `<id-${bases.size + 1}>`);
  return `${id[1] ?? id[3]}_${bases.get(base)}${id[5] ?? ''}`;
}

/**
 * An SSE transcript's frames: each data payload, as `{event, data}` where the frame
 * names its event (the Responses stream names every one); data alone otherwise,
 * so the chat and completions transcripts read exactly as `sseFrames` reads them.
 */
function sseTranscript(text: string): unknown[] {
  return text.split(/\r?\n\r?\n/).flatMap((frame) => {
    const event = /^event:[ ]?(.*)$/m.exec(frame)?.[1];
    const data = sseFrames(frame);
    return event === undefined ? data : data.map((payload) => ({ event, data: payload }));
  });
}

describe('golden cases', () => {
  let upstream: MockUpstream;
  beforeAll(async () => {
    upstream = await startMockUpstream();
  });
  afterAll(async () => {
    await upstream.close();
    if (update)
      console.log(
        rewritten.length > 0
          ? `UPDATE_GOLDEN: rewrote ${rewritten.length} file(s):\n  ${rewritten.join('\n  ')}`
          : 'UPDATE_GOLDEN: no golden file changed',
      );
  });

  test.each(cases)('%s', async (dir) => {
    const spec = json(dir, 'case.json') as GoldenCase;
    const clock = new Set([...CLOCK_KEYS, ...(spec.clockKeys ?? [])]);
    const endpoint = spec.endpoint ?? endpointOf(dir);
    upstream.requests.length = 0;
    const upstreamBody = has(dir, 'upstream.sse') ? { sse: read(dir, 'upstream.sse') } : { json: json(dir, 'upstream-response.json') };
    upstream.reply({
      status: spec.upstreamStatus ?? 200,
      ...(spec.upstreamHeaders ? { headers: spec.upstreamHeaders } : {}),
      ...upstreamBody,
    });

    const config = loadConfig({
      // A server per case: a warm-up each (test/e2e/warm-up.test.ts covers it) would add a second per case.
      server: { warmUpMs: 0 },
      responses: { encryptionKey: GOLDEN_ENCRYPTION_KEY },
      backends: { golden: { url: upstream.url, ...spec.backend } },
      routes: [{ model: '*', backend: 'golden', ...(spec.upstreamModel ? { upstreamModel: spec.upstreamModel } : {}) }],
    });
    const server: RunningServer = await startServer(config, { port: 0, host: '127.0.0.1', logger: createLogger({ silent: true }) });
    try {
      const response = await fetch(server.url + endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...spec.headers },
        body: read(dir, 'request.json'),
      });
      const text = await response.text();
      expect({ status: response.status, body: text }).toMatchObject({ status: spec.expectStatus ?? 200 });
      for (const [name, value] of Object.entries(spec.expectHeaders ?? {})) expect(response.headers.get(name)).toBe(value);

      const sent = upstream.requests.map((request) => request.body);
      for (const [name, value] of Object.entries(spec.expectUpstreamHeaders ?? {}))
        expect({ [name]: upstream.requests[0]?.headers[name] }).toEqual({ [name]: value });
      if (has(dir, 'upstream-requests.json')) {
        const sortKey = (body: unknown) => JSON.stringify(body);
        expect(sent.map(sortKey).sort()).toEqual((json(dir, 'upstream-requests.json') as unknown[]).map(sortKey).sort());
      } else if (update) {
        if (sent.length > 0)
          rewrite(dir, 'upstream-request.json', JSON.stringify(sent[0], null, 2) + '\n', (old) =>
            isDeepStrictEqual(sent[0], JSON.parse(old)),
          );
      } else if (has(dir, 'upstream-request.json')) {
        expect(sent).toHaveLength(1);
        expect(sent[0]).toEqual(json(dir, 'upstream-request.json'));
      } else {
        expect(sent).toHaveLength(0); // rejected before reaching the upstream
      }

      const streamed = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
      if (update) {
        // Unchanged means what the assertions below would accept.
        if (streamed)
          rewrite(dir, 'response.sse', text, (old) =>
            isDeepStrictEqual(normalize(sseTranscript(text), clock), normalize(sseTranscript(old), clock)),
          );
        else
          rewrite(dir, 'response.json', JSON.stringify(JSON.parse(text), null, 2) + '\n', (old) =>
            isDeepStrictEqual(normalize(JSON.parse(text), clock), normalize(JSON.parse(old), clock)),
          );
        return;
      }
      if (streamed) {
        // A Responses or Messages stream ends with its last typed event (response.completed, message_stop, error...), never [DONE].
        const { end } = dialectOf(dir).sse;
        if (end === '') expect(text).not.toContain('data: [DONE]');
        else expect(text.endsWith(end)).toBe(true);
        expect(normalize(sseTranscript(text), clock)).toEqual(normalize(sseTranscript(read(dir, 'response.sse')), clock));
      } else {
        expect(normalize(JSON.parse(text), clock)).toEqual(normalize(json(dir, 'response.json'), clock));
      }
    } finally {
      await server.close();
    }
  });
});
