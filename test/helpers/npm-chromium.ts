/**
 * Chromium from npm, for the browser tests: the build that `@sparticuz/chromium` ships inside its
 * package (a headless shell for Linux x64), unpacked once per version into the temp dir and driven
 * by playwright-core. No system package and no download: `npm ci` brings everything, so the tests
 * pass on a machine with Node alone.
 *
 * The package also carries the few shared libraries the shell needs beyond glibc (NSS, NSPR,
 * expat: its `al2023` archive) and a font; they are unpacked beside it and handed to the browser
 * through LD_LIBRARY_PATH and FONTCONFIG_PATH, so nothing is taken from Debian's chromium.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { chromium, type Browser } from 'playwright-core';

export interface NpmChromium {
  /** The unpacked browser. */
  executablePath: string;
  /** The version of the npm package (its Chromium's major version). */
  version: string;
  /** What the browser's process needs in its environment. */
  env: Record<string, string>;
}

/** The flags this machine needs (no sandbox, no GPU, nothing fetched in the background). */
const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Unpacks the package's browser into `<tmp>/dialect-proxy-chromium-<version>` unless already there. Safe to run concurrently. */
export async function npmChromium(): Promise<NpmChromium> {
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(`@sparticuz/chromium ships a browser for Linux x64 only (this is ${process.platform} ${process.arch})`);
  }
  // Its entry point is build/<format>/index.*: the package's root is two levels up (package.json is not exported).
  const root = dirname(dirname(dirname(createRequire(import.meta.url).resolve('@sparticuz/chromium'))));
  const { name, version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { name: string; version: string };
  if (name !== '@sparticuz/chromium') throw new Error(`expected @sparticuz/chromium at ${root}, found ${name}`);
  const bin = join(root, 'bin');
  const home = join(tmpdir(), `dialect-proxy-chromium-${version}`);
  if (!existsSync(join(home, 'chromium'))) {
    // Unpacked aside and renamed into place: another process that races us sees all or nothing.
    const staging = await mkdtemp(`${home}.staging-`);
    try {
      await pipeline(
        createReadStream(join(bin, 'chromium.br')),
        createBrotliDecompress(),
        createWriteStream(join(staging, 'chromium'), { mode: 0o755 }),
      );
      await untar(join(bin, 'al2023.tar.br'), staging); // lib/: libnss3, libnspr4, libexpat...
      await untar(join(bin, 'fonts.tar.br'), staging); // fonts/fonts/Open_Sans
      await writeFile(
        join(staging, 'fonts', 'fonts.conf'),
        `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n  <dir>${join(home, 'fonts', 'fonts')}</dir>\n  <dir>/usr/share/fonts</dir>\n  <cachedir>${join(home, 'fonts', 'cache')}</cachedir>\n</fontconfig>\n`,
      );
      await rename(staging, home).catch((error: NodeJS.ErrnoException) => {
        if (!existsSync(join(home, 'chromium'))) throw error; // else another process got there first
      });
    } finally {
      await rm(staging, { recursive: true, force: true });
    }
  }
  return {
    executablePath: join(home, 'chromium'),
    version,
    env: { LD_LIBRARY_PATH: join(home, 'lib'), FONTCONFIG_PATH: join(home, 'fonts') },
  };
}

/** The browser's process as Linux sees it: what it runs and its profile directory. */
export interface LaunchedProcess {
  pid: number;
  /** `/proc/<pid>/exe`: the file really executed. */
  executable: string;
  /** Its `--user-data-dir` (playwright makes a fresh one per launch and removes it on close). */
  userDataDir: string | undefined;
}

/**
 * A browser from npm. Playwright gives it a fresh `--user-data-dir` of its own (it refuses the flag
 * in `args`); `launched` is its process, found in /proc by the executable's path.
 */
export async function launchNpmChromium(): Promise<{ browser: Browser; chromium: NpmChromium; launched: LaunchedProcess }> {
  const found = await npmChromium();
  const launch = () =>
    chromium.launch({ executablePath: found.executablePath, args: FLAGS, env: { ...process.env, ...found.env } as Record<string, string> });
  // Headless Chromium now and then dies at launch (SIGSEGV, "browser has been closed", once in a CI run on a
  // loaded machine): the browser's failure, not the page's, so one more launch; a second failure is the test's.
  const browser = await launch().catch(launch);
  const launched = browserProcesses(found.executablePath).at(-1);
  if (!launched) {
    await browser.close();
    throw new Error(`no process runs ${found.executablePath} after the launch`);
  }
  return { browser, chromium: found, launched };
}

/** The processes whose command line starts with this executable (newest last). */
function browserProcesses(executablePath: string): LaunchedProcess[] {
  const found: LaunchedProcess[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (argv[0] !== executablePath || argv.some((arg) => arg.startsWith('--type='))) continue;
      const dir = argv.find((arg) => arg.startsWith('--user-data-dir='));
      found.push({
        pid: Number(entry),
        executable: readlinkSync(`/proc/${entry}/exe`),
        userDataDir: dir?.slice('--user-data-dir='.length),
      });
    } catch {
      // a process that ended meanwhile
    }
  }
  return found.sort((a, b) => a.pid - b.pid);
}

/** A brotli-compressed tar archive, unpacked with the system's tar (present wherever Node runs on Linux). */
async function untar(archive: string, into: string): Promise<void> {
  const tar = spawn('tar', ['-x', '-C', into], { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  tar.stderr.on('data', (data: Buffer) => (stderr += data.toString()));
  const exited = new Promise<number | null>((resolve, reject) => {
    tar.once('error', reject);
    tar.once('close', resolve);
  });
  // tar may stop reading at the archive's end marker, before the zero padding: a write after that
  // fails (EPIPE, premature close), which matters only when tar itself failed.
  const [piped, code] = await Promise.all([
    pipeline(createReadStream(archive), createBrotliDecompress(), tar.stdin).then(
      () => undefined,
      (error: unknown) => error,
    ),
    exited,
  ]);
  if (code !== 0) throw new Error(`tar could not unpack ${archive} (exit ${code}): ${stderr.trim() || String(piped)}`);
}
