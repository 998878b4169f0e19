// pino with redaction: keys, tokens, contacts and bodies never reach the log.
import { pino, type Logger } from 'pino';

export const REDACT_PATHS = [
  'key',
  '*.key',
  'apiKey',
  '*.apiKey',
  'token',
  '*.token',
  'operatorToken',
  '*.operatorToken',
  'contact',
  '*.contact',
  'body',
  '*.body',
  'headers["x-api-key"]',
  'headers["x-demo-session"]',
  'headers.authorization',
  '*.headers["x-api-key"]',
  '*.headers["x-demo-session"]',
  '*.headers.authorization',
];

export function createLogger(level: string, destination?: NodeJS.WritableStream): Logger {
  const options = { level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { service: 'prauth' } };
  // Buffered, asynchronous stdout: a synchronous write per request costs more than the lookup itself.
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false, minLength: 4096 }));
}

/**
 * The access log: one line per request with fields the pipeline sets itself (request id, method, path without
 * query, status, duration), so it skips redaction. The lines are pino's (same fields, same order) but written by
 * hand, and the lines of one event-loop turn go to the log's stream in one write: pino's general serialiser cost
 * about 6 KB of garbage per request. Only `info` is called on it (src/http/pipeline.ts logAccess).
 */
export function accessLoggerOf(log: Logger): Logger {
  const cached = accessLoggers.get(log);
  if (cached) return cached;
  const stream = (log as unknown as Record<symbol, NodeJS.WritableStream>)[pino.symbols.streamSym];
  const access = accessLog(stream, log.isLevelEnabled('info')) as unknown as Logger;
  accessLoggers.set(log, access);
  return access;
}
const accessLoggers = new WeakMap<Logger, Logger>();

interface AccessLine {
  reqId: string;
  method: string;
  path: string;
  status: number;
  ms: number;
}

function accessLog(stream: NodeJS.WritableStream, enabled: boolean): { info(line: AccessLine, msg: string): void; flush(): void } {
  let batch = '';
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (!batch) return;
    stream.write(batch);
    batch = '';
  };
  return {
    info(l, msg) {
      if (!enabled) return;
      batch += `{"level":30,"time":${Date.now()},"service":"prauth","log":"access","reqId":${JSON.stringify(l.reqId)},"method":${JSON.stringify(l.method)},"path":${JSON.stringify(l.path)},"status":${l.status},"ms":${l.ms},"msg":${JSON.stringify(msg)}}\n`;
      if (batch.length >= BATCH_CHARS) flush();
      else if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}
const BATCH_CHARS = 16_384;
