#!/usr/bin/env node
/** `dialect-proxy --config FILE [--port N] [--host H]`, or `dialect-proxy fields [--format markdown|json]` */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './configuration.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';

const usage = `Usage: dialect-proxy --config FILE [--port N] [--host H]
       dialect-proxy fields [--format markdown|json]   (every request field's fate; see --help there)
       dialect-proxy translate --config FILE [--endpoint chat|completions] [REQUEST.json]   (what a route would send; nothing is sent)

  --config, -c  YAML configuration (see README: Configuration)
  --port, -p    port to listen on (overrides server.port)
  --host, -H    address to bind (overrides server.host)
  --help, -h    this text`;

async function main(): Promise<void> {
  if (process.argv[2] === 'translate') {
    const { runTranslateCommand } = await import('./translate-command.js');
    process.exitCode = await runTranslateCommand(process.argv.slice(3));
    return;
  }
  if (process.argv[2] === 'fields') {
    const { runFieldsCommand } = await import('./fields/fields-command.js');
    process.exitCode = await runFieldsCommand(process.argv.slice(3));
    return;
  }
  const { values } = parseArgs({
    options: {
      config: { type: 'string', short: 'c' },
      port: { type: 'string', short: 'p' },
      host: { type: 'string', short: 'H' },
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
  if (port !== undefined && !(Number.isInteger(port) && port >= 0 && port < 65536)) throw new ConfigError('--port', 'must be a port number');
  const logger = createLogger({ level: config.server.logLevel });
  const running = await startServer(config, { logger, ...(port !== undefined ? { port } : {}), ...(values.host ? { host: values.host } : {}) });
  logger.info(`dialect-proxy listening on ${running.url}`);
  running.proxy.ready.then(
    () => logger.info('backends ready'),
    (error: unknown) => logger.error(`backends failed to start: ${(error as Error).message}`),
  );
  const stop = (signal: string) => {
    logger.info(`${signal}: shutting down`);
    running.close().then(() => process.exit(0), () => process.exit(1));
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : `dialect-proxy: ${(error as Error)?.stack ?? String(error)}`);
  process.exit(1);
});
