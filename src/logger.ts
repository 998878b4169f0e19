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
  if (destination) return pino(options, destination);
  // Buffered, asynchronous stdout: a synchronous write per request costs more than the lookup itself.
  return pino(options, pino.destination({ dest: 1, sync: false, minLength: 4096 }));
}
