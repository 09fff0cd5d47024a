/**
 * The load generator of `npm run load`, in its own process so it does not
 * share the target's event loop (load.ts places it on its own core where it
 * can). Keeps `concurrency` streaming requests in flight for `seconds`, each
 * loop starting its next stream as soon as the one before ended, and sends
 * the summary back over IPC. The loops start spread over `rampMs`, so the
 * streams are out of step as a real crowd's are, not 500 starting and ending
 * together for the whole run.
 *
 * Per stream: status, time to first token (from sending the request to the
 * first byte of its first `data:` frame), and whether it ended well: a 200, no
 * error frame, no reset, a `data: [DONE]` last, and every token of the upstream
 * stream seen. Also watches its own limits (file descriptors, agent sockets,
 * its own CPU and event-loop delay), so what it reports is the target's.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';

export interface LoadSettings {
  port: number;
  path: string;
  body: string;
  concurrency: number;
  seconds: number;
  rampMs: number;
  /** Tokens each stream should carry (the upstream's ` wordN` tokens). */
  tokens: number;
  /** After the deadline, how long the streams in flight may take to end before they count as hung. */
  drainMs: number;
}

export interface LoadResult {
  started: number;
  /** Streams that ended well. */
  served: number;
  /** Failed streams by kind. */
  errors: Record<string, number>;
  /** A few failures of each kind, word for word. */
  samples: string[];
  /** Time to first token of every stream that got a data frame, ms, and when (s into the run) that stream was sent. */
  ttftMs: number[];
  ttftSentS: number[];
  /** From the first stream's start to the last one's end, s. */
  elapsedS: number;
  client: {
    cpuPercent: number;
    loopDelayP99Ms: number;
    loopDelayMaxMs: number;
    connectionsOpened: number;
    /** Streams the agent queued for want of a socket (maxSockets reached): a client-side limit. */
    agentQueued: number;
    openFilesLimit: number | undefined;
    /** Client-side limits that were hit (empty when none). */
    limitsHit: string[];
  };
}

/** Errors that say the client ran out of something, not the target. */
const clientSideCodes = new Set(['EMFILE', 'ENFILE', 'EADDRNOTAVAIL', 'ENOBUFS', 'ENOMEM']);

function openFilesLimit(): number | undefined {
  try {
    const line = /^Max open files\s+(\d+|unlimited)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    return line === undefined ? undefined : line === 'unlimited' ? Infinity : Number(line);
  } catch {
    return undefined;
  }
}

/** Occurrences of `needle` in `text` that end after `from` (so a match across two chunks counts once). */
function countFrom(text: string, needle: string, from: number): number {
  let count = 0;
  for (let at = text.indexOf(needle, Math.max(0, from - needle.length + 1)); at !== -1; at = text.indexOf(needle, at + needle.length))
    count += 1;
  return count;
}

export async function runLoad(settings: LoadSettings): Promise<LoadResult> {
  const { port, path, concurrency, seconds, rampMs, tokens, drainMs } = settings;
  const body = Buffer.from(settings.body);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency });
  const result: LoadResult = {
    started: 0,
    served: 0,
    errors: {},
    samples: [],
    ttftMs: [],
    ttftSentS: [],
    elapsedS: 0,
    client: {
      cpuPercent: 0,
      loopDelayP99Ms: 0,
      loopDelayMaxMs: 0,
      connectionsOpened: 0,
      agentQueued: 0,
      openFilesLimit: openFilesLimit(),
      limitsHit: [],
    },
  };
  const limitsHit = new Set<string>();
  if ((result.client.openFilesLimit ?? Infinity) < concurrency + 64)
    limitsHit.add(`open files limit ${result.client.openFilesLimit} is below ${concurrency} sockets + 64`);
  const seen = new WeakSet<object>();
  const inFlight = new Set<http.ClientRequest>();
  let closed = false;
  const fail = (kind: string, detail: string) => {
    result.errors[kind] = (result.errors[kind] ?? 0) + 1;
    if (result.errors[kind] <= 2 && result.samples.length < 12) result.samples.push(`${kind}: ${detail}`);
  };

  const stream = () =>
    new Promise<void>((resolve) => {
      const sent = performance.now();
      result.started += 1;
      let firstFrame = -1;
      let tokensSeen = 0;
      let errorFrame = '';
      let tail = '';
      let ended = false;
      const end = (kind?: string, detail = '') => {
        if (ended || closed) return;
        ended = true;
        inFlight.delete(request);
        if (firstFrame >= 0) {
          result.ttftMs.push(firstFrame);
          result.ttftSentS.push((sent - started) / 1000);
        }
        if (kind) fail(kind, detail);
        else result.served += 1;
        resolve();
      };
      const request = http.request(
        {
          host: '127.0.0.1',
          port,
          path,
          method: 'POST',
          agent,
          headers: { 'content-type': 'application/json', 'content-length': body.length },
        },
        (response) => {
          if (response.statusCode !== 200) {
            let text = '';
            response.on('data', (data: Buffer) => {
              text = (text + data.toString('latin1')).slice(0, 300);
            });
            response.on('end', () => end(`status ${response.statusCode}`, text));
            response.on('error', (error) => end(`status ${response.statusCode}`, `${text} (${error.message})`));
            return;
          }
          response.on('data', (data: Buffer) => {
            const from = tail.length;
            const text = tail + data.toString('latin1');
            if (firstFrame < 0 && countFrom(text, 'data:', from) > 0) firstFrame = performance.now() - sent;
            tokensSeen += countFrom(text, ' word', from);
            if (!errorFrame) {
              const at = text.indexOf('data: {"error"', Math.max(0, from - 13));
              if (at !== -1) errorFrame = text.slice(at, at + 300);
            }
            tail = text.slice(-32);
          });
          response.on('end', () => {
            if (errorFrame) end('error frame', errorFrame);
            else if (!tail.trimEnd().endsWith('data: [DONE]')) end('no [DONE] at the end', JSON.stringify(tail));
            else if (tokensSeen !== tokens) end('tokens missing', `${tokensSeen} of ${tokens} tokens`);
            else end();
          });
          response.on('error', (error) => end('reset mid-stream', error.message));
          response.on('close', () => {
            if (!response.complete) end('reset mid-stream', 'closed before its end');
          });
        },
      );
      inFlight.add(request);
      if (Object.values(agent.requests).some((queue) => queue?.includes(request))) result.client.agentQueued += 1;
      request.on('socket', (socket) => {
        if (!seen.has(socket)) {
          seen.add(socket);
          result.client.connectionsOpened += 1;
        }
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code && clientSideCodes.has(error.code)) limitsHit.add(`${error.code} (${error.message})`);
        end(firstFrame >= 0 ? 'reset mid-stream' : 'connection failed', `${error.code ?? ''} ${error.message}`);
      });
      request.end(body);
    });

  const resolutionMs = 10;
  const loopDelay = monitorEventLoopDelay({ resolution: resolutionMs });
  loopDelay.enable();
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const loop = async (index: number) => {
    await new Promise((resolve) => setTimeout(resolve, (index * rampMs) / concurrency));
    while (performance.now() < deadline) await stream();
  };
  const loops = Promise.all(Array.from({ length: concurrency }, (_, index) => loop(index)));
  // Streams still open `drainMs` after the deadline count as hung.
  const hung = new Promise<void>((resolve) => {
    const timer = setTimeout(
      () => {
        closed = true; // what the destroyed streams say next is not counted
        for (const request of inFlight) request.destroy();
        resolve();
      },
      seconds * 1000 + drainMs,
    );
    void loops.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
  await hung;
  if (inFlight.size > 0) result.errors['hung (still open after the drain)'] = inFlight.size;
  result.elapsedS = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  loopDelay.disable();
  result.client.cpuPercent = ((cpu.user + cpu.system) / 1000 / (result.elapsedS * 1000)) * 100;
  // The histogram holds whole sampling intervals: the delay is what exceeds one.
  result.client.loopDelayP99Ms = Math.max(0, loopDelay.percentile(99) / 1e6 - resolutionMs);
  result.client.loopDelayMaxMs = Math.max(0, loopDelay.max / 1e6 - resolutionMs);
  if (result.client.agentQueued > 0)
    limitsHit.add(`${result.client.agentQueued} streams waited in the agent's queue for a socket (maxSockets ${concurrency})`);
  result.client.limitsHit = [...limitsHit];
  agent.destroy();
  return result;
}

// Run as a child: settings as JSON in argv[2], the result back over IPC.
if (process.send && process.argv[2]) {
  const result = await runLoad(JSON.parse(process.argv[2]) as LoadSettings);
  process.send(result, () => process.exit(0));
}
