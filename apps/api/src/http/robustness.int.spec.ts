import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';

// "No input makes the server answer 500": every route, as every kind of caller, with bodies and path
// ids of the wrong shape. Each answer must be a 4xx (or a 2xx where the input happens to be fine) with
// the JSON error body, and nothing may crash the process.
const ROUTES: Array<[method: string, path: string]> = [
  ['POST', '/api/auth/register'],
  ['POST', '/api/auth/login'],
  ['POST', '/api/auth/logout'],
  ['PUT', '/api/auth/password'],
  ['DELETE', '/api/auth/sessions/:id'],
  ['POST', '/api/auth/logout-all'],
  ['PUT', '/api/profile'],
  ['POST', '/api/objects/upload'],
  ['POST', '/api/tasks/:id/submit-proof'],
  ['POST', '/api/withdrawals'],
  ['GET', '/api/ifsc/:id'],
  ['PUT', '/api/notifications/:id/read'],
  ['PUT', '/api/notifications/read-all'],
  ['DELETE', '/api/notifications/:id'],
  ['POST', '/api/admin/tasks'],
  ['PUT', '/api/admin/tasks/:id'],
  ['DELETE', '/api/admin/tasks/:id'],
  ['GET', '/api/admin/tasks/:id'],
  ['POST', '/api/admin/submissions/:id/approve'],
  ['POST', '/api/admin/submissions/:id/reject'],
  ['POST', '/api/admin/withdrawals/:id/paid'],
  ['POST', '/api/admin/withdrawals/:id/reject'],
  ['GET', '/api/admin/withdrawals/:id'],
  ['POST', '/api/admin/adjustments'],
  ['PUT', '/api/admin/settings'],
  ['GET', '/api/admin/settings/requests?status=:id'],
  ['POST', '/api/admin/settings/requests/:id/approve'],
  ['POST', '/api/admin/settings/requests/:id/reject'],
  ['POST', '/api/admin/adjustments/:id/approve'],
  ['POST', '/api/admin/adjustments/:id/reject'],
  ['GET', '/api/admin/adjustments?status=:id'],
  ['GET', '/api/admin/audit'],
  ['GET', '/api/admin/withdrawals?status=:id'],
  ['GET', '/api/admin/submissions?status=:id'],
  ['GET', '/api/admin/withdrawals?status=all&from=:id&to=:id&cursor=:id&format=:id&limit=:id'],
  ['GET', '/api/admin/ledger/users/:id/statement?from=:id&to=:id&format=:id'],
  ['GET', '/api/admin/ledger/users/9876543210/statement?format=csv&from=:id'],
  ['GET', '/api/admin/ledger/users/:id/balance?at=:id'],
  ['GET', '/api/admin/ledger/trial-balance?at=:id'],
  ['GET', '/api/admin/ledger/reconciliation'],
  ['GET', '/api/admin/ledger/verify'],
  ['GET', '/objects/:id'],
  ['PUT', '/api/objects/put/:id'],
  ['GET', '/api/kyc/documents'],
  ['POST', '/api/kyc/documents'],
  ['POST', '/api/kyc/complete'],
  ['GET', '/api/admin/kyc?status=:id'],
  ['POST', '/api/admin/kyc/:id/approve'],
  ['POST', '/api/admin/kyc/:id/reject'],
];

const IDS = ['x', '00000000-0000-0000-0000-000000000000', '..%2F..%2Fetc%2Fpasswd', '%00', "1' OR 1=1", 'a'.repeat(300), '%F0%9F%92%B0'];

const BODIES: unknown[] = [
  undefined,
  '',
  'null',
  '[]',
  '"text"',
  '{"unterminated": ',
  {},
  [],
  null,
  42,
  { amount: 'NaN' },
  { amount: -1e308, direction: 'sideways', mobile: ['9876543210'], reason: { nested: true } },
  { amount: 1e21, upiId: 5, bankAccount: 'none' },
  { amount: '100.001', bankAccount: { accountNumber: null, ifsc: [], holderName: 7 } },
  { title: {}, description: [], rupeeReward: { paise: 1 }, estimatedTime: 5, taskType: 'chess', taskUrl: 'javascript:alert(1)' },
  { proofImageUrl: '/objects/../../secret', proofDescription: 12 },
  { documentType: 'aadhaar', frontImageUrl: ['/objects/kyc'], backImageUrl: '/objects/kyc-uploads/../../x' },
  { purpose: 'passport' },
  { firstName: 1, lastName: true, email: 'not-an-email', notificationsEnabled: 'yes' },
  { mobile: '٠١٢٣٤٥٦٧٨٩', password: '\u0000\u0000\u0000\u0000\u0000\u0000' },
  { reason: '', reference: '' },
  '{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"isAdmin": true}}}',
  { supportEmail: 'x'.repeat(10_000), homepageUrl: 'ftp://example.in' },
];

let server: TestServer;
let callers: Record<string, TestClient>;

beforeAll(async () => {
  server = await startTestServer();
  callers = {
    anonymous: server.client(),
    user: await server.signUp(),
    admin: await server.signUp({ roles: ['admin'] }),
    reviewer: await server.signUp({ roles: ['reviewer'] }),
    finance: await server.signUp({ roles: ['finance'] }),
  };
});
afterAll(async () => {
  await server.close();
});

describe('no input makes the server answer 500', () => {
  for (const [method, template] of ROUTES) {
    it(`${method} ${template}`, async () => {
      const failures: string[] = [];
      for (const [who, client] of Object.entries(callers)) {
        for (const id of IDS) {
          const path = template.replace(':id', id);
          for (const body of method === 'GET' || method === 'DELETE' ? [undefined] : BODIES) {
            const raw = typeof body === 'string' ? body : body === undefined ? undefined : JSON.stringify(body);
            const res = await client.request(method, path, raw, raw === undefined ? {} : { 'content-type': 'application/json' });
            const jsonError = typeof res.body === 'object' && res.body !== null && 'error' in res.body;
            if (res.status >= 500 || (res.status >= 400 && !jsonError)) {
              failures.push(`${who} ${method} ${path} ${raw ?? ''} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
            }
          }
        }
      }
      expect(failures).toEqual([]);
    });
  }

  it('is still up and serving afterwards, with nobody made staff by a crafted body', async () => {
    const fresh = await server.signUp();
    const me = await fresh.get('/api/auth/user');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ isAdmin: false, roles: [] });
  });
});
