import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERASED, ERASED_SHA256, NOT_OPENED, NOT_OPENED_SHA256, UNREADABLE, eventCodec } from '@kamai/contracts';
import type { Json, NewEvent, RecordedEvent } from '@kamai/domain';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { describeEventStoreContract } from '../event-store/contract.ts';
import { changeLetter } from '../testing/tamper.ts';
import { SqliteKeyStore } from './key-store.ts';
import { openSealedSqliteStore } from './open.ts';
import { PersonalDataSealer, SEALED_KEY, type UnreadableEvent } from './sealing.ts';

const dir = mkdtempSync(join(tmpdir(), 'kamai-sealing-'));
let files = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describeEventStoreContract('sqlite, personal data sealed', () => openSealedSqliteStore(join(dir, `events-${++files}.sqlite`)));

/** What the store would hand back for an event as `seal` made it. */
function recorded(streamId: string, event: NewEvent): RecordedEvent {
  // Through JSON, as a store keeps it.
  const stored = JSON.parse(JSON.stringify(event)) as NewEvent;
  return { ...stored, streamId, revision: 0, position: 1, metadata: stored.metadata ?? {}, recordedAt: new Date().toISOString() };
}

const sha = (char: string) => char.repeat(64);

describe('sealing personal fields', () => {
  let keys: SqliteKeyStore;
  let sealer: PersonalDataSealer;
  /** What the sealers reported unreadable (the process's alert, unreadable-alert.ts, in the app). */
  let reports: UnreadableEvent[];
  const userId = randomUUID();
  const stream = `user-${userId}`;
  const registered: NewEvent = {
    id: randomUUID(),
    type: 'UserRegistered',
    data: { userId, mobile: '9876543210', passwordHash: '$argon2id$v=19$secret', firstName: 'Asha', lastName: 'Verma', registeredAt: '2026-11-01T10:00:00.000Z' },
    metadata: { actor: userId },
  };
  const upi: NewEvent = {
    id: randomUUID(),
    type: 'WithdrawalRequested',
    data: { withdrawalId: 'w1', amountPaise: 10000, destination: { kind: 'upi', upiId: 'asha@okbank' }, requestedAt: '2026-11-01T10:00:00.000Z' },
  };
  const kyc: NewEvent = {
    id: randomUUID(),
    type: 'KycDocumentSubmitted',
    data: { documentId: 'd1', documentType: 'pan', frontImageUrl: 'kyc/a.jpg', backImageUrl: 'kyc/b.jpg', frontImageSha256: sha('a'), backImageSha256: sha('b'), submittedAt: '2026-11-01T10:00:00.000Z' },
  };

  // A personal field that is null (an appeal without a new image) reads back null, not erased.
  const appeal: NewEvent = {
    id: randomUUID(),
    type: 'AppealOpened',
    data: { appealId: 'a1', submissionId: 's1', taskId: 't1', rejectedBy: 'r1', note: 'Wrong call', proofImageUrl: null, openedAt: '2026-11-01T10:00:00.000Z' },
  };

  beforeEach(() => {
    keys = new SqliteKeyStore(join(dir, `keys-${++files}.sqlite`), randomBytes(32));
    reports = [];
    sealer = new PersonalDataSealer(keys, (event) => reports.push(event));
  });
  afterEach(() => keys.close());

  it('stores no personal value, and reads every one back', () => {
    for (const event of [registered, upi, kyc, appeal]) {
      const sealed = sealer.seal(stream, event);
      const text = JSON.stringify(sealed);
      for (const secret of ['9876543210', 'argon2id', 'Asha', 'Verma', 'asha@okbank', 'kyc/a.jpg', sha('a'), 'Wrong call']) expect(text).not.toContain(secret);
      expect(sealed.metadata?.[SEALED_KEY]).toBeDefined();
      const opened = sealer.open(recorded(stream, sealed));
      expect(opened.data).toEqual(event.data);
      expect(opened.metadata).toEqual(event.metadata ?? {});
    }
  });

  it('leaves events without personal fields, and events stored before sealing, as they are', () => {
    const credited: NewEvent = { id: randomUUID(), type: 'WalletCredited', data: { entryId: 'e1', amountPaise: 100 } };
    expect(sealer.seal(stream, credited)).toBe(credited);
    const plain = recorded(stream, registered);
    expect(sealer.open(plain)).toBe(plain);
  });

  it('reads an erased person’s fields as placeholders that still pass the contract', () => {
    const stored = [registered, upi, kyc].map((event) => recorded(stream, sealer.seal(stream, event)));
    keys.erase(userId);
    const [user, withdrawal, document] = stored.map((event) => sealer.open(event));
    expect(user!.data).toMatchObject({ userId, mobile: ERASED, passwordHash: ERASED, firstName: ERASED, lastName: ERASED });
    expect(withdrawal!.data).toMatchObject({ amountPaise: 10000, destination: { kind: 'upi', upiId: ERASED } });
    expect(document!.data).toMatchObject({ frontImageUrl: ERASED, frontImageSha256: ERASED_SHA256, backImageSha256: ERASED_SHA256 });
    expect(eventCodec.decode(document!)).not.toBeNull();
    // Written after the erasure: stored as placeholders, and no key is created again.
    const late = sealer.seal(stream, upi);
    expect(late.metadata?.[SEALED_KEY]).toBeUndefined();
    expect((late.data as { destination: Json }).destination).toEqual({ kind: 'upi', upiId: ERASED });
    expect(keys.keyFor(userId)).toBeNull();
  });

  it('leaves a blob shut when asked (a rebuild none of whose read models reads it): each sealed field reads NOT_OPENED, never a value', () => {
    const stored = [registered, upi, kyc, appeal].map((event) => recorded(stream, sealer.seal(stream, event)));
    const [user, withdrawal, document, appealed] = stored.map((event) => sealer.leaveSealed(event));
    expect(user!.data).toEqual({ userId, mobile: NOT_OPENED, passwordHash: NOT_OPENED, firstName: NOT_OPENED, lastName: NOT_OPENED, registeredAt: '2026-11-01T10:00:00.000Z' });
    expect(user!.metadata).toEqual({ actor: userId });
    expect(withdrawal!.data).toMatchObject({ amountPaise: 10000, destination: { kind: 'upi', upiId: NOT_OPENED } });
    expect(document!.data).toMatchObject({ frontImageUrl: NOT_OPENED, frontImageSha256: NOT_OPENED_SHA256, backImageSha256: NOT_OPENED_SHA256 });
    expect(appealed!.data).toMatchObject({ note: NOT_OPENED, proofImageUrl: NOT_OPENED });
    for (const event of [user, withdrawal, document, appealed]) expect(eventCodec.decode(event!)).not.toBeNull();
    // Not looked up: a sealer whose key store has no key for the person would read it as erased.
    const keyless = new SqliteKeyStore(join(dir, `keys-${++files}.sqlite`), randomBytes(32));
    try {
      expect(new PersonalDataSealer(keyless, (event) => reports.push(event)).leaveSealed(stored[0]!).data).toEqual(user!.data);
      expect(new PersonalDataSealer(keyless, (event) => reports.push(event)).open(stored[0]!).data).toMatchObject({ mobile: ERASED });
    } finally {
      keyless.close();
    }
    const plain = recorded(stream, registered);
    expect(sealer.leaveSealed(plain)).toBe(plain);
  });

  it('opens, or leaves shut, an event its caller owns in place: as JSON, what the copying reads give; the stored event untouched by those', () => {
    const stored = [registered, upi, kyc, appeal].map((event) => recorded(stream, sealer.seal(stream, event)));
    const asStored = JSON.stringify(stored);
    const fresh = () => JSON.parse(asStored) as RecordedEvent[];
    for (const read of ['open', 'leaveSealed'] as const) {
      const copied = stored.map((event) => sealer[read](event));
      const owned = fresh();
      const inPlace = owned.map((event) => sealer[read](event, true));
      // The very objects given, changed (a nested path copies its branch, as the copying read does).
      inPlace.forEach((event, i) => expect(event).toBe(owned[i]));
      // The blob's entry is left undefined, which JSON (how a build's reader thread posts its pages) leaves out.
      expect(JSON.parse(JSON.stringify(inPlace))).toEqual(copied);
      expect(JSON.stringify(stored)).toBe(asStored);
    }
  });

  it('reads a tampered blob, or one moved onto another event, as unreadable (not erased), never failing', () => {
    const sealed = recorded(stream, sealer.seal(stream, registered));
    const blob = sealed.metadata[SEALED_KEY] as { c: string };
    const flipped = changeLetter(blob.c, 5);
    const tampered = { ...sealed, metadata: { ...sealed.metadata, [SEALED_KEY]: { ...blob, c: flipped } } };
    expect(sealer.open(tampered).data).toMatchObject({ mobile: UNREADABLE, firstName: UNREADABLE });
    expect(sealer.verdict(tampered)).toBe('unreadable');
    const moved = { ...sealed, id: randomUUID() };
    expect(sealer.open(moved).data).toMatchObject({ mobile: UNREADABLE });
    expect(sealer.verdict(moved)).toBe('unreadable');
    expect(sealer.verdict(sealed)).toBe('open');
    // Each opening reported (the alert counts each event once); a verdict reports nothing.
    expect(reports.map((event) => event.id)).toEqual([tampered.id, moved.id]);
    // With the key gone the same event is an erasure: no key is not tampering.
    keys.erase(userId);
    expect(sealer.open(tampered).data).toMatchObject({ mobile: ERASED, firstName: ERASED });
    expect(sealer.verdict(sealed)).toBe('erased');
    expect(reports).toHaveLength(2);
  });

  it('refuses a personal event with no data subject, and a writer’s own blob', () => {
    expect(() => sealer.seal('settings', upi)).toThrow(/no data subject/);
    expect(() => sealer.seal(stream, { ...registered, metadata: { [SEALED_KEY]: 'x' } })).toThrow(/reserved/);
  });
});

describe('reading the sealed store sealed (followers of headers and plain fields)', () => {
  it('hands readAll and subscribeToAll events as stored with `sealed`, opened without', async () => {
    const store = openSealedSqliteStore(join(dir, `events-${++files}.sqlite`));
    try {
      const userId = randomUUID();
      const stream = `user-${userId}`;
      const requested: NewEvent = {
        id: randomUUID(),
        type: 'WithdrawalRequested',
        data: { withdrawalId: 'w1', amountPaise: 10000, destination: { kind: 'upi', upiId: 'asha@okbank' }, requestedAt: '2026-11-01T10:00:00.000Z' },
      };
      await store.append(stream, [requested], 'no_stream');
      const [opened] = await store.readAll({ after: 0, limit: 10 });
      const [sealed] = await store.readAll({ after: 0, limit: 10, sealed: true });
      expect(opened!.data).toEqual(requested.data);
      expect(JSON.stringify(sealed)).not.toContain('asha@okbank');
      expect(sealed!.metadata[SEALED_KEY]).toBeDefined();
      expect({ type: sealed!.type, streamId: sealed!.streamId, position: sealed!.position }).toEqual({ type: opened!.type, streamId: opened!.streamId, position: opened!.position });

      const firstOf = async (options: { after: number; sealed?: boolean }) => {
        const subscription = store.subscribeToAll(options);
        try {
          const step = await subscription[Symbol.asyncIterator]().next();
          return step.value as RecordedEvent;
        } finally {
          await subscription.close();
        }
      };
      expect(JSON.stringify(await firstOf({ after: 0, sealed: true }))).not.toContain('asha@okbank');
      expect((await firstOf({ after: 0 })).data).toEqual(requested.data);
    } finally {
      await store.close();
    }
  });
});
