import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../testing/server.ts';
import { ifscDirectory } from './directory.ts';

/** Razorpay's IFSC.csv header, two real-shaped rows (quoted fields with commas). */
const FIXTURE = resolve(import.meta.dirname, 'fixtures/IFSC.csv');

let withDirectory: TestServer;
let without: TestServer;

beforeAll(async () => {
  [withDirectory, without] = await Promise.all([startTestServer({ IFSC_DATASET: FIXTURE }), startTestServer()]);
});
afterAll(async () => Promise.all([withDirectory?.close(), without?.close()]));

describe('GET /api/ifsc/:code over real HTTP', () => {
  it('answers the bank and branch of a code in the directory, uppercasing the code', async () => {
    const user = await withDirectory.signUp();
    const res = await user.get('/api/ifsc/hdfc0001234');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ifsc: 'HDFC0001234', bank: 'HDFC Bank', branch: 'KANJURMARG, MUMBAI', city: 'MUMBAI', state: 'MAHARASHTRA' });
    expect((await user.get('/api/ifsc/SBIN0000691')).body).toEqual({
      ifsc: 'SBIN0000691',
      bank: 'State Bank of India',
      branch: 'NEW DELHI MAIN BRANCH',
      city: 'NEW DELHI',
      state: 'DELHI',
    });
  });

  it('answers 404 unknown_ifsc for a well-formed code not in the directory', async () => {
    const user = await withDirectory.signUp();
    const res = await user.get('/api/ifsc/HDFC0009999');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'unknown_ifsc' });
  });

  it('refuses a malformed code with the validation error body', async () => {
    const user = await withDirectory.signUp();
    for (const code of ['HDFC1001234', 'HDFC000123', '1234', 'HDFC0001234X']) {
      const res = await user.get(`/api/ifsc/${code}`);
      expect(res.status, code).toBe(400);
      expect(res.body.error).toMatchObject({
        code: 'validation_failed',
        message: 'Enter a valid IFSC code, e.g. HDFC0001234',
        fields: { code: 'Enter a valid IFSC code, e.g. HDFC0001234' },
      });
    }
  });

  it('answers 404 no_branch_directory when the server has no IFSC_DATASET', async () => {
    const user = await without.signUp();
    const res = await user.get('/api/ifsc/HDFC0001234');
    expect(res.status).toBe(404);
    expect(res.body.error).toMatchObject({ code: 'no_branch_directory' });
  });

  it('is for signed-in users only', async () => {
    expect((await withDirectory.client().get('/api/ifsc/HDFC0001234')).status).toBe(401);
  });

  it('answers 404 no_branch_directory, never a 500, when the configured file is broken', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kamai-ifsc-'));
    const file = join(dir, 'IFSC.csv');
    writeFileSync(file, 'BANK,IFSC,BRANCH\n"HDFC Bank,HDFC0001234,X\n');
    const server = await startTestServer({ IFSC_DATASET: file });
    try {
      const res = await (await server.signUp()).get('/api/ifsc/HDFC0001234');
      expect(res.status).toBe(404);
      expect(res.body.error).toMatchObject({ code: 'no_branch_directory' });
    } finally {
      await server.close();
    }
  });
});

describe('ifscDirectory', () => {
  it('reads the file once, and a broken file again only after the retry interval', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'kamai-ifsc-'));
    const file = join(dir, 'IFSC.csv');
    writeFileSync(file, 'not,a,directory\n1,2,3\n');
    let clock = 0;
    const directory = ifscDirectory(file, { retryAfterMs: 1000, now: () => clock });
    expect(await directory.lookup('HDFC0001234')).toEqual({ kind: 'unavailable' });
    writeFileSync(file, readFileSync(FIXTURE));
    clock = 999;
    expect(await directory.lookup('HDFC0001234')).toEqual({ kind: 'unavailable' });
    clock = 1000;
    expect(await directory.lookup('HDFC0001234')).toMatchObject({ kind: 'found', branch: { branch: 'KANJURMARG, MUMBAI' } });
    // Loaded: later changes to the file are not read (once per process).
    writeFileSync(file, 'x');
    clock = 5000;
    expect(await directory.lookup('SBIN0000691')).toMatchObject({ kind: 'found' });
    expect(await directory.lookup('SBIN0000692')).toEqual({ kind: 'unknown' });
  });
});
