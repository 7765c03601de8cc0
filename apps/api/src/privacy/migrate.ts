/**
 * `npm run cli -- migrate-privacy`: turns an embedded event store written before personal data was
 * sealed into one where it is. The log is append-only and hash-chained, so it is copied, not edited:
 * every event goes, in log order and with its id, through the sealed store into a new file (mobile
 * reservations renamed to their keyed-hash streams), after a first event that names the old log by
 * its head hash and event count. The copy must verify and replay every wallet to the same balances as
 * the old log before it replaces it; the old file (and the read models built from it, which hold the
 * same plain data) are kept aside for the operator to delete. The app must be stopped meanwhile.
 *
 * Every field EVENT_FIELDS classifies as personal or free text is sealed on the way (the sealed store
 * does it), older shapes included: literal notification and ledger texts, reasons, and the whole HTTP
 * answers older code recorded (IdempotentResponseRecorded), which are also cut down to their facts
 * (factsOfAnswer): a staff member's answer names the user it acted on, whose key does not seal it.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, renameSync, rmSync } from 'node:fs';
import { SCHEMA_VERSION_KEY, streams } from '@kamai/contracts';
import type { EventStore, Json, NewEvent, RecordedEvent } from '@kamai/domain';
import { type KnownWithdrawal, accounts, changeOf, journalTransactionOf, toProjectedEvent } from '@kamai/projections';
import type { Config } from '../config.ts';
import { openSqliteEventStore } from '../event-store/sqlite.ts';
import { verifyLedger } from '../finance/verify.ts';
import { openPersonalData } from './open.ts';
import { sealEventStore } from './sealed-store.ts';

export interface PrivacyMigration {
  events: number;
  oldHeadHash: string | null;
  oldHeadPosition: number;
  mobileStreamsRenamed: number;
  walletsChecked: number;
  /** Where the old (plain) files now are. */
  keptAside: string[];
}

export class MigrationError extends Error {}

const LEGACY_MOBILE_STREAM = /^mobile-(\d+)$/;
const USER_STREAM_PREFIX = streams.user('');
const PAGE = 1000;

type Balances = Map<string, { available: number; pending: number }>;

/** Every wallet's available and pending balance, replayed from its user stream's events as replay-wallet does. */
class WalletReplay {
  readonly balances: Balances = new Map();
  readonly #withdrawals = new Map<string, KnownWithdrawal>();

  add(event: RecordedEvent): void {
    if (!event.streamId.startsWith(USER_STREAM_PREFIX)) return;
    const userId = event.streamId.slice(USER_STREAM_PREFIX.length);
    const projected = toProjectedEvent(event);
    if (!projected) return;
    if (projected.type === 'WithdrawalRequested') this.#withdrawals.set(projected.data.withdrawalId, { userId, amountPaise: projected.data.amountPaise });
    const t = journalTransactionOf(projected, userId, (id) => this.#withdrawals.get(id));
    if (!t) return;
    const wallet = this.balances.get(userId) ?? { available: 0, pending: 0 };
    wallet.available += changeOf(accounts.available(userId), t.from, t.to, t.amountPaise);
    wallet.pending += changeOf(accounts.payoutPending(userId), t.from, t.to, t.amountPaise);
    this.balances.set(userId, wallet);
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;
/** Rupees as the API writes them ("1250.00"): never a phone or account number, which have no decimals. */
const RUPEES = /^-?\d{1,12}\.\d{2}$/;
/** Fields whose value is a code of a closed list (a status, a kind): kept when they look like one. */
const CODE_FIELDS = new Set(['status', 'kind', 'type', 'direction', 'code', 'documentType', 'taskType', 'role', 'decision', 'result']);
const CODE = /^[a-z][a-z_]{0,39}$/;

/**
 * What a copied IdempotentResponseRecorded keeps of its answer: the facts a replay may need — ids,
 * amounts, times, counts, flags and codes — and nothing else. Any other string (a name, a number,
 * a UPI ID, a reason, a message) may be anyone's and goes. Older code replays it only within the
 * key's retention (IDEMPOTENCY_RETENTION_HOURS), so a retry then sees the ids of what it did.
 */
export function factsOfAnswer(body: Json, field = ''): Json | undefined {
  if (body === null || typeof body === 'number' || typeof body === 'boolean') return body;
  if (typeof body === 'string') {
    const fact = UUID.test(body) || ISO_TIME.test(body) || RUPEES.test(body) || (CODE_FIELDS.has(field) && CODE.test(body));
    return fact ? body : undefined;
  }
  if (Array.isArray(body)) return body.map((item) => factsOfAnswer(item, field) ?? null);
  const kept: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(body)) {
    const fact = value === undefined ? undefined : factsOfAnswer(value, key);
    if (fact !== undefined) kept[key] = fact;
  }
  return kept;
}

/**
 * An event as the copy appends it: a recorded answer cut down to its facts, with its caller (whose
 * key seals it) taken from the key's reservation when the event does not name one.
 */
function copyOf(event: RecordedEvent, callers: Map<string, string>): NewEvent {
  if (event.type === 'IdempotencyKeyReserved' && typeof (event.data as { caller?: unknown }).caller === 'string') {
    callers.set(event.streamId, (event.data as { caller: string }).caller);
  }
  if (event.type !== 'IdempotentResponseRecorded' || typeof event.data !== 'object' || event.data === null || Array.isArray(event.data)) {
    return { id: event.id, type: event.type, data: event.data, metadata: event.metadata };
  }
  const data = event.data as { [key: string]: Json };
  const actor = event.metadata.actor ?? callers.get(event.streamId);
  return {
    id: event.id,
    type: event.type,
    data: { ...data, body: factsOfAnswer(data.body ?? null) ?? null },
    metadata: { ...event.metadata, ...(actor !== undefined && { actor }) },
  };
}

async function eachEvent(store: EventStore, visit: (event: RecordedEvent) => void | Promise<void>): Promise<number> {
  let after = 0;
  let count = 0;
  for (;;) {
    const page = await store.readAll({ after, limit: PAGE });
    if (page.length === 0) return count;
    for (const event of page) await visit(event);
    count += page.length;
    after = page.at(-1)!.position;
  }
}

function moveAside(file: string, to: string, kept: string[]): void {
  for (const suffix of ['', '-wal', '-shm']) {
    if (!existsSync(file + suffix)) continue;
    renameSync(file + suffix, to + suffix);
    if (suffix === '') kept.push(to);
  }
}

/**
 * A mobile reservation's event as the sealed log keeps it (schema version 2): with a reservation id of
 * its own, under whose key the number and the holder are sealed (erasure deletes it), and not naming
 * the holder as its actor. `reservations` is each stream's current reservation id.
 */
function reservationCopy(event: RecordedEvent, reservations: Map<string, string>): NewEvent | null {
  if ((event.type !== 'MobileReserved' && event.type !== 'MobileReleased') || typeof event.data !== 'object' || event.data === null || Array.isArray(event.data)) return null;
  if (event.type === 'MobileReserved') reservations.set(event.streamId, randomUUID());
  const reservationId = reservations.get(event.streamId) ?? randomUUID();
  const metadata = { ...event.metadata, [SCHEMA_VERSION_KEY]: 2, ...(event.type === 'MobileReserved' && { actor: 'registration' }) };
  return { id: event.id, type: event.type, data: { ...event.data, reservationId }, metadata };
}

export async function migratePrivacy(config: Config, log: (line: string) => void = console.log): Promise<PrivacyMigration> {
  if (config.eventStore.kind !== 'sqlite') throw new MigrationError('migrate-privacy copies the embedded event store; a KurrentDB log is copied with its own tools');
  const file = config.eventStore.file;
  if (!existsSync(file)) throw new MigrationError(`there is no event store at ${file}`);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const draft = `${file}.migrating-${stamp}`;
  const old = openSqliteEventStore(file);
  const personal = openPersonalData(config, log);
  const fresh = sealEventStore(openSqliteEventStore(draft), personal);
  let done = false;
  try {
    if ((await old.readStream(streams.privacy(), { maxCount: 1 })).length > 0) throw new MigrationError(`${file} is already sealed: nothing to migrate`);
    const verdict = await verifyLedger(old, { signingKey: config.ledgerSigningKey });
    if (!verdict.ok) throw new MigrationError(`the old log does not verify (${verdict.failure?.detail ?? 'broken chain'}): restore it from a backup first`);
    log(`[migrate-privacy] copying ${verdict.events} events (head ${verdict.headHash ?? 'none'} at position ${verdict.headPosition}) into ${draft}`);
    const marker: NewEvent = {
      id: randomUUID(),
      type: 'PersonalDataSealed',
      data: { sealedAt: new Date().toISOString(), migratedFrom: { headHash: verdict.headHash, headPosition: verdict.headPosition, events: verdict.events } },
      metadata: { actor: 'cli' },
    };
    await fresh.append(streams.privacy(), [marker], 'no_stream');

    const before = new WalletReplay();
    const renamed = new Set<string>();
    const callers = new Map<string, string>();
    const reservations = new Map<string, string>();
    let pending: Promise<unknown>[] = [];
    const events = await eachEvent(old, async (event) => {
      before.add(event);
      const legacy = LEGACY_MOBILE_STREAM.exec(event.streamId);
      const streamId = legacy ? personal.mobileStreamId(legacy[1]!) : event.streamId;
      if (legacy) renamed.add(event.streamId);
      const copy: NewEvent = reservationCopy(event, reservations) ?? copyOf(event, callers);
      // Appended in log order without waiting for each: group commit writes them together, in order.
      pending.push(fresh.append(streamId, [copy], event.revision === 0 ? 'no_stream' : event.revision - 1));
      if (pending.length >= PAGE) {
        await Promise.all(pending);
        pending = [];
      }
    });
    await Promise.all(pending);

    const after = new WalletReplay();
    await eachEvent(fresh, (event) => after.add(event));
    const differing = [...new Set([...before.balances.keys(), ...after.balances.keys()])].filter((userId) => {
      const [a, b] = [before.balances.get(userId), after.balances.get(userId)];
      return a?.available !== b?.available || a?.pending !== b?.pending;
    });
    if (differing.length > 0) throw new MigrationError(`${differing.length} wallets replay differently in the copy (first: user ${differing[0]}); the old log is left in place`);
    const copied = await verifyLedger(fresh);
    if (!copied.ok || copied.events !== events + 1) throw new MigrationError('the copy does not verify; the old log is left in place');
    log(`[migrate-privacy] ${events} events copied and sealed, ${renamed.size} mobile reservations renamed; ${before.balances.size} wallets replay to the same balances; the copy verifies`);
    done = true;
    const report: PrivacyMigration = {
      events,
      oldHeadHash: verdict.headHash,
      oldHeadPosition: verdict.headPosition,
      mobileStreamsRenamed: renamed.size,
      walletsChecked: before.balances.size,
      keptAside: [],
    };
    await Promise.all([old.close(), fresh.close()]);
    moveAside(file, `${file}.plain-${stamp}`, report.keptAside);
    moveAside(draft, file, []);
    // The read models were built from the old log (positions differ, plain personal data): aside too,
    // rebuilt from the new log at the next start.
    moveAside(config.readDbFile, `${config.readDbFile}.plain-${stamp}`, report.keptAside);
    return report;
  } finally {
    if (!done) {
      await Promise.allSettled([old.close(), fresh.close()]);
      for (const suffix of ['', '-wal', '-shm']) rmSync(draft + suffix, { force: true });
    }
    personal.close();
  }
}
