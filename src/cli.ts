#!/usr/bin/env node
/**
 * `dialect-proxy --config FILE [--port N] [--host H] [--workers N|auto]`, or a command:
 * translate, audit, fields. A start-up failure is one line on stderr that says what to fix:
 * exit 2 for a command line it cannot run, 1 for anything else (a stack trace only for a bug).
 */
import cluster from 'node:cluster';
import { constants as osConstants } from 'node:os';
import { closestName } from './config/closest-name.js';
import { parseCommandLine, UsageError } from './commands/parse-command-line.js';
import { ConfigError, loadConfig } from './runtime/configuration.js';
import { createLogger } from './logging/logger.js';
import { ListenError } from './http/listen-error.js';
import { isLoopbackHost } from './http/open-relay.js';
import { limitHeapGrowth } from './http/heap-growth.js';
import { checkBeforeStart, startBackendsEarly } from './http/check-before-start.js';

const usage = `Usage: dialect-proxy --config FILE [--port N] [--host H] [--workers N|auto]
       dialect-proxy fields [FIELD] [--format text|markdown|json]   (each request field's fate on every backend kind; see --help there)
       dialect-proxy translate (--to KIND | --config FILE) [--json] [REQUEST.json]   (what a backend would get, every change; see --help there)
       dialect-proxy audit FILE.jsonl [--to KIND | --config FILE] [--json]   (recorded traffic: what a move loses; see --help there)

  --config, -c  YAML configuration (see README: Configuration)
  --port, -p    port to listen on (overrides server.port)
  --host, -H    address to bind (overrides server.host)
  --workers, -w processes sharing the port (auto: one per core; default 1); see README: Several cores
  --help, -h    this text`;

/** The commands besides the server, each loaded only when run. */
const COMMANDS: Record<string, () => Promise<(args: string[]) => Promise<number>>> = {
  translate: async () => (await import('./commands/translate-command.js')).runTranslateCommand,
  audit: async () => (await import('./commands/audit-command.js')).runAuditCommand,
  fields: async () => (await import('./commands/fields/fields-command.js')).runFieldsCommand,
};

/** A backend that could not start (a model that does not load, a download that failed): the server stops. */
class BackendStartError extends Error {}

async function main(): Promise<void> {
  const [first, ...rest] = process.argv.slice(2);
  if (first !== undefined && !first.startsWith('-')) {
    const command = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
    if (!command) throw new UsageError(unknownCommand(first));
    process.exitCode = await (await command())(rest);
    return;
  }
  if (first === undefined) {
    console.error(usage);
    process.exit(2);
  }
  await serve(process.argv.slice(2));
}

function unknownCommand(name: string): string {
  const guess = closestName(name, Object.keys(COMMANDS));
  const commands = `commands: ${Object.keys(COMMANDS).join(', ')}; the server starts with --config FILE`;
  return `unknown command "${name}" (${guess ? `did you mean ${guess}? ` : ''}${commands})`;
}

async function serve(args: string[]): Promise<void> {
  const { values } = parseCommandLine({
    args,
    options: {
      config: { type: 'string', short: 'c' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string', short: 'H' },
      workers: { type: 'string', short: 'w' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(usage);
    return;
  }
  if (!values.config)
    throw new UsageError('--config FILE is required (config/default.yaml serves the bundled model; --help lists the options)');
  const config = loadConfig(values.config);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(values.port !== '' && Number.isInteger(port) && port >= 0 && port < 65536))
    throw new ConfigError('--port', 'must be a port number');
  // A model's worker starts loading now, while the server's modules load below (under --workers, the primary's).
  if (cluster.isPrimary) {
    checkBeforeStart(config);
    startBackendsEarly(config);
  }
  const [{ startServer }, { parseWorkers, runPrimary, setUpWorker }] = await Promise.all([
    import('./http/server.js'),
    import('./http/cluster.js'),
  ]);
  limitHeapGrowth();
  const workers = parseWorkers(values.workers);
  const host = values.host || config.server.host;
  if (workers > 1 && cluster.isPrimary) {
    const outcome = await runPrimary(config, {
      workers,
      host,
      logger: createLogger({ level: config.server.logLevel }).child({ role: 'primary' }),
      ...(port !== undefined ? { port } : {}),
    });
    if (outcome.startFailure) console.error(`dialect-proxy: ${outcome.startFailure}`);
    process.exit(outcome.exitCode);
  }
  const worker = cluster.isWorker ? await setUpWorker(config) : undefined;
  const base = createLogger({ level: config.server.logLevel });
  const logger = cluster.worker ? base.child({ worker: cluster.worker.id }) : base;
  const running = await startServer(config, { logger, host, ...(port !== undefined ? { port } : {}), ...worker?.options });
  logger.info(`dialect-proxy listening on ${running.url}`);
  running.proxy.ready.then(
    () => {
      logger.info('backends ready');
      worker?.ready();
    },
    // It would answer 503 to everything until restarted: stop now, saying why.
    (error: unknown) =>
      void running.close().finally(() => fail(new BackendStartError(`a backend failed to start: ${(error as Error)?.message}`))),
  );
  if (!isLoopbackHost(host) && config.server.apiKeys.length === 0) {
    logger.warn(
      `open relay: no server.apiKeys on ${host} (server.allowUnauthenticated): anyone who can reach the port can use the backends`,
    );
  }
  let stopping = false;
  let last = { signal: '', at: 0 };
  const stop = (signal: NodeJS.Signals) => {
    // A terminal's Ctrl-C reaches `npm start` and this process both, and npm passes its own on: one insistence, not two.
    if (stopping && signal === last.signal && Date.now() - last.at < 200) return;
    last = { signal, at: Date.now() };
    if (stopping) {
      // The operator insists: no more waiting (128 + the signal's number, as a shell reports it).
      logger.warn(`${signal} again: exiting now`);
      process.exit(128 + osConstants.signals[signal]);
    }
    shutDown(`${signal}: shutting down (a second signal exits at once)`);
  };
  const shutDown = (why: string) => {
    stopping = true;
    logger.info(why);
    running.shutdown({ log: (message) => logger.info(message) }).then(
      () => {
        logger.info('stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error(`shutdown failed: ${(error as Error)?.message ?? String(error)}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  // Under --workers, the primary relays its signal as a message (a second one here still exits at once).
  worker?.onShutdown(() => {
    if (!stopping) shutDown('the primary process asked: shutting down');
  });
}

/** A failure the person can fix is one line (under --workers the primary prints it, once); anything else is a bug. */
function fail(error: unknown): void {
  const known =
    error instanceof UsageError || error instanceof ConfigError || error instanceof ListenError || error instanceof BackendStartError;
  const message = known ? error.message : ((error as Error)?.stack ?? String(error));
  const exitCode = error instanceof UsageError ? 2 : 1;
  if (cluster.isWorker) {
    void import('./http/cluster.js').then(({ reportStartFailure }) => reportStartFailure(message)).finally(() => process.exit(exitCode));
    return;
  }
  console.error(`dialect-proxy: ${message}`);
  process.exit(exitCode);
}

main().catch(fail);
