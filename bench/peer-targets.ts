/**
 * The peers started as their users start them, each its own process in front
 * of the bench's mock upstream: Portkey's gateway (`start-server.js`, routed
 * per request by its `x-portkey-*` headers) and claude-code-router (`ccr
 * serve`, configured by a file under a scratch HOME).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InstalledPeer } from './peer-install.js';
import { freePort, spawnServer, type Running } from './targets.js';

/**
 * Portkey's gateway, headless (no log UI): `--port=<port>`, on every interface (it takes no host). It has no
 * config of its own: each request names its provider and base URL (see portkeyHeaders).
 */
export async function startPortkey(peer: InstalledPeer, dir: string): Promise<Running> {
  const port = await freePort();
  return spawnServer({
    name: 'portkey-gateway',
    what: "Portkey's gateway",
    args: [peer.entry, `--port=${port}`, '--headless'],
    port,
    dir,
    cwd: peer.dir,
    ready: { path: '/', ok: false },
  });
}

/**
 * What Portkey's gateway routes a request by: `x-portkey-provider` (how it speaks to the upstream: `openai`, chat as it
 * came; `anthropic`, chat translated to Messages), `x-portkey-custom-host` (the base URL, in place of the provider's:
 * 127.0.0.1 is on its trusted list) and the key, which it passes on as the provider wants it.
 * @example portkeyHeaders('anthropic', 'http://127.0.0.1:4000/anthropic/v1')
 */
export const portkeyHeaders = (provider: 'openai' | 'anthropic', baseUrl: string): Record<string, string> => ({
  'x-portkey-provider': provider,
  'x-portkey-custom-host': baseUrl,
  authorization: 'Bearer bench',
});

/** The key claude-code-router's gateway asks its callers for (its config's APIKEY); sent as `x-api-key`. */
export const claudeCodeRouterKey = 'bench-key';

/**
 * claude-code-router's config (`~/.claude-code-router/config.json`, which 3.x imports into its config.sqlite at
 * start): one provider, an OpenAI chat endpoint (`api_base_url` is the whole URL, not a base), serving `model`;
 * the Router's default to it; the gateway on `port`, behind `apiKey`.
 * @example claudeCodeRouterConfig({ port: 3456, chatUrl: 'http://127.0.0.1:4000/v1/chat/completions', model: 'bench', apiKey: 'k' })
 */
export function claudeCodeRouterConfig(options: { port: number; chatUrl: string; model: string; apiKey: string }) {
  return {
    HOST: '127.0.0.1',
    PORT: options.port,
    APIKEY: options.apiKey,
    Providers: [{ name: 'bench', api_base_url: options.chatUrl, api_key: 'bench', models: [options.model] }],
    Router: { default: `bench,${options.model}` },
  };
}

/**
 * claude-code-router 3.x: `ccr serve --no-open` runs its management service in the foreground, which starts the
 * gateway (Anthropic's Messages API on `/v1/messages`) as a child process. HOME is a scratch directory: it writes
 * its databases there, and on start points the agents it manages (Claude Code, Codex...) at itself by rewriting
 * their config files under HOME. Ready once the gateway answers. `env` is added to its environment.
 */
export async function startClaudeCodeRouter(
  peer: InstalledPeer,
  upstreamPort: number,
  dir: string,
  { name = 'claude-code-router', env = {} }: { name?: string; env?: Record<string, string> } = {},
): Promise<Running> {
  const home = join(dir, `${name}-home`);
  mkdirSync(join(home, '.claude-code-router'), { recursive: true });
  const [port, managementPort] = [await freePort(), await freePort()];
  const config = claudeCodeRouterConfig({
    port,
    chatUrl: `http://127.0.0.1:${upstreamPort}/v1/chat/completions`,
    model: 'bench',
    apiKey: claudeCodeRouterKey,
  });
  writeFileSync(join(home, '.claude-code-router', 'config.json'), JSON.stringify(config, null, 2));
  return spawnServer({
    name,
    what: 'claude-code-router',
    args: [peer.entry, 'serve', '--no-open', '--host', '127.0.0.1', '--port', String(managementPort)],
    port,
    dir,
    cwd: home,
    env: { ...process.env, ...env, HOME: home },
    ready: { path: '/v1/models', ok: false },
    timeoutMs: 60_000,
  });
}
