/**
 * The bench's peers, installed on demand at pinned versions into the cache
 * (`$DIALECT_PROXY_CACHE/bench-peers/<name>-<version>`, else
 * `~/.cache/dialect-proxy/bench-peers/...`), never into this package: `npm
 * install --prefix <dir> --no-audit --no-fund --ignore-scripts`, once; a
 * directory whose install finished holds `installed.json`, and is used as it is.
 * Every step is said on stdout.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { defaultCacheDir } from '../src/config/cache-dir.js';

const run = promisify(execFile);

/** An installed peer: the script to run with node, and what its install did that a reader should know. */
export interface InstalledPeer {
  dir: string;
  entry: string;
  notes: string[];
}

export interface PeerSpec {
  /** The directory's name under bench-peers/. */
  dir: string;
  /** The peer's package, pinned. */
  spec: string;
  /** Installed beside it, pinned, with why. */
  alongside?: { specs: string[]; why: string };
  /** The script node runs, relative to the directory. */
  entry: string;
}

/**
 * Portkey's gateway. @hono/node-server 1.14.2 and later (its range, ^1.3.3, takes the newest) make every
 * stream a 500 ("TypeError: immutable": the gateway adds headers to the upstream's response, whose headers
 * that version keeps; Portkey-AI/gateway issue 1389): 1.14.1, and @hono/node-ws 1.2.0 (in its ^1.2.0,
 * the last to accept that server as a peer), are what it serves streams with.
 */
export const portkeyGateway: PeerSpec = {
  dir: 'portkey-gateway-1.15.2',
  spec: '@portkey-ai/gateway@1.15.2',
  alongside: {
    specs: ['@hono/node-server@1.14.1', '@hono/node-ws@1.2.0'],
    why: '@hono/node-server 1.14.1 (and @hono/node-ws 1.2.0), in the gateway\'s own ranges: from 1.14.2 on, every stream fails with "TypeError: immutable" (Portkey-AI/gateway issue 1389)',
  },
  entry: 'node_modules/@portkey-ai/gateway/build/start-server.js',
};

/** claude-code-router: its CLI runs the management service, which starts the gateway as a child process. */
export const claudeCodeRouter: PeerSpec = {
  dir: 'claude-code-router-3.1.1',
  spec: '@musistudio/claude-code-router@3.1.1',
  entry: 'node_modules/@musistudio/claude-code-router/dist/main/cli.js',
};

const npmFlags = ['--no-audit', '--no-fund', '--ignore-scripts', '--save-exact'];

async function npm(dir: string, args: string[]): Promise<string> {
  const { stdout } = await run('npm', args, { cwd: dir, maxBuffer: 64 * 2 ** 20, env: { ...process.env, ...nodeHeaders() } });
  return stdout;
}

/** npm's own words for a failure: its `npm error` lines. */
const npmError = (error: unknown) =>
  String((error as { stderr?: string }).stderr ?? error)
    .split('\n')
    .filter((line) => line.startsWith('npm error') && !line.includes('A complete log'))
    .slice(0, 3)
    .join(' / ');

/**
 * Where this node's headers are, for a native build (node-gyp): beside the node binary (`<prefix>/include/node`, as
 * Node's own archives and distribution packages lay them out), else node-gyp downloads them, which fails offline.
 */
function nodeHeaders(): Record<string, string> {
  const prefix = dirname(dirname(process.execPath));
  if (process.env.npm_config_nodedir || !existsSync(join(prefix, 'include', 'node', 'node_version.h'))) return {};
  return { npm_config_nodedir: prefix };
}

const say = (line: string) => console.log(`bench peers: ${line}`);

/** The peer installed (now, or by an earlier run); throws with npm's words when it cannot be. */
export async function installPeer(peer: PeerSpec): Promise<InstalledPeer> {
  const dir = join(defaultCacheDir(), 'bench-peers', peer.dir);
  const marker = join(dir, 'installed.json');
  if (existsSync(marker) && existsSync(join(dir, peer.entry))) {
    const { notes } = JSON.parse(readFileSync(marker, 'utf8')) as { notes: string[] };
    say(`${peer.spec}: installed in ${dir}`);
    return { dir, entry: join(dir, peer.entry), notes };
  }
  rmSync(dir, { recursive: true, force: true }); // a half-done install is started over
  mkdirSync(dir, { recursive: true });
  const specs = [peer.spec, ...(peer.alongside?.specs ?? [])];
  say(`installing ${specs.join(' ')} into ${dir} (npm install ${npmFlags.join(' ')})...`);
  const started = performance.now();
  const notes: string[] = [];
  if (peer.alongside) notes.push(`installed beside it: ${peer.alongside.why}`);
  try {
    await npm(dir, ['install', '--prefix', dir, ...npmFlags, ...specs]);
  } catch (error) {
    const words = npmError(error);
    if (peer !== claudeCodeRouter || !words.includes('E404')) throw new Error(`npm install ${specs.join(' ')}: ${words}`, { cause: error });
    say(`npm install failed (${words}); installing the package's own files and the dependencies the registry has`);
    notes.push(...(await installWithout404(dir, peer)));
  }
  writeFileSync(marker, JSON.stringify({ spec: peer.spec, installedAt: new Date().toISOString(), notes }, null, 2));
  say(`${peer.spec}: installed in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  for (const note of notes) say(`  ${note}`);
  return { dir, entry: join(dir, peer.entry), notes };
}

/**
 * claude-code-router 3.1.1 depends on @the-next-ai/ai-gateway and @the-next-ai/bot-gateway-sdk, which the
 * registry here answers 404 for, so `npm install` of it fails whole. Its CLI is a bundle that carries that
 * gateway (dist/main/next-ai-gateway.js, which it loads before the package); the bot SDK serves its chat-bot
 * integrations only. So: each dependency the registry has, with npm (scripts off); then `npm rebuild` (the
 * native better-sqlite3 it requires at start: prebuilt, else compiled); last, the package's own tarball,
 * from `npm pack`, unpacked into node_modules (last: an `npm install` prunes what its package.json lacks).
 */
async function installWithout404(dir: string, peer: PeerSpec): Promise<string[]> {
  const notes: string[] = [];
  const packed = (await npm(dir, ['pack', peer.spec, '--pack-destination', dir, '--silent'])).trim().split('\n').pop()!;
  const target = join(dir, 'node_modules', ...peer.spec.slice(0, peer.spec.lastIndexOf('@')).split('/'));
  const unpackTo = join(dir, 'unpacked');
  mkdirSync(unpackTo, { recursive: true });
  await run('tar', ['-xzf', join(dir, packed), '-C', unpackTo, '--strip-components=1']);
  const { dependencies = {} } = JSON.parse(readFileSync(join(unpackTo, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  const missing: string[] = [];
  for (const [name, range] of Object.entries(dependencies)) {
    try {
      await npm(dir, ['install', '--prefix', dir, ...npmFlags, `${name}@${range}`]);
    } catch (error) {
      if (!npmError(error).includes('E404')) throw new Error(`npm install ${name}@${range}: ${npmError(error)}`, { cause: error });
      missing.push(`${name}@${range}`);
    }
  }
  say('npm rebuild (native dependencies: better-sqlite3 is compiled when no prebuilt binary can be fetched, about 2 minutes)...');
  await npm(dir, ['rebuild', '--prefix', dir]);
  mkdirSync(dirname(target), { recursive: true });
  rmSync(target, { recursive: true, force: true });
  renameSync(unpackTo, target);
  rmSync(join(dir, packed), { force: true });
  notes.push(
    `npm install of ${peer.spec} fails here: the registry has no ${missing.join(', ')}; installed instead its own files (npm pack) and its other dependencies; its bundle carries the gateway (dist/main/next-ai-gateway.js)`,
  );
  return notes;
}
