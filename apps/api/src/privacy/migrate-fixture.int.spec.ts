import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ERASED, streams } from '@kamai/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { startServer } from '../server.ts';
import { LEGACY, LEGACY_DATA_DIR, LEGACY_MARKERS } from './fixtures/legacy.ts';
import { migratePrivacy } from './migrate.ts';
import { openSealedSqliteStore } from './open.ts';
import { filesUnder, markersIn } from './testing.ts';

const MARKERS = Object.values(LEGACY_MARKERS);
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Every event of the log, opened, as one text: what anyone holding the keys reads. */
async function everythingReadable(file: string): Promise<string> {
  const store = openSealedSqliteStore(file);
  try {
    return JSON.stringify(await store.readAll({ after: 0, limit: 10_000 }));
  } finally {
    await store.close();
  }
}

describe('migrate-privacy on the committed pre-encryption fixture', () => {
  it('seals every personal value, free text and recorded answer; after erasing the person no byte of the data directory holds a marker', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-legacy-'));
    dirs.push(dataDir);
    cpSync(LEGACY_DATA_DIR, dataDir, { recursive: true });
    const file = join(dataDir, 'events.sqlite');
    // The fixture is what it claims: every marker in the clear.
    expect(markersIn([file], MARKERS)).toEqual(MARKERS);

    const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'false', WEB_DIST: '' });
    const report = await migratePrivacy(config, () => {});
    expect(report).toMatchObject({ mobileStreamsRenamed: 2, walletsChecked: 1 });
    // The plain copies kept aside are the operator's to delete (docs/privacy.md); they are deleted here as told.
    for (const aside of report.keptAside) rmSync(aside, { force: true });

    // Before erasure: nothing plain in any file (event log, WAL, free pages, keys)...
    expect(markersIn(filesUnder(dataDir), MARKERS)).toEqual([]);
    // ...yet sealed, not dropped: read through the keys, each planted value is there, but recorded answers keep their facts only.
    const before = await everythingReadable(file);
    expect(MARKERS.filter((marker) => !before.includes(JSON.stringify(marker).slice(1, -1)))).toEqual([]);
    const sealed = openSealedSqliteStore(file);
    try {
      const answers = (await sealed.readAll({ after: 0, limit: 10_000 })).filter((e) => e.type === 'IdempotentResponseRecorded').map((e) => e.data);
      const [w1] = LEGACY.withdrawals;
      expect(answers).toEqual([
        { status: 201, body: { id: w1, amount: '500.00', status: 'pending', payTo: { kind: 'bank' }, createdAt: expect.any(String) }, recordedAt: expect.any(String) },
        { status: 200, body: { id: w1, userId: LEGACY.userId, status: 'rejected', processedAt: expect.any(String) }, recordedAt: expect.any(String) },
      ]);
      const registered = (await sealed.readStream(streams.user(LEGACY.userId)))[0]!;
      expect(registered.data).toMatchObject({ mobile: LEGACY_MARKERS.mobile, firstName: LEGACY_MARKERS.firstName });
      await sealed.personal.erase(LEGACY.userId);
      // As erasure's workflow does: the number's reservations are sealed under keys of their own, deleted with it.
      const reservations = (await sealed.readAll({ after: 0, limit: 10_000 })).filter((e) => e.type === 'MobileReserved' && (e.data as { userId: string }).userId === LEGACY.userId);
      expect(reservations.length).toBeGreaterThan(0);
      for (const reserved of reservations) await sealed.personal.erase((reserved.data as { reservationId: string }).reservationId);
    } finally {
      await sealed.close();
    }

    // After erasure: not even through the keys; and read models rebuilt by a start hold none either.
    const after = await everythingReadable(file);
    expect(MARKERS.filter((marker) => after.includes(JSON.stringify(marker).slice(1, -1)))).toEqual([]);
    expect(after).toContain(ERASED);
    const server = await startServer(config, () => {});
    await server.close();
    expect(filesUnder(dataDir).some((f) => f.endsWith('read.sqlite'))).toBe(true);
    expect(markersIn(filesUnder(dataDir), MARKERS)).toEqual([]);
  });
});
