import type { AuditActorBody, AuditEntryBody } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantRole } from '../auth/accounts.ts';
import { adjust } from '../finance/testing.ts';
import { runAutoApprovals } from '../review/auto-approve.ts';
import { createTaskAs, submitProof, uploadedImage } from '../tasks/testing.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';

type Staff = TestClient & { userId: string; mobile: string };
let server: TestServer;
let admin: Staff;
let finance: Staff;
let user: Staff;

/** Everything up to now is projected before the list is read. */
async function settled() {
  await server.runner.waitFor(await server.store.headPosition());
}

async function audit(query: string) {
  const res = await admin.get<AuditEntryBody[]>(`/api/admin/audit?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res;
}

/** Every entry of a filtered list, walked a page of `limit` at a time by X-Next-Cursor. */
async function walk(query: string, limit: number): Promise<AuditEntryBody[]> {
  const rows: AuditEntryBody[] = [];
  for (let cursor: string | null = null; ; ) {
    const page = await audit(`${query}&limit=${limit}${cursor === null ? '' : `&cursor=${cursor}`}`);
    expect(page.body.length).toBeLessThanOrEqual(limit);
    rows.push(...page.body);
    cursor = page.headers.get('x-next-cursor');
    if (cursor === null) return rows;
  }
}

beforeAll(async () => {
  server = await startTestServer();
  admin = await server.signUp({ roles: ['admin'], firstName: 'Arjun', lastName: 'Mehta' });
  finance = await server.signUp({ roles: ['finance'], firstName: 'Rohan', lastName: 'Gupta' });
  user = await server.signUp({ firstName: 'Asha', lastName: 'Rao' });
  for (const amount of [1, 2, 3, 4, 5]) await adjust(finance, user.mobile, amount);

  // Roles granted by the admin at chosen moments around an IST midnight (31 March 2030, 23:59 and 00:00).
  const dated = await server.signUp({ firstName: 'Dev', lastName: 'Shah' });
  await grantRole(server.store, dated.userId, 'reviewer', admin.userId, new Date('2030-03-30T18:30:00.000Z'));
  await grantRole(server.store, dated.userId, 'finance', admin.userId, new Date('2030-03-31T18:29:59.999Z'));
  await grantRole(server.store, dated.userId, 'admin', admin.userId, new Date('2030-03-31T18:30:00.000Z'));

  // A proof nobody reviewed, approved by the system's sweep as if days had passed.
  const task = await createTaskAs(admin);
  const worker = await server.signUp();
  expect((await submitProof(worker, task.id, await uploadedImage(server, worker))).status).toBe(201);
  await settled();
  const swept = await runAutoApprovals({ store: server.store, db: server.db, now: new Date(Date.now() + 30 * 24 * 60 * 60 * 1000) });
  expect(swept.approved).toHaveLength(1);
  await settled();
});
afterAll(async () => server?.close());

describe('the audit list filters', () => {
  it('by actor: one staff member, with their name and roles, or the system', async () => {
    const mine = await audit(`actor=${finance.userId}`);
    expect(mine.body.length).toBeGreaterThanOrEqual(5);
    for (const entry of mine.body) expect(entry.actor).toMatchObject({ id: finance.userId, name: 'Rohan Gupta', roles: ['finance'] });
    expect(mine.body.filter((e) => e.subject?.id === user.userId).map((e) => e.amount)).toEqual(['5.00', '4.00', '3.00', '2.00', '1.00']);

    const system = await audit('actor=system');
    expect(system.body.map((e) => e.action)).toEqual(['proof_approved']);
    expect(system.body[0]?.actor).toEqual({ id: 'system', name: null, mobile: null, roles: [] });
  });

  it('by action', async () => {
    const credited = await audit('action=adjustment_credited');
    expect(credited.body).toHaveLength(5);
    expect(new Set(credited.body.map((e) => e.action))).toEqual(new Set(['adjustment_credited']));
    expect((await audit('action=withdrawal_reversed')).body).toEqual([]);
  });

  it('by whole IST days, the end day included', async () => {
    const day = await audit('from=2030-03-31&to=2030-03-31');
    expect(day.body.map((e) => e.at)).toEqual(['2030-03-31T18:29:59.999Z', '2030-03-30T18:30:00.000Z']);
    expect((await audit('from=2030-04-01')).body.map((e) => e.reference)).toEqual(['admin']);
    const before = await audit('to=2030-03-30');
    expect(before.body.some((e) => e.at >= '2030-03-30T18:30:00.000Z')).toBe(false);
    expect(before.body.some((e) => e.action === 'adjustment_credited')).toBe(true);
    // Combined: the admin's role grants on the last two days of the range.
    const combined = await audit(`actor=${admin.userId}&action=role_granted&from=2030-03-31&to=2030-04-01`);
    expect(combined.body.map((e) => e.reference)).toEqual(['admin', 'finance', 'reviewer']);
  });

  it('pages a filtered list by X-Next-Cursor without gaps or repeats', async () => {
    for (const query of [`actor=${finance.userId}`, 'action=adjustment_credited', `actor=${admin.userId}&from=2030-03-31`]) {
      const whole = await audit(`${query}&limit=1000`);
      expect(whole.headers.get('x-next-cursor')).toBeNull();
      expect(whole.body.length).toBeGreaterThanOrEqual(3);
      expect((await walk(query, 2)).map((e) => e.id)).toEqual(whole.body.map((e) => e.id));
    }
  });

  it('refuses bad values with 400 and the field, and changes nothing', async () => {
    const cases: Array<[string, string, string]> = [
      ['actor=someone', 'actor', 'actor is a staff user id or system'],
      ['action=money_printed', 'action', 'action is not one of the audit actions'],
      ['from=2026-02-30', 'from', 'Enter a date as YYYY-MM-DD'],
      ['to=30-11-2026', 'to', 'Enter a date as YYYY-MM-DD'],
      ['from=2026-12-01&to=2026-11-30', 'to', 'The end date must not be before the start date'],
    ];
    for (const [query, field, message] of cases) {
      const refused = await admin.get(`/api/admin/audit?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.body.error.code).toBe('validation_failed');
      expect(refused.body.error.fields[field]).toBe(message);
    }
  });

  it('names its actors for the filter, to admins and finance only', async () => {
    // Finance reads the audit list at month end (docs/finance-audit.md); a reviewer does not.
    expect((await finance.get('/api/admin/audit/actors')).status).toBe(200);
    expect((await (await server.signUp({ roles: ['reviewer'] })).get('/api/admin/audit/actors')).status).toBe(403);
    const actors = await admin.get<AuditActorBody[]>('/api/admin/audit/actors');
    expect(actors.status).toBe(200);
    expect(actors.body).toContainEqual({ id: finance.userId, name: 'Rohan Gupta', roles: ['finance'] });
    expect(actors.body).toContainEqual({ id: admin.userId, name: 'Arjun Mehta', roles: ['admin'] });
    expect(actors.body).toContainEqual({ id: 'system', name: null, roles: [] });
    expect(new Set(actors.body.map((a) => a.id)).size).toBe(actors.body.length);
  });
});
