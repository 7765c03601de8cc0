import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestServer } from '../testing/index.ts';

/** Which of the needles occur anywhere in the file's bytes (and its WAL's). */
function bytesFound(file: string, needles: readonly string[]): string[] {
  const bytes = [file, `${file}-wal`].filter(existsSync).map((f) => readFileSync(f));
  return needles.filter((needle) => bytes.some((b) => b.includes(Buffer.from(needle))));
}

describe('side stores after an erasure', () => {
  it('throttle.sqlite holds neither the erased person’s mobile number nor their address', async () => {
    // One trusted proxy: the client's address is the X-Forwarded-For the test sends.
    // A data directory of the test's own: the test server deletes its own at close.
    const dataDir = mkdtempSync(join(tmpdir(), 'kamai-side-'));
    const server = await startTestServer({ TRUSTED_PROXIES: '1', DATA_DIR: dataDir });
    const address = '198.51.100.173';
    const from = { 'x-forwarded-for': address };
    let closed = false;
    try {
      const admin = await server.signUp({ roles: ['admin'] });
      const user = await server.signUp();
      const stranger = server.client();
      // Wrong passwords, a reset code sent and a wrong code: every counter keyed by the number or the address.
      for (let i = 0; i < 2; i++) {
        expect((await stranger.request('POST', '/api/auth/login', { mobile: user.mobile, password: 'not-it-1' }, from)).status).toBe(401);
      }
      expect((await stranger.request('POST', '/api/auth/password-reset', { mobile: user.mobile }, from)).status).toBe(202);
      const guess = await stranger.request('POST', '/api/auth/password-reset/confirm', { mobile: user.mobile, code: '000000', newPassword: 'another-1' }, from);
      expect(guess.status).toBe(400);

      expect((await admin.put('/api/admin/settings', { deletionCoolingOffHours: 0 })).status).toBe(200);
      const requested = await user.post('/api/profile/deletion-request', { password: user.password });
      expect(requested.status).toBe(202);
      const erased = await admin.post(`/api/admin/deletions/${requested.body.id}/erase`);
      expect(erased.status, JSON.stringify(erased.body)).toBe(200);

      await server.close();
      closed = true;
      const throttle = join(dataDir, 'throttle.sqlite');
      expect(existsSync(throttle)).toBe(true);
      expect(bytesFound(throttle, [user.mobile, address])).toEqual([]);
    } finally {
      if (!closed) await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
