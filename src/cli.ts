#!/usr/bin/env node
/** `dialect-proxy --config FILE [--port N] [--host H]`, or `dialect-proxy fields [--format markdown|json]` */
import cluster from 'node:cluster';
import { constants as osConstants } from 'node:os';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './runtime/configuration.js';
import { createLogger } from './logging/logger.js';
import { isLoopbackHost } from './http/open-relay.js';
import { startServer } from './http/server.js';
import { parseWorkers, runPrimary, setUpWorker } from './http/cluster.js';

const usage = `Usage: dialect-proxy --config FILE [--port N] [--host H] [--workers N|auto]
       dialect-proxy fields [--format markdown|json]   (every request field's fate; see --help there)
       dialect-proxy translate (--to KIND | --config FILE) [--json] [REQUEST.json]   (what a backend would get, every change; see --help there)
       dialect-proxy audit FILE.jsonl [--to KIND | --config FILE] [--json]   (recorded traffic: what a move loses; see --help there)

  --config, -c  YAML configuration (see README: Configuration)
  --port, -p    port to listen on (overrides server.port)
  --host, -H    address to bind (overrides server.host)
  --workers, -w processes sharing the port (auto: one per core; default 1); see README: Several cores
  --help, -h    this text`;

async function main(): Promise<void> {
  if (process.argv[2] === 'translate') {
    const { runTranslateCommand } = await import('./commands/translate-command.js');
    process.exitCode = await runTranslateCommand(process.argv.slice(3));
    return;
  }
  if (process.argv[2] === 'audit') {
    const { runAuditCommand } = await import('./commands/audit-command.js');
    process.exitCode = await runAuditCommand(process.argv.slice(3));
    return;
  }
  if (process.argv[2] === 'fields') {
    const { runFieldsCommand } = await import('./commands/fields/fields-command.js');
    process.exitCode = await runFieldsCommand(process.argv.slice(3));
    return;
  }
  const { values } = parseArgs({
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
  if (!values.config) throw new ConfigError('--config', `a configuration file is required\n\n${usage}`);
  const config = loadConfig(values.config);
  const port = values.port === undefined ? undefined : Number(values.port);
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536))
    throw new ConfigError('--port', 'must be a port number');
  const workers = parseWorkers(values.workers);
  const host = values.host || config.server.host;
  if (workers > 1 && cluster.isPrimary) {
    process.exit(
      await runPrimary(config, {
        workers,
        host,
        logger: createLogger({ level: config.server.logLevel }).child({ role: 'primary' }),
        ...(port !== undefined ? { port } : {}),
      }),
    );
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
    (error: unknown) => logger.error(`backends failed to start: ${(error as Error).message}`),
  );
  if (!isLoopbackHost(host) && config.server.apiKeys.length === 0) {
    logger.warn(
      `open relay: no server.apiKeys on ${host} (server.allowUnauthenticated): anyone who can reach the port can use the backends`,
    );
  }
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
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

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : `dialect-proxy: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
