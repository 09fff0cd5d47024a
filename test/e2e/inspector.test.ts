/**
 * The inspector page (GET /): served static with a strict CSP, off when the operator says so,
 * mounted by the middleware only when asked (its API calls under the router's mount path); its
 * API (the backend kinds, a translation for a default backend of one kind, as `translate --to`);
 * and the page itself in a real browser: Chromium from npm (`@sparticuz/chromium`, unpacked by
 * test/helpers/npm-chromium.ts, driven by playwright-core), so `npm test` needs Node alone, never a
 * system browser (the test checks which executable runs). Driven with a Responses body, each
 * example, each target kind, at 1280 and 700 px, with screenshots of both widths written to a
 * temp dir and the layout checked by element boxes. No browser here is a failure, never a skip.
 */
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { BACKEND_KINDS } from '../../adapters/registry.js';
import { createDialectProxy } from '../../src/http/middleware.js';
import { createLogger } from '../../src/logging/logger.js';
import type { RunningServer } from '../../src/http/server.js';
import { launchNpmChromium, type LaunchedProcess, type NpmChromium } from '../helpers/npm-chromium.js';
import { startMockUpstream, type MockReply, type MockUpstream, type RecordedRequest } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

// What the functions run in the page read there (the page's CSP allows no string evaluation).
declare const document: {
  querySelector(selector: string): { textContent: string | null } | null;
  documentElement: { scrollWidth: number };
  cookie: string;
};
declare const window: { innerWidth: number };
declare const localStorage: { length: number };
declare const sessionStorage: { length: number };

const KEY = 'inspector-test-key';
/** A laptop screen and a narrow window. */
const WIDTHS = [1280, 700];
const SCREENSHOTS = mkdtempSync(join(tmpdir(), 'dialect-proxy-inspector-'));

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

/** The OpenAI upstream: a tool call when the request has tools, else text; streamed when asked. */
function answer(request: RecordedRequest): MockReply {
  const body = request.body as Record<string, unknown>;
  if (body.stream) {
    return {
      sse: [
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Hello' }),
        chunk({ content: ' there.' }),
        chunk({}, 'stop'),
        'data: [DONE]\n\n',
      ],
    };
  }
  const tools = Array.isArray(body.tools) && body.tools.length > 0;
  const message = tools
    ? {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
      }
    : { role: 'assistant', content: 'Hello there.' };
  return {
    json: {
      id: 'chatcmpl-2',
      object: 'chat.completion',
      created: 1700000000,
      model: 'gpt-4o-mini',
      choices: [{ index: 0, message, finish_reason: tools ? 'tool_calls' : 'stop' }],
      usage: { prompt_tokens: 9, completion_tokens: 3, total_tokens: 12 },
    },
  };
}

const RESPONSES_BODY = {
  model: 'gpt-4o-mini',
  instructions: 'Be brief.',
  input: 'What is the weather in Paris?',
  tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
  max_output_tokens: 64,
};

const EXAMPLES = [
  'Chat Completions, streamed',
  'Chat Completions with a tool',
  'Completions, streamed',
  'Completions with thinking',
  'Responses with a function tool',
  'Responses, streamed, with reasoning',
  'Anthropic Messages with thinking, streamed',
  'Anthropic Messages with a tool',
];

describe('inspector page', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;

  beforeAll(async () => {
    upstream = await startMockUpstream(answer);
    proxy = await startProxyFor(upstream.url, { kind: 'openai', speaks: ['chat'] }, { server: { apiKeys: [KEY] } });
  });
  afterAll(async () => {
    await proxy.close();
    await upstream.close();
  });

  test('GET / is one static page: everything inline, a strict Content-Security-Policy, no key needed to load it', async () => {
    const response = await fetch(`${proxy.url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const csp = response.headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(
      /^default-src 'none'; script-src 'sha256-[A-Za-z0-9+/=]+'; style-src 'sha256-[A-Za-z0-9+/=]+'; connect-src 'self';/,
    );
    expect(csp).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    const html = await response.text();
    expect(Number(response.headers.get('content-length'))).toBe(Buffer.byteLength(html));
    expect(html).toContain('<title>dialect-proxy inspector</title>');
    expect(html).toContain('<meta name="dialect-proxy-base" content="/">');
    // Nothing is fetched from elsewhere: no CDN, no external script, style or font.
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/localStorage|sessionStorage|document\.cookie|indexedDB/);
  });

  test('server.inspector: false turns it off, its API too', async () => {
    const off = await startProxyFor(upstream.url, { kind: 'openai' }, { server: { inspector: false } });
    try {
      expect((await fetch(`${off.url}/`)).status).toBe(404);
      expect((await fetch(`${off.url}/inspector/kinds`)).status).toBe(404);
    } finally {
      await off.close();
    }
  });

  test('the middleware serves it only when asked, at the path asked; the page calls below the router, wherever it is mounted', async () => {
    const config = { backends: { up: { kind: 'openai', url: upstream.url } }, routes: [{ model: '*', backend: 'up' }] };
    const logger = createLogger({ silent: true });
    const plain = createDialectProxy(config, { logger });
    const asked = createDialectProxy(config, { logger, inspector: '/inspect' });
    const app = express();
    app.use('/a', plain);
    app.use('/b', asked);
    app.get('/a', (_req, res) => {
      res.send('host app');
    });
    const server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
    });
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      expect(await (await fetch(`${base}/a`)).text()).toBe('host app');
      expect((await fetch(`${base}/a/inspector/kinds`)).status).toBe(404);
      const page = await fetch(`${base}/b/inspect`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('dialect-proxy inspector');
      expect(html).toContain('<meta name="dialect-proxy-base" content="/b/">');
      expect(Number(page.headers.get('content-length'))).toBe(Buffer.byteLength(html));
      const kinds = (await (await fetch(`${base}/b/inspector/kinds`)).json()) as { data: { name: string }[] };
      expect(kinds.data.map(({ name }) => name).sort()).toEqual(BACKEND_KINDS.map(({ name }) => name).sort());
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([plain.close(), asked.close()]);
    }
  });

  describe('its API: a translation for a default backend of any kind (translate --to), offline', () => {
    const post = (query: string, body: unknown, key = KEY) =>
      fetch(`${proxy.url}/inspector/translate?${query}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify(body),
      });

    test('the list of kinds: every kind of the registry, whether it runs in the proxy, what it speaks', async () => {
      const response = await fetch(`${proxy.url}/inspector/kinds`);
      expect(response.status).toBe(200);
      const { data } = (await response.json()) as { data: { name: string; remote: boolean; speaks: string[] }[] };
      expect(data.map(({ name }) => name)).toEqual(BACKEND_KINDS.map(({ name }) => name));
      expect(data.find(({ name }) => name === 'llama-cpp')).toMatchObject({ remote: false });
      expect(data.find(({ name }) => name === 'openai')).toMatchObject({ remote: true, speaks: ['chat'] });
    });

    test('each kind answers for a Responses body, though the proxy routes everything to one OpenAI backend; nothing is sent', async () => {
      upstream.requests.length = 0;
      for (const { name } of BACKEND_KINDS) {
        const response = await post(`to=${name}&endpoint=responses`, RESPONSES_BODY);
        const report = (await response.json()) as Record<string, unknown>;
        const dryRun = (report.object === 'dialect.dry_run' ? report : report.dry_run) as {
          kind: string;
          dialect: string;
          upstream: unknown[];
        };
        expect({ name, kind: dryRun.kind, dialect: dryRun.dialect }).toEqual({ name, kind: name, dialect: 'openai-responses' });
        expect(dryRun.upstream.length).toBeGreaterThan(0);
      }
      expect(upstream.requests).toHaveLength(0);
    });

    test("a field the kind refuses: the caller's error, the report beside it", async () => {
      const response = await post('to=openai', { model: 'm', prompt: 'Hi', top_k: 5 });
      expect(response.status).toBe(400);
      const body = (await response.json()) as { error: { param: string }; dry_run: { verdict: string } };
      expect(body.error.param).toBe('top_k');
      expect(body.dry_run.verdict).toBe('rejected');
    });

    test('an unknown kind or speaks is a 400 naming it; the key is needed as on /v1', async () => {
      const unknown = await post('to=nope', RESPONSES_BODY);
      expect(unknown.status).toBe(400);
      expect(((await unknown.json()) as { error: { param: string } }).error.param).toBe('to');
      const speaks = await post('to=anthropic&speaks=chat', RESPONSES_BODY);
      expect(((await speaks.json()) as { error: { param: string } }).error.param).toBe('speaks');
      expect((await post('to=openai', RESPONSES_BODY, 'wrong')).status).toBe(401);
    });
  });

  describe('in Chromium from npm', () => {
    let browser: Browser;
    let launched: LaunchedProcess;
    let npm: NpmChromium;

    beforeAll(async () => {
      ({ browser, launched, chromium: npm } = await launchNpmChromium());
    }, 120_000);
    afterAll(async () => {
      await browser?.close();
    });

    /** A page on the proxy, the key typed, errors of the page collected. */
    async function open(width = 1280): Promise<{ page: Page; problems: string[]; calls: string[] }> {
      const page = await browser.newPage({ viewport: { width, height: 900 } });
      const problems: string[] = [];
      const calls: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        // A translation the target refuses is a 4xx answer the page shows; the browser logs each as well.
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(message.text());
      });
      page.on('request', (request) => {
        if (request.method() === 'POST') calls.push(new URL(request.url()).pathname + new URL(request.url()).search);
      });
      await page.goto(`${proxy.url}/`);
      // The preloaded example's translation on load (a 401 here, before the key): not the test's call.
      await page.waitForFunction(() => (document.querySelector('#verdict-error')?.textContent ?? '').includes('API key'));
      await page.fill('#key', KEY);
      // The key entered: the example is translated; from here on, the calls are the test's.
      await page.press('#key', 'Enter');
      await page.waitForFunction(() => document.querySelector('#verdict')?.textContent !== '-');
      calls.length = 0;
      // The target selector is filled from the proxy's list of kinds.
      await page.waitForFunction(() => (document.querySelector('#target')?.textContent ?? '').includes('llama-cpp'));
      return { page, problems, calls };
    }

    const verdictShown = (page: Page) =>
      page.waitForFunction(() =>
        ['lossless', 'lossy', 'rejected', 'invalid'].includes(document.querySelector('#verdict')?.textContent ?? ''),
      );

    test('the browser is the one from npm, with a fresh profile: not /usr/bin/chromium', () => {
      expect(npm.version).toBe('147.0.0');
      expect(browser.version()).toMatch(/^147\./);
      expect(launched.executable).toBe(npm.executablePath);
      expect(launched.executable.startsWith(join(tmpdir(), 'dialect-proxy-chromium-'))).toBe(true);
      expect(launched.executable).not.toMatch(/^\/usr\//);
      expect(launched.userDataDir).toMatch(new RegExp(`^${tmpdir()}/playwright_chromiumdev_profile-`));
    });

    test('on load the preloaded example is translated: here the proxy asks for a key, so the page says so; the key entered, the verdict', async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      try {
        await page.goto(`${proxy.url}/`);
        await page.waitForFunction(() => (document.querySelector('#verdict-error')?.textContent ?? '').includes('API key'));
        expect(await page.textContent('#verdict')).toBe('-');
        await page.fill('#key', KEY);
        await page.press('#key', 'Enter');
        await verdictShown(page);
        expect(await page.textContent('#verdict')).toMatch(/^(lossless|lossy)$/);
        // The longest example name fits its selector: the text's width, measured in the selector's font, against the selector's.
        const room = await page.evaluate(`(() => {
          const select = document.querySelector('#example');
          const longest = [...select.options].map((option) => option.text).sort((a, b) => b.length - a.length)[0];
          const probe = Object.assign(document.createElement('span'), { textContent: longest });
          probe.style.font = getComputedStyle(select).font;
          probe.style.whiteSpace = 'pre';
          document.body.appendChild(probe);
          const needed = probe.getBoundingClientRect().width;
          probe.remove();
          return select.getBoundingClientRect().width - needed;
        })()`);
        // Room left for the selector's arrow and padding.
        expect(room).toBeGreaterThan(16);
      } finally {
        await page.close();
      }
    });

    test.each(WIDTHS)(
      'a Responses body at %i px: detected, translated, sent to /v1/responses, the tool call of the reply shown',
      async (width) => {
        const { page, problems, calls } = await open(width);
        try {
          await page.fill('#request', JSON.stringify(RESPONSES_BODY, null, 2));
          expect(await page.textContent('#detected')).toBe('detected: Responses, POST /v1/responses');
          await page.click('#translate');
          await verdictShown(page);
          expect(await page.textContent('#verdict')).toBe('lossless');
          const changes = (await page.locator('#changes tr').allTextContents()).join('\n');
          expect(changes).toContain('max_output_tokens → max_completion_tokens');
          expect(changes).toContain('input → messages');
          // The request on both sides, the changes marked on each.
          const marked = await page.locator('#caller-body .mark-renamed').allTextContents();
          expect(marked.join('\n')).toContain('"max_output_tokens": 64');
          expect((await page.locator('.upstream-body .mark-renamed').allTextContents()).join('\n')).toContain(
            '"max_completion_tokens": 64',
          );
          expect(await page.textContent('#upstream .call-title')).toBe('POST /chat/completions');
          expect(await page.textContent('#upstream-title')).toBe('Upstream request');

          upstream.requests.length = 0;
          await page.click('#send');
          await page.waitForSelector('#reply-tools .tool-call');
          expect(await page.locator('#reply-tools .tool-call td').allTextContents()).toEqual([
            'get_weather',
            'call_1',
            '{ "city": "Paris" }',
          ]);
          expect(await page.textContent('#status')).toContain('200 from backend "upstream": completed');
          expect(await page.textContent('#reply-raw')).toContain('"object": "response"');
          expect(calls).toEqual(['/v1/responses', '/v1/responses']);
          expect(upstream.requests).toHaveLength(1);
          expect(upstream.requests[0]).toMatchObject({
            path: '/v1/chat/completions',
            body: { model: 'gpt-4o-mini', max_completion_tokens: 64 },
          });

          // Copy as curl: the same endpoint and body, the key left out.
          await page.click('#copy-curl');
          const curl = (await page.textContent('#curl')) ?? '';
          expect(curl).toContain(`curl '${proxy.url}/v1/responses'`);
          expect(curl).toContain('"input":"What is the weather in Paris?"');
          expect(curl).toContain('authorization: Bearer $PROXY_API_KEY');
          expect(curl).not.toContain(KEY);
          expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([0, 0, '']);
          expect(problems).toEqual([]);
        } finally {
          await page.close();
        }
      },
      60_000,
    );

    test.each(WIDTHS)(
      'each example at %i px: picking it clears the previous result and translates it; each succeeds, translated and sent',
      async (width) => {
        const { page, problems, calls } = await open(width);
        try {
          for (const [i, name] of EXAMPLES.entries()) {
            // Something on screen from before: a result and an error.
            await page.evaluate(() => {
              (document.querySelector('#reply-text') as { textContent: string }).textContent = 'left over';
              (document.querySelector('#error') as { textContent: string }).textContent = 'left over';
            });
            calls.length = 0;
            await page.selectOption('#example', { label: name });
            expect(await page.textContent('#reply-text')).toBe('');
            expect(await page.textContent('#error')).toBe('');
            await verdictShown(page);
            const verdict = await page.textContent('#verdict');
            const errors = `${await page.textContent('#error')}${await page.textContent('#verdict-error')}`;
            expect({ name, verdict, errors }).toEqual({ name, verdict: expect.stringMatching(/^(lossless|lossy)$/), errors: '' });
            const endpoint = ['chat', 'chat', 'completions', 'completions', 'responses', 'responses', 'messages', 'messages'][i];
            const path = {
              chat: '/v1/chat/completions',
              completions: '/v1/completions',
              responses: '/v1/responses',
              messages: '/v1/messages',
            }[endpoint as 'chat'];
            expect({ name, calls }).toEqual({ name, calls: [path] });

            await page.click('#send');
            await page.waitForFunction(() => /^200 .*(stream ended|: )/.test(document.querySelector('#status')?.textContent ?? ''));
            const shown = `${await page.textContent('#reply-text')}|${await page.locator('#reply-tools .tool-call').count()}`;
            expect({ name, shown }).toEqual({ name, shown: name.includes('tool') ? '|1' : 'Hello there.|0' });
          }
          expect(problems).toEqual([]);
        } finally {
          await page.close();
        }
      },
      120_000,
    );

    test.each(WIDTHS)(
      'each target kind at %i px: what a default backend of it gets, offline; the bundled worker labelled as internal',
      async (width) => {
        const { page, problems, calls } = await open(width);
        try {
          await page.fill('#request', JSON.stringify(RESPONSES_BODY, null, 2));
          upstream.requests.length = 0;
          for (const { name, remote } of BACKEND_KINDS) {
            calls.length = 0;
            await page.selectOption('#target', name);
            await page.waitForFunction(
              (kind) => (document.querySelector('#target-label')?.textContent ?? '').startsWith(`a default ${kind} backend`),
              name,
            );
            expect(calls).toHaveLength(1);
            expect(calls[0]).toMatch(new RegExp(`^/inspector/translate\\?to=${name}&endpoint=responses(&speaks=default)?$`));
            const titles = await page.locator('#upstream .call-title').allTextContents();
            expect(titles.length).toBeGreaterThan(0);
            if (remote) {
              expect(await page.textContent('#upstream-title')).toBe('Upstream request');
              for (const title of titles) expect(title).toMatch(/^POST \//);
            } else {
              expect(await page.textContent('#upstream-title')).toContain("The bundled worker's input (internal");
              for (const title of titles) expect(title).not.toMatch(/POST/);
            }
          }
          // speaks, for a kind that takes it: Fireworks over completions only.
          await page.selectOption('#target', 'fireworks');
          await page.waitForFunction(() => (document.querySelector('#target-label')?.textContent ?? '').startsWith('a default fireworks'));
          await page.selectOption('#speaks', 'completions');
          await page.waitForFunction(() => document.querySelector('#upstream .call-title')?.textContent === 'POST /completions');
          expect(upstream.requests).toHaveLength(0);
          expect(problems).toEqual([]);
        } finally {
          await page.close();
        }
      },
      120_000,
    );

    test.each(WIDTHS)(
      'layout at %i px: two columns, nothing overlaps, a screenshot',
      async (width) => {
        const { page, problems } = await open(width);
        try {
          await page.selectOption('#example', { label: 'Responses with a function tool' });
          await verdictShown(page);
          await page.click('#send');
          await page.waitForSelector('#reply-tools .tool-call');
          const box = async (selector: string) => {
            const found = await page.locator(selector).first().boundingBox();
            if (!found) throw new Error(`${selector} has no box`);
            return found;
          };
          type Box = { x: number; y: number; width: number; height: number };
          const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
          const ask = await box('#ask');
          const answered = await box('#answer');
          // Two columns: side by side, the same top.
          expect(answered.x).toBeGreaterThanOrEqual(ask.x + ask.width);
          expect(Math.abs(answered.y - ask.y)).toBeLessThan(2);
          // The dialect selector (and every control of the left column) stays out of the verdict and the right column.
          expect(overlap(await box('#endpoint'), await box('#verdict-line'))).toBe(false);
          for (const control of await page.locator('#ask select, #ask input, #ask button, #ask textarea').all()) {
            const controlBox = await control.boundingBox();
            if (!controlBox) continue;
            expect({ id: await control.getAttribute('id'), overlaps: overlap(controlBox, answered) }).toEqual({
              id: await control.getAttribute('id'),
              overlaps: false,
            });
          }
          // The request on both sides and the reply, also two columns.
          expect((await box('#upstream')).x).toBeGreaterThanOrEqual((await box('#caller-body')).x + (await box('#caller-body')).width);
          expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

          const file = join(SCREENSHOTS, `inspector-${width}.png`);
          await page.screenshot({ path: file, fullPage: true });
          const png = readFileSync(file);
          expect(statSync(file).size).toBeGreaterThan(10_000);
          expect(png.subarray(1, 4).toString()).toBe('PNG');
          expect(png.readUInt32BE(16)).toBe(width); // the IHDR's width
          expect(problems).toEqual([]);
        } finally {
          await page.close();
        }
      },
      60_000,
    );

    test('a Completions request streamed through the chat backend: the text arrives piece by piece', async () => {
      const pieces = ['Once', ' upon', ' a', ' time'];
      upstream.reply({
        sse: [
          chunk({ role: 'assistant', content: '' }),
          ...pieces.map((piece) => chunk({ content: piece })),
          chunk({}, 'stop'),
          'data: [DONE]\n\n',
        ],
        delayMs: 400,
      });
      const { page, problems } = await open();
      try {
        await page.selectOption('#example', { label: 'Completions, streamed' });
        await verdictShown(page);
        await page.fill('#model', 'gpt-4o-mini');
        await page.click('#translate');
        await page.waitForFunction(() => (document.querySelector('#target-label')?.textContent ?? '').includes('backend "upstream"'));
        const changes = (await page.locator('#changes tr').allTextContents()).join('\n');
        expect(changes).toContain('prompt → messages');
        expect(changes).toContain('max_tokens → max_completion_tokens');
        await page.click('#send');
        await page.waitForFunction(() => {
          const text = document.querySelector('#reply-text')?.textContent ?? '';
          return text.startsWith('Once') && !text.includes('time');
        });
        await page.waitForFunction(() => document.querySelector('#reply-text')?.textContent === 'Once upon a time', undefined, {
          timeout: 10_000,
        });
        await page.waitForFunction(() => (document.querySelector('#status')?.textContent ?? '').includes('stream ended'));
        expect(await page.textContent('#reply-raw')).toContain('"object":"text_completion"');
        expect(problems).toEqual([]);
      } finally {
        upstream.reply(answer);
        await page.close();
      }
    }, 60_000);

    test('an Anthropic Messages stream: its thinking and its text, each in its place', async () => {
      upstream.reply({
        sse: [
          chunk({ role: 'assistant', content: '' }),
          chunk({ reasoning_content: 'Ten primes.' }),
          chunk({ content: 'There are 10.' }),
          chunk({}, 'stop'),
          'data: [DONE]\n\n',
        ],
      });
      const { page, problems } = await open();
      try {
        await page.selectOption('#example', { label: 'Anthropic Messages with thinking, streamed' });
        await verdictShown(page);
        expect((await page.locator('#changes tr').allTextContents()).join('\n')).toContain('system → messages');
        await page.click('#send');
        await page.waitForFunction(() => document.querySelector('#reply-text')?.textContent === 'There are 10.', undefined, {
          timeout: 10_000,
        });
        expect(await page.textContent('#reply-reasoning')).toBe('reasoning: Ten primes.');
        expect(await page.textContent('#reply-raw')).toContain('"type":"message_stop"');
        expect(problems).toEqual([]);
      } finally {
        upstream.reply(answer);
        await page.close();
      }
    }, 60_000);

    test('a request its dialect refuses: invalid, the error beside the verdict, the field marked in the request', async () => {
      const { page, problems } = await open(700);
      try {
        const body = {
          model: 'm',
          prompt: 'How many primes are below 30?',
          max_tokens: 256,
          thinking: { type: 'enabled', budget_tokens: 128 },
        };
        await page.fill('#request', JSON.stringify(body, null, 2));
        expect(await page.inputValue('#example')).toBe('');
        await page.click('#translate');
        await verdictShown(page);
        expect(await page.textContent('#verdict')).toBe('invalid');
        expect(await page.textContent('#verdict-error')).toMatch(/^422 invalid_value \(thinking\.budget_tokens\)/);
        expect(await page.locator('#caller-body .mark-rejected').allTextContents()).toEqual(['    "budget_tokens": 128']);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    }, 60_000);

    test("a wrong key is the proxy's 401, shown as the caller gets it", async () => {
      const page = await browser.newPage();
      try {
        await page.goto(`${proxy.url}/`);
        await page.fill('#key', 'wrong');
        await page.click('#translate');
        await page.waitForFunction(() => (document.querySelector('#verdict-error')?.textContent ?? '').startsWith('401'));
        expect(await page.textContent('#verdict')).toBe('invalid');
      } finally {
        await page.close();
      }
    }, 60_000);
  });
});
