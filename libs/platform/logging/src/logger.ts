import pino, { Logger } from 'pino';

/** Paths that may carry a credential; their values never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'secret',
  'key',
  'apiKey',
  'password',
  '*.secret',
  '*.key',
  '*.apiKey',
  '*.password',
  '*.authorization',
];

export function createLogger(app: string, level = process.env.LOG_LEVEL ?? 'info'): Logger {
  return pino({
    level,
    base: { app, pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
  });
}
