/**
 * The inspector page (GET /): served static with a strict CSP, off when the operator says so,
 * mounted by the middleware only when asked; and in a real browser (Debian's chromium driven by
 * playwright-core, no browser download): translate a request, send it to a mock upstream and see
 * the streamed text arrive. Without chromium this test fails: it never skips.
 */
import { existsSync } from 'node:fs';
import express from 'express';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { createDialectProxy } from '../../src/http/middleware.js';
import { createLogger } from '../../src/logging/logger.js';
import type { RunningServer } from '../../src/http/server.js';
import { startMockUpstream, type MockUpstream } from '../helpers/mock-upstream.js';
import { startProxyFor } from '../helpers/start-proxy.js';

// What the functions run in the page read there (the page's CSP allows no string evaluation).
declare const document: { querySelector(selector: string): { textContent: string | null } | null; cookie: string };
declare const localStorage: { length: number };
declare const sessionStorage: { length: number };

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const KEY = 'inspector-test-key';

const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;

describe('inspector page', () => {
  let upstream: MockUpstream;
  let proxy: RunningServer;

  beforeAll(async () => {
    upstream = await startMockUpstream();
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
    expect(html).toContain('<title>dialect-proxy inspector</title>');
    // Nothing is fetched from elsewhere: no CDN, no external script, style or font.
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/localStorage|sessionStorage|document\.cookie|indexedDB/);
  });

  test('server.inspector: false turns it off', async () => {
    const off = await startProxyFor(upstream.url, { kind: 'openai' }, { server: { inspector: false } });
    try {
      const response = await fetch(`${off.url}/`);
      expect(response.status).toBe(404);
    } finally {
      await off.close();
    }
  });

  test('the middleware serves it only when asked, at the path asked', async () => {
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
      const page = await fetch(`${base}/b/inspect`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('dialect-proxy inspector');
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([plain.close(), asked.close()]);
    }
  });

  describe('in a browser', () => {
    let browser: Browser;

    beforeAll(async () => {
      if (!existsSync(CHROMIUM)) {
        throw new Error(
          `No chromium at ${CHROMIUM}: the browser test needs Debian's chromium package (apt-get install chromium; .ci/run installs it) or CHROMIUM_PATH. It fails rather than skips.`,
        );
      }
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--no-first-run',
          '--disable-sync',
        ],
      });
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
    });

    test('translate a Fireworks completions request for an OpenAI chat backend, send it, watch the stream arrive', async () => {
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
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      try {
        await page.goto(`${proxy.url}/`);
        await page.fill('#key', KEY);
        await page.selectOption('#example', { label: 'Fireworks completions, streamed' });
        await page.fill('#model', 'gpt-4o-mini');

        // The dry run: the translated upstream request and the list of changes, side by side.
        await page.click('#translate');
        await page.waitForFunction(() => document.querySelector('#verdict')?.textContent === 'lossless');
        const changes = await page.locator('#changes tr').allTextContents();
        expect(changes.join('\n')).toContain('prompt → messages');
        expect(changes.join('\n')).toContain('max_tokens → max_completion_tokens');
        const upstreamText = await page.textContent('#upstream');
        expect(JSON.parse(upstreamText?.replace(/^POST \/chat\/completions \(streamed\)\n/, '') ?? '')).toMatchObject({
          model: 'gpt-4o-mini',
          messages: [{ role: 'user', content: 'Once upon a time' }],
          max_completion_tokens: 32,
          stream: true,
        });
        expect(upstream.requests).toHaveLength(0);

        // The real request: the text arrives piece by piece, as the Fireworks completions dialect sends it.
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
        expect(await page.textContent('#status')).toContain('from backend "upstream"');
        expect(upstream.requests).toHaveLength(1);
        expect(upstream.requests[0]).toMatchObject({ path: '/v1/chat/completions', body: { model: 'gpt-4o-mini', stream: true } });

        // The key lived in the page's memory only.
        expect(await page.evaluate(() => [localStorage.length, sessionStorage.length, document.cookie])).toEqual([0, 0, '']);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    }, 60_000);

    test('an Anthropic Messages request: translated for the chat backend, sent, its thinking and text streamed into the reply', async () => {
      upstream.reply({
        sse: [
          chunk({ role: 'assistant', content: '' }),
          chunk({ reasoning_content: 'Ten primes. ' }),
          chunk({ content: 'There are 10.' }),
          chunk({}, 'stop'),
          'data: [DONE]\n\n',
        ],
      });
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(error.message));
      try {
        await page.goto(`${proxy.url}/`);
        await page.fill('#key', KEY);
        await page.selectOption('#example', { label: 'Anthropic Messages with thinking, streamed' });
        await page.selectOption('#endpoint', 'messages');
        await page.fill('#model', 'gpt-4o-mini');
        await page.click('#translate');
        await page.waitForFunction(() => ['lossless', 'lossy'].includes(document.querySelector('#verdict')?.textContent ?? ''));
        expect((await page.locator('#changes tr').allTextContents()).join('\n')).toContain('system → messages');

        upstream.requests.length = 0;
        await page.click('#send');
        await page.waitForFunction(() => document.querySelector('#reply-text')?.textContent === 'Ten primes. There are 10.', undefined, {
          timeout: 10_000,
        });
        expect(await page.textContent('#reply-raw')).toContain('"type":"message_stop"');
        expect(upstream.requests[0]).toMatchObject({ path: '/v1/chat/completions', body: { model: 'gpt-4o-mini', stream: true } });
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
        await page.waitForFunction(() => (document.querySelector('#error')?.textContent ?? '').startsWith('401'));
      } finally {
        await page.close();
      }
    }, 60_000);
  });
});
