import pino from 'pino';

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
type Level = (typeof LEVELS)[number];

/** LOG_LEVEL (default info; silent under vitest, where servers come and go by the hundred). */
function level(env = process.env): Level {
  const wanted = env.LOG_LEVEL?.toLowerCase();
  if (wanted && (LEVELS as readonly string[]).includes(wanted)) return wanted as Level;
  return env.VITEST ? 'silent' : 'info';
}

/**
 * The process's structured log: one JSON object per line on stdout (pino's format: level, time in
 * ms, pid, hostname, msg, and the fields of the call). Cookies, passwords, tokens, image bytes and
 * personal data never reach it: the request log writes only the fields named in `requestLog`, and the redaction
 * list catches them should someone log a whole header set or body later.
 */
export const logger = pino({
  level: level(),
  base: { pid: process.pid, service: 'kamai-api' },
  redact: {
    paths: [
      'headers.cookie',
      'headers.authorization',
      'req.headers.cookie',
      'res.headers["set-cookie"]',
      '*.password',
      '*.passwordHash',
      'password',
      'token',
      // Personal data (contracts' PERSONAL_FIELDS), should a payload or a row ever be logged whole.
      ...['mobile', 'firstName', 'lastName', 'email', 'accountNumber', 'holderName', 'upiId'].flatMap((field) => [field, `*.${field}`]),
    ],
    censor: '[redacted]',
  },
});

/**
 * The request log: one line per answer, of six fields the code sets (request id, method, route,
 * path, status, ms), none of them a field the redaction names. So it skips the redaction, whose
 * wildcard paths run over every field of every line (a tenth of the CPU of a cached read).
 */
export const requestLogger = logger.child({}, { redact: [] });
