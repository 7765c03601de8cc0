import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { streams } from '@kamai/contracts';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjust } from '../finance/testing.ts';
import { submitDocument } from '../kyc/testing.ts';
import { type TestServer, startTestServer } from '../testing/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => server?.close());

/** A 10-digit number standing alone (not inside a hex id such as a UUID or a digest). */
const TEN_DIGITS = /(?<![0-9a-f])\d{10}(?![0-9a-f])/i;

describe('personal data in the event log', () => {
  it('keeps none of a user’s personal data in plain text in events.sqlite or its WAL, and no mobile number in a stream id', async () => {
    const finance = await server.signUp({ roles: ['finance'], firstName: 'Rohan', lastName: 'Gupta' });
    const user = await server.signUp({ firstName: 'Zubeida', lastName: 'Quasarwala' });
    await adjust(finance, user.mobile, 1000);
    const upiId = 'zubeida.quasar@okaxis';
    const bank = { accountNumber: '907856341287', ifsc: 'HDFC0001234', holderName: 'Zubeida Q Holder' };
    expect((await user.post('/api/withdrawals', { amount: 100, upiId })).status).toBe(201);
    expect((await user.post('/api/withdrawals', { amount: 150, bankAccount: bank })).status).toBe(201);
    const pan = 'ZQUAS4321K';
    const document = await submitDocument(server.url, user, 'pan', 7, pan);

    // The values as the app holds them, read back through the sealed store.
    const events = await server.store.readStream(streams.user(user.userId));
    const registered = events.find((e) => e.type === 'UserRegistered')!.data as { passwordHash: string; mobile: string };
    const kyc = events.find((e) => e.type === 'KycDocumentSubmitted')!.data as Record<string, string>;
    expect(registered.mobile).toBe(user.mobile);
    expect(kyc.frontImageUrl).toBeTruthy();
    expect(kyc.panNumber).toBe(pan);
    void document;

    const file = join(server.dataDir, 'events.sqlite');
    const bytes = [file, `${file}-wal`].filter((path) => existsSync(path)).map((path) => readFileSync(path));
    const secrets = {
      mobile: user.mobile,
      firstName: 'Zubeida',
      lastName: 'Quasarwala',
      upiId,
      accountNumber: bank.accountNumber,
      holderName: bank.holderName,
      passwordHash: registered.passwordHash,
      frontImageUrl: kyc.frontImageUrl!,
      frontImageSha256: kyc.frontImageSha256!,
      pan,
    };
    const found = Object.entries(secrets).filter(([, value]) => bytes.some((b) => b.includes(Buffer.from(value))));
    expect(found.map(([name]) => name)).toEqual([]);

    const raw = new Database(file, { readonly: true });
    const streamIds = raw.prepare<[], string>('SELECT DISTINCT stream_id FROM events').pluck().all();
    raw.close();
    expect(streamIds.filter((id) => TEN_DIGITS.test(id) || id.includes(user.mobile))).toEqual([]);
    expect(streamIds.some((id) => id.startsWith('mobile-'))).toBe(true);
  });
});
