import type { PushAlertKind } from '@kamai/contracts';
import type { EventStore } from '@kamai/domain';
import type { ReadDbHandle, ReadModels, UserRecord } from '@kamai/projections';
import type { AttemptStore } from './auth/attempts.ts';
import type { UploadLedger } from './uploads/sweep.ts';
import type { SessionCache } from './auth/session-cache.ts';
import type { LoginGuard } from './auth/throttle.ts';
import type { Config } from './config.ts';
import type { PersonalData } from './privacy/personal-data.ts';
import type { SmsPort } from './auth/sms.ts';
import type { LedgerCheckpoints } from './finance/verify.ts';
import type { StorageGuard } from './storage/guard.ts';
import type { WebhookSender } from './webhooks/sender.ts';
import type { ObjectStorage } from './object-storage/index.ts';

/** What the routes work with; built once by the server and shared by every request. */
export interface AppDeps {
  config: Config;
  store: EventStore;
  /** The personal-data keys: erasure, and the names of streams keyed by personal data. */
  personalData: PersonalData;
  db: ReadDbHandle;
  /**
   * The read models' progress: the in-process projection runner (PROJECTIONS=inline) or a watcher of
   * the checkpoints a worker writes (off). Command routes await `runner.waitFor(position)`.
   */
  runner: ReadModels;
  /** The clock; commands carry its time so the domain never reads one. */
  now: () => Date;
  /** Counts failed sign-ins; this process's own. */
  loginGuard: LoginGuard;
  /** Live sessions looked up by this process, kept current by the store's session events. */
  sessions: SessionCache;
  /** Counters shared by every process on DATA_DIR (sign-ins, registrations, uploads). */
  attempts: AttemptStore;
  /** Uploads handed out, until a command uses them or the sweep deletes them. */
  uploads: UploadLedger;
  /** Where password-reset codes are sent (auth/sms.ts). */
  sms: SmsPort;
  /** The server's secret, for HMACs of codes that must not be stored in plain text. */
  secret: Uint8Array;
  /** The signing of the log's checkpoints and its witness: /api/health, ledger/verify (absent in specs that build an app alone). */
  ledger?: Pick<LedgerCheckpoints, 'status' | 'witness'>;
  /** The disk under DATA_DIR: free space against the reserve, read-only, gone (storage/guard.ts). */
  storage?: StorageGuard;
  /** Signs and sends webhook deliveries; seals endpoint secrets (webhooks/sender.ts). */
  webhooks: WebhookSender;
  /** The private objects (images): an erasure's workflow, resumed by the sweep, deletes a person's (absent in specs that build an app alone). */
  objects?: ObjectStorage;
  /** Alerts outside the app: the VAPID public key, and the sender's subscriptions and choices (push/sender.ts). */
  push: { publicKey: string; catchUp(): Promise<void>; chosen(userId: string): PushAlertKind[] };
}

export interface AppEnv {
  Variables: {
    deps: AppDeps;
    /** The signed-in user, or null; set by the session middleware. */
    user: UserRecord | null;
    /** The session id (SHA-256 of the cookie token) when signed in. */
    sessionId: string | null;
  };
}
