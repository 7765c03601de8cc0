import { dirname, isAbsolute, relative, resolve } from 'node:path';
import * as v from 'valibot';

const Port = v.pipe(
  v.optional(v.string(), '3000'),
  v.regex(/^\d{1,5}$/, 'must be a port number'),
  v.transform(Number),
  v.number(),
  v.minValue(0, 'must be a port number'),
  v.maxValue(65535, 'must be a port number'),
);
const Flag = (fallback: 'true' | 'false') =>
  v.pipe(v.optional(v.picklist(['true', 'false', '1', '0'], 'must be true or false'), fallback), v.transform((s) => s === 'true' || s === '1'));

/** Environment variables, each with a working default; none needs a server to run. */
const Env = v.object({
  PORT: Port,
  HOST: v.optional(v.string(), '0.0.0.0'),
  /** Every file the app keeps: event store, read models, uploaded objects, the signing secret. */
  DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), './data'),
  EVENT_STORE: v.optional(v.picklist(['sqlite', 'kurrentdb', 'postgres'], 'must be sqlite, kurrentdb or postgres'), 'sqlite'),
  KURRENTDB_URL: v.optional(v.pipe(v.string(), v.startsWith('kurrentdb', 'must be a kurrentdb:// connection string'))),
  /** The PostgreSQL event log shared by every node (EVENT_STORE=postgres); the other stores stay in DATA_DIR. */
  DATABASE_URL: v.optional(v.pipe(v.string(), v.regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string'))),
  OBJECT_STORAGE: v.optional(v.picklist(['disk', 's3'], 'must be disk or s3'), 'disk'),
  S3_ENDPOINT: v.optional(v.pipe(v.string(), v.url('must be a URL'))),
  /** Where browsers reach S3, when it differs from S3_ENDPOINT (upload URLs are signed for it). */
  S3_PUBLIC_ENDPOINT: v.optional(v.pipe(v.string(), v.url('must be a URL'))),
  S3_REGION: v.optional(v.string(), 'us-east-1'),
  S3_BUCKET: v.optional(v.string(), 'kamai'),
  S3_ACCESS_KEY_ID: v.optional(v.string()),
  S3_SECRET_ACCESS_KEY: v.optional(v.string()),
  S3_FORCE_PATH_STYLE: Flag('true'),
  /** HMAC key for signed upload URLs; shared by every API process. Defaults to a key kept in DATA_DIR. */
  APP_SECRET: v.optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))),
  /** When set, `GET /metrics` answers only `Authorization: Bearer <METRICS_TOKEN>` (401 otherwise). */
  METRICS_TOKEN: v.optional(v.pipe(v.string(), v.minLength(16, 'must be at least 16 characters'))),
  /**
   * Key-encryption key of the personal-data key store (32 bytes, hex or base64). Defaults to a key
   * created once in DATA_DIR, which is fine for development only: a copy of DATA_DIR then carries it.
   */
  KEY_ENCRYPTION_KEY: v.optional(
    v.pipe(
      v.string(),
      v.check((value) => parseKeyEncryptionKey(value) !== null, 'must be 32 bytes as 64 hex digits or base64'),
    ),
  ),
  /**
   * Signs the checkpoints of the event log's head (HMAC-SHA256), so a copy of DATA_DIR cannot be
   * rewritten and re-vouched for. Never kept in DATA_DIR. Unset: no checkpoints are recorded (the
   * start-up log and verify-ledger say so).
   */
  LEDGER_SIGNING_KEY: v.optional(v.pipe(v.string(), v.minLength(32, 'must be at least 32 characters'))),
  /**
   * Where each signed checkpoint is also kept, outside DATA_DIR: a file path (append-only JSON lines)
   * or s3://bucket/prefix (the S3_* endpoint and credentials). See docs/ledger-integrity.md.
   */
  LEDGER_WITNESS: v.optional(v.pipe(v.string(), v.minLength(1))),
  /**
   * The erasure list: one line per erasure (ids only), kept outside the backed-up files so a restore
   * re-applies erasures made since the backup. Defaults to `erasures.jsonl` beside a file witness,
   * else in DATA_DIR (not copied by `backup`). See docs/operations.md.
   */
  ERASURE_LIST: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** Seed demo tasks and accounts when the store is empty: auto = only on the embedded default store. */
  SEED_DEMO: v.optional(v.picklist(['auto', 'true', 'false'], 'must be auto, true or false'), 'auto'),
  /** Trust X-Forwarded-Proto from a proxy in front, to mark cookies Secure behind TLS termination. */
  TRUST_PROXY: Flag('false'),
  /**
   * Origins besides the app's own that may send state-changing requests (comma-separated, e.g. a web
   * app served from another host in a split deployment).
   */
  ALLOWED_ORIGINS: v.optional(
    v.pipe(
      v.string(),
      v.transform((s) => s.split(',').map((o) => o.trim()).filter(Boolean)),
      v.check((list) => list.every((o) => /^https?:\/\/[^/\s]+$/.test(o)), 'must be comma-separated origins like https://app.example.in'),
    ),
  ),
  /**
   * How many proxies in front append to X-Forwarded-For: the client address is the entry that many
   * hops from the right (entries further left are written by the client and never trusted). 0: the
   * socket's address. TRUST_PROXY=true alone counts as one.
   */
  TRUSTED_PROXIES: v.optional(v.pipe(v.string(), v.regex(/^\d{1,2}$/, 'must be a number of proxy hops'), v.transform(Number))),
  /** Registrations allowed per client address per hour. */
  REGISTRATIONS_PER_HOUR: v.optional(v.pipe(v.string(), v.regex(/^\d{1,7}$/, 'must be a whole number'), v.transform(Number)), '20'),
  /**
   * The embedded event store's commits: inline (on the event loop; group commit makes the fsync one
   * per batch) or thread (a writer thread with a connection of its own, so the fsync never holds the
   * event loop: for disks whose fsync takes milliseconds; it costs a thread's CPU where it is fast).
   */
  EVENT_STORE_WRITER: v.optional(v.picklist(['inline', 'thread'], 'must be inline or thread'), 'inline'),
  /**
   * inline: this process runs the projections too, on the event loop that serves HTTP; thread: this
   * process runs them on a thread of its own (embedded event store; with KurrentDB it means inline);
   * off: a worker process (npm run worker) does.
   */
  PROJECTIONS: v.optional(v.picklist(['inline', 'thread', 'off'], 'must be inline, thread or off'), 'thread'),
  /**
   * Razorpay's IFSC.csv (github.com/razorpay/ifsc releases): the bank branch directory behind
   * GET /api/ifsc/:code. Unset: no branch names, the withdraw form shows the bank only.
   */
  IFSC_DATASET: v.optional(v.pipe(v.string(), v.minLength(1))),
  /** Where password-reset codes go: console (the server log, for development) or an SMS gateway. */
  SMS_PROVIDER: v.optional(v.picklist(['console', 'gateway'], 'must be console or gateway'), 'console'),
  SMS_GATEWAY_URL: v.optional(v.pipe(v.string(), v.url('must be a URL'))),
  SMS_GATEWAY_API_KEY: v.optional(v.string()),
  /** The DLT header (sender id), e.g. KAMAIN. */
  SMS_SENDER_ID: v.optional(v.string()),
  SMS_DLT_ENTITY_ID: v.optional(v.string()),
  /** The DLT content template ids of the reset-code SMS in English and in Hindi. */
  SMS_DLT_TEMPLATE_ID_EN: v.optional(v.string()),
  SMS_DLT_TEMPLATE_ID_HI: v.optional(v.string()),
  /**
   * Free space (MiB) kept on every file system holding DATA_DIR's files: below it the API refuses
   * commands that append (503 storage_full) while reads and staff work go on; a warning is logged
   * below twice it. 0: no reserve (commands run until the disk is full).
   */
  DISK_RESERVE_MB: v.optional(v.pipe(v.string(), v.regex(/^\d{1,7}$/, 'must be a whole number of MiB'), v.transform(Number)), '256'),
  /** The built web app to serve; empty to serve the API only. */
  WEB_DIST: v.optional(v.string()),
  /** `test` (vitest sets it) also lets webhooks go to http on loopback. */
  NODE_ENV: v.optional(v.string()),
  /**
   * Webhook endpoints may be http://localhost, 127.0.0.1 or [::1] (a receiver on this machine):
   * true or false; unset, only when NODE_ENV=test. Everything else must be https.
   */
  WEBHOOK_HTTP_LOOPBACK: v.optional(v.picklist(['true', 'false'], 'must be true or false')),
  /** The first retry of a failed webhook delivery waits this long (ms); each next one twice as long, at most an hour, for 24 hours. */
  WEBHOOK_RETRY_FIRST_MS: v.optional(v.pipe(v.string(), v.regex(/^\d{2,8}$/, 'must be a whole number of milliseconds from 10'), v.transform(Number)), '10000'),
  /**
   * Web Push's VAPID key pair, base64url (as `npx web-push generate-vapid-keys` prints them); both or
   * neither. Unset: a private key is created once in DATA_DIR/vapid.key (docs/push.md).
   */
  VAPID_PUBLIC_KEY: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{87}$/, 'must be a 65-byte P-256 public key in base64url'))),
  VAPID_PRIVATE_KEY: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{43}$/, 'must be a 32-byte private key in base64url'))),
  /** Who push services may contact about this sender: a mailto: or https: address. */
  VAPID_SUBJECT: v.optional(v.pipe(v.string(), v.regex(/^(mailto:|https:\/\/)/, 'must be a mailto: or https: address')), 'mailto:support@kamai.app'),
  /** The DLT content template ids of the payout paid / failed SMS (gateway only; without them those SMS are not sent). */
  SMS_DLT_TEMPLATE_ID_PAYOUT_PAID_EN: v.optional(v.string()),
  SMS_DLT_TEMPLATE_ID_PAYOUT_PAID_HI: v.optional(v.string()),
  SMS_DLT_TEMPLATE_ID_PAYOUT_FAILED_EN: v.optional(v.string()),
  SMS_DLT_TEMPLATE_ID_PAYOUT_FAILED_HI: v.optional(v.string()),
  /** The balance warnings' SMS to finance (docs/month-end.md#balances-that-warn); variables `amount` and `threshold`. */
  SMS_DLT_TEMPLATE_ID_PAYOUT_FLOAT_LOW_EN: v.optional(v.string()),
  SMS_DLT_TEMPLATE_ID_PAYOUT_FLOAT_LOW_HI: v.optional(v.string()),
  SMS_DLT_TEMPLATE_ID_TAX_PAYABLE_HIGH_EN: v.optional(v.string()),
  SMS_DLT_TEMPLATE_ID_TAX_PAYABLE_HIGH_HI: v.optional(v.string()),
});

export type Config = ReturnType<typeof loadConfig>;

/** Secrets published in .env.example or older compose files: a server must never run with one. */
export const EXAMPLE_APP_SECRETS: readonly string[] = ['replace-with-at-least-32-random-characters', 'change-me-to-32-or-more-random-characters!!'];

/** 32 bytes from 64 hex digits or base64 (standard or URL-safe); null when it is neither. */
export function parseKeyEncryptionKey(value: string): Buffer | null {
  const text = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text, 'base64');
    return bytes.length === 32 ? bytes : null;
  }
  return null;
}

export class ConfigError extends Error {}

/** Parses the environment once; a bad value stops start-up with a message naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const picked = Object.fromEntries(Object.keys(Env.entries).map((key) => [key, env[key] === '' ? undefined : env[key]]));
  const result = v.safeParse(Env, picked);
  if (!result.success) {
    const lines = result.issues.map((issue) => `  ${v.getDotPath(issue) ?? '?'}=${JSON.stringify(issue.input)}: ${issue.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = result.output;
  if (e.EVENT_STORE === 'kurrentdb' && !e.KURRENTDB_URL) throw new ConfigError('invalid configuration:\n  KURRENTDB_URL is required when EVENT_STORE=kurrentdb');
  if (e.EVENT_STORE === 'postgres' && !e.DATABASE_URL) throw new ConfigError('invalid configuration:\n  DATABASE_URL is required when EVENT_STORE=postgres');
  if (e.OBJECT_STORAGE === 's3' && !(e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError('invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required when OBJECT_STORAGE=s3');
  }
  const gatewayMissing = (
    ['SMS_GATEWAY_URL', 'SMS_GATEWAY_API_KEY', 'SMS_SENDER_ID', 'SMS_DLT_ENTITY_ID', 'SMS_DLT_TEMPLATE_ID_EN', 'SMS_DLT_TEMPLATE_ID_HI'] as const
  ).filter((key) => !e[key]);
  if (e.SMS_PROVIDER === 'gateway' && gatewayMissing.length > 0) {
    throw new ConfigError(`invalid configuration:\n  ${gatewayMissing.join(', ')} required when SMS_PROVIDER=gateway`);
  }
  if (e.APP_SECRET && EXAMPLE_APP_SECRETS.includes(e.APP_SECRET)) {
    throw new ConfigError('invalid configuration:\n  APP_SECRET is the published example value: set a random secret of your own (e.g. openssl rand -hex 32)');
  }
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new ConfigError('invalid configuration:\n  VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY are set together or not at all');
  }
  const dataDir = resolve(e.DATA_DIR);
  const ledgerWitness = ledgerWitnessOf(e.LEDGER_WITNESS, dataDir, Boolean(e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY));
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    eventStore:
      e.EVENT_STORE === 'kurrentdb'
        ? { kind: 'kurrentdb' as const, url: e.KURRENTDB_URL! }
        : e.EVENT_STORE === 'postgres'
          ? { kind: 'postgres' as const, url: e.DATABASE_URL! }
          : { kind: 'sqlite' as const, file: resolve(dataDir, 'events.sqlite'), writerThread: e.EVENT_STORE_WRITER === 'thread' },
    readDbFile: resolve(dataDir, 'read.sqlite'),
    objectStorage: e.OBJECT_STORAGE,
    s3: {
      endpoint: e.S3_ENDPOINT,
      publicEndpoint: e.S3_PUBLIC_ENDPOINT,
      region: e.S3_REGION,
      bucket: e.S3_BUCKET,
      accessKeyId: e.S3_ACCESS_KEY_ID ?? '',
      secretAccessKey: e.S3_SECRET_ACCESS_KEY ?? '',
      forcePathStyle: e.S3_FORCE_PATH_STYLE,
    },
    appSecret: e.APP_SECRET,
    metricsToken: e.METRICS_TOKEN ?? null,
    keyEncryptionKey: e.KEY_ENCRYPTION_KEY === undefined ? null : parseKeyEncryptionKey(e.KEY_ENCRYPTION_KEY),
    keysFile: resolve(dataDir, 'keys.sqlite'),
    ledgerSigningKey: e.LEDGER_SIGNING_KEY === undefined ? null : Buffer.from(e.LEDGER_SIGNING_KEY, 'utf8'),
    ledgerWitness,
    erasureList: e.ERASURE_LIST !== undefined
      ? resolve(e.ERASURE_LIST)
      : resolve(ledgerWitness?.kind === 'file' ? dirname(ledgerWitness.path) : dataDir, 'erasures.jsonl'),
    seedDemo: e.SEED_DEMO,
    trustProxy: e.TRUST_PROXY || (e.TRUSTED_PROXIES ?? 0) > 0,
    trustedProxies: e.TRUSTED_PROXIES ?? (e.TRUST_PROXY ? 1 : 0),
    registrationsPerHour: e.REGISTRATIONS_PER_HOUR,
    throttleFile: resolve(dataDir, 'throttle.sqlite'),
    diskReserveBytes: e.DISK_RESERVE_MB * 1024 * 1024,
    allowedOrigins: (e.ALLOWED_ORIGINS ?? []).map((o) => o.toLowerCase()),
    projections: e.PROJECTIONS,
    ifscDataset: e.IFSC_DATASET === undefined ? null : resolve(e.IFSC_DATASET),
    sms:
      e.SMS_PROVIDER === 'gateway'
        ? {
            kind: 'gateway' as const,
            url: e.SMS_GATEWAY_URL!,
            apiKey: e.SMS_GATEWAY_API_KEY!,
            senderId: e.SMS_SENDER_ID!,
            entityId: e.SMS_DLT_ENTITY_ID!,
            templateIds: { en: e.SMS_DLT_TEMPLATE_ID_EN!, hi: e.SMS_DLT_TEMPLATE_ID_HI! },
            alertTemplateIds: {
              payout_paid: { en: e.SMS_DLT_TEMPLATE_ID_PAYOUT_PAID_EN, hi: e.SMS_DLT_TEMPLATE_ID_PAYOUT_PAID_HI },
              payout_failed: { en: e.SMS_DLT_TEMPLATE_ID_PAYOUT_FAILED_EN, hi: e.SMS_DLT_TEMPLATE_ID_PAYOUT_FAILED_HI },
              payout_float_low: { en: e.SMS_DLT_TEMPLATE_ID_PAYOUT_FLOAT_LOW_EN, hi: e.SMS_DLT_TEMPLATE_ID_PAYOUT_FLOAT_LOW_HI },
              tax_payable_high: { en: e.SMS_DLT_TEMPLATE_ID_TAX_PAYABLE_HIGH_EN, hi: e.SMS_DLT_TEMPLATE_ID_TAX_PAYABLE_HIGH_HI },
            },
          }
        : { kind: 'console' as const },
    webhooks: {
      file: resolve(dataDir, 'webhooks.sqlite'),
      httpLoopback: e.WEBHOOK_HTTP_LOOPBACK === undefined ? e.NODE_ENV === 'test' : e.WEBHOOK_HTTP_LOOPBACK === 'true',
      retryFirstMs: e.WEBHOOK_RETRY_FIRST_MS,
    },
    push: {
      file: resolve(dataDir, 'push.sqlite'),
      vapidKeyFile: resolve(dataDir, 'vapid.key'),
      vapid: e.VAPID_PUBLIC_KEY && e.VAPID_PRIVATE_KEY ? { publicKey: e.VAPID_PUBLIC_KEY, privateKey: e.VAPID_PRIVATE_KEY } : null,
      subject: e.VAPID_SUBJECT,
    },
    webDist: e.WEB_DIST === undefined ? resolve('apps/web/dist') : e.WEB_DIST === '' ? null : resolve(e.WEB_DIST),
  };
}

/** LEDGER_WITNESS: a file outside DATA_DIR (a copy of DATA_DIR must not carry it) or s3://bucket/prefix. */
function ledgerWitnessOf(value: string | undefined, dataDir: string, hasS3Credentials: boolean) {
  if (value === undefined) return null;
  const s3 = /^s3:\/\/([^/\s]+)\/?(.*)$/.exec(value);
  if (s3) {
    if (!hasS3Credentials) throw new ConfigError('invalid configuration:\n  LEDGER_WITNESS=s3://... needs S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY');
    const prefix = s3[2] ?? '';
    return { kind: 's3' as const, bucket: s3[1]!, prefix: prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/` };
  }
  const path = resolve(value);
  const inside = relative(dataDir, path);
  if (!inside.startsWith('..') && !isAbsolute(inside)) {
    throw new ConfigError(`invalid configuration:\n  LEDGER_WITNESS=${JSON.stringify(value)}: must be outside DATA_DIR (a copy of the data directory must not carry its own witness)`);
  }
  return { kind: 'file' as const, path };
}
