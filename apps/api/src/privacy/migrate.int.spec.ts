import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { streams } from '@kamai/contracts';
import { userDecider } from '@kamai/domain';
import { afterAll, describe, expect, it } from 'vitest';
import { userIdForMobile } from '../auth/accounts.ts';
import { handleCommand } from '../commands/handle.ts';
import { loadConfig } from '../config.ts';
import { openSqliteEventStore } from '../event-store/sqlite.ts';
import { verifyLedger } from '../finance/verify.ts';
import { DEMO_ACCOUNTS, seedDemoData } from '../seed.ts';
import { startServer } from '../server.ts';
import { PLAIN_LOG_WARNING } from './marker.ts';
import { MigrationError, migratePrivacy } from './migrate.ts';
import { openSealedSqliteStore } from './open.ts';
// The demo wallet (a balance and a UPI withdrawal) is a seed step.
import '../wallet/seed.ts';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A data directory as the code before sealing wrote it: plain events, `mobile-<digits>` reservations. */
async function legacyDataDir(): Promise<{ dataDir: string; userId: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kamai-migrate-'));
  dirs.push(dataDir);
  const plain = openSqliteEventStore(join(dataDir, 'events.sqlite'));
  const now = new Date('2026-11-01T10:00:00Z');
  await seedDemoData(plain, { mobileStreamId: (mobile) => streams.mobile(mobile) }, now);
  const userId = (await userIdForMobile(plain, { mobileStreamId: (mobile) => streams.mobile(mobile) }, DEMO_ACCOUNTS[0]!.mobile))!;
  const at = now.toISOString();
  const bank = { kind: 'bank' as const, accountNumber: '907856341287', ifsc: 'HDFC0001234', holderName: 'Priya Sharma' };
  await handleCommand(plain, streams.user(userId), userDecider, {
    type: 'RequestWithdrawal',
    data: { withdrawalId: randomUUID(), entryId: randomUUID(), notificationId: randomUUID(), amountPaise: 10_000, destination: bank },
    now: at,
  });
  const image = (n: number) => ({ url: `/objects/kyc/${userId}/${randomUUID()}`, sha256: String(n).repeat(64) });
  await handleCommand(plain, streams.user(userId), userDecider, {
    type: 'SubmitKycDocument',
    data: { documentId: randomUUID(), documentType: 'pan', front: image(1), back: image(2) },
    now: at,
  });
  await plain.close();
  return { dataDir, userId };
}

const plainBytes = ['9000000001', 'Priya', 'Sharma', 'priya.sharma@okhdfc', '907856341287', '$argon2'];

function found(file: string): string[] {
  const bytes = [file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path));
  return plainBytes.filter((value) => bytes.some((b) => b.includes(Buffer.from(value))));
}

describe('a store written before sealing', () => {
  it('is served with a warning, and migrate-privacy copies it sealed: same wallets, a verified chain, the old file aside', async () => {
    const { dataDir, userId } = await legacyDataDir();
    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'false', WEB_DIST: '' });
    const file = join(dataDir, 'events.sqlite');
    expect(found(file)).toEqual(plainBytes);

    // Until migrated: the app starts, says so, and still knows the legacy reservations.
    const lines: string[] = [];
    const server = await startServer(config, (line) => lines.push(line));
    expect(lines).toContain(PLAIN_LOG_WARNING);
    expect(await userIdForMobile(server.store, server.personalData, DEMO_ACCOUNTS[0]!.mobile)).toBe(userId);
    const taken = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ mobile: DEMO_ACCOUNTS[0]!.mobile, password: 'secret123', firstName: 'Else', lastName: 'One', consent: true }),
    });
    expect(taken.status).toBe(409);
    await server.close();
    const oldVerdict = await (async () => {
      const old = openSqliteEventStore(file);
      try {
        return await verifyLedger(old);
      } finally {
        await old.close();
      }
    })();

    const report = await migratePrivacy(config, () => {});
    expect(report).toMatchObject({ events: oldVerdict.events, oldHeadHash: oldVerdict.headHash, mobileStreamsRenamed: DEMO_ACCOUNTS.length });
    expect(report.walletsChecked).toBeGreaterThan(0);
    expect(report.keptAside.some((aside) => aside.startsWith(`${file}.plain-`))).toBe(true);
    expect(readdirSync(dataDir).filter((name) => name.includes('.migrating-'))).toEqual([]);
    expect(found(file)).toEqual([]);

    const sealed = openSealedSqliteStore(file);
    let reservation = '';
    try {
      const verdict = await verifyLedger(sealed);
      expect(verdict.ok).toBe(true);
      const [first] = await sealed.readAll({ after: 0, limit: 1 });
      expect(first).toMatchObject({ type: 'PersonalDataSealed', data: { migratedFrom: { headHash: oldVerdict.headHash, events: oldVerdict.events } } });
      expect(await userIdForMobile(sealed, sealed.personal, DEMO_ACCOUNTS[0]!.mobile)).toBe(userId);
      const registered = (await sealed.readStream(streams.user(userId)))[0]!;
      expect(registered.data).toMatchObject({ mobile: DEMO_ACCOUNTS[0]!.mobile, firstName: 'Priya' });
      reservation = sealed.personal.mobileStreamId(DEMO_ACCOUNTS[0]!.mobile);
    } finally {
      await sealed.close();
    }
    // The reservation names its holder only under its own key (which erasure deletes), not as stored.
    const raw = openSqliteEventStore(file);
    try {
      const stored = await raw.readStream(reservation);
      expect(stored.map((e) => e.type)).toEqual(['MobileReserved']);
      expect(JSON.stringify(stored)).not.toContain(userId);
    } finally {
      await raw.close();
    }
    await expect(migratePrivacy(config, () => {})).rejects.toThrow(MigrationError);
  });
});
