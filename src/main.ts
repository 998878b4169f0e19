// Composition root: the only place that reads the environment and starts infrastructure.
import { ConfigError, deploymentWarnings, loadConfig } from './config.js';
import { createLogger } from './logger.js';
import { PortInUseError, startService } from './service.js';
import { DataDirBusyError } from './store/embedded/data-dir-lock.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger(config.logLevel);
  const t0 = process.hrtime.bigint();
  let service;
  try {
    service = await startService(config, log);
  } catch (err) {
    if (err instanceof PortInUseError) {
      process.stderr.write(`prauth: ${err.message}\n`);
      process.exit(1);
    }
    if (err instanceof DataDirBusyError) {
      process.stderr.write(`prauth: ${err.message}; stop it first or set PRAUTH_DATA_DIR to another directory\n`);
      process.exit(1);
    }
    throw err;
  }
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  log.info({ url: service.url, store: service.store.kind, corpusVersion: service.corpus.current.version, startMs: Math.round(ms) }, 'listening');
  // Settings a production deployment usually needs, said once at start rather than discovered from a client's report.
  for (const warning of deploymentWarnings(config)) log.warn(warning);
  log.flush(); // the log is buffered (4 KB): the start lines are seen at start, not with the first requests
  const scheme = config.tlsCertFile ? 'https' : 'http';
  const port = (service.server.address() as { port: number }).port;
  process.stdout.write(`prauth listening on ${scheme}://${config.host}:${port} (${service.store.kind} store, ${service.corpus.current.counts.served} program-level rules served, ${service.corpus.current.counts.verified} of them verified)\n`);
  // A wildcard bind address is not something to open in a browser: point at this machine instead.
  const browse = `${scheme}://${['0.0.0.0', '::', ''].includes(config.host) ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  process.stdout.write(`coverage explorer: ${browse}/   API reference: ${browse}/docs\n`);

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    service
      .stop()
      .then(() => {
        log.flush(() => process.exit(0));
        // A log destination that is gone (the terminal or pipe closed before us) never completes the flush.
        setTimeout(() => process.exit(0), 2_000);
      })
      .catch((err: unknown) => {
        process.stderr.write(`shutdown failed: ${String(err)}\n`);
        process.exit(1);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  process.stderr.write(`prauth failed to start: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
