import type { Role } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adjust } from '../finance/testing.ts';
import { ROUTES } from '../openapi/index.ts';
import { type TestClient, type TestServer, startTestServer } from '../testing/server.ts';

/**
 * The authorization matrix: every route the app registers × every kind of caller, with the status
 * each must get. ONE table below; a route the app answers without a row here fails the test, so a
 * new route cannot ship without deciding who may call it.
 *
 * A row: [method, path as registered, who may call it, status a permitted caller gets for the
 * request sent here (empty JSON body, path ids below), options]. Denied callers get 401 when signed
 * out and 403 when signed in without the role (`owner` rows: another user gets 404, never someone
 * else's data).
 */
type Access = 'public' | 'signedIn' | 'owner' | Role;
type Caller = 'anonymous' | 'user' | 'otherUser' | 'reviewer' | 'finance' | 'admin' | 'adminFinance';
interface RowOptions {
  /** Path ids to fill in: a fixture's name (see `fixtures`), else a UUID nobody uses. */
  id?: keyof Fixtures;
  /** Statuses that differ from the rule, by caller. */
  except?: Partial<Record<Caller, number>>;
  /** Run with callers signed in just for this row (the route ends or changes sessions). */
  fresh?: boolean;
  /** Registered only in some set-ups (the web app's pages exist only once it is built). */
  optional?: boolean;
}
type Row = [method: string, path: string, access: Access, ok: number, options?: RowOptions];

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

const MATRIX: Row[] = [
  ['GET', '/api/health', 'public', 200],
  ['GET', '/api/login', 'public', 302],
  ['POST', '/api/auth/register', 'public', 400],
  ['POST', '/api/auth/login', 'public', 400],
  // An empty body is refused before anything is looked up or sent.
  ['POST', '/api/auth/password-reset', 'public', 400],
  ['POST', '/api/auth/password-reset/confirm', 'public', 400],
  ['POST', '/api/auth/logout', 'public', 204, { fresh: true }],
  ['GET', '/api/auth/user', 'signedIn', 200],
  ['GET', '/api/auth/sessions', 'signedIn', 200],
  ['DELETE', '/api/auth/sessions/:id', 'owner', 204, { id: 'otherSession', fresh: true }],
  ['POST', '/api/auth/logout-all', 'signedIn', 204, { fresh: true }],
  ['PUT', '/api/auth/password', 'signedIn', 400],
  ['GET', '/api/settings', 'public', 200],
  ['PUT', '/api/profile', 'signedIn', 200],
  ['GET', '/api/profile/deletion-request', 'signedIn', 200],
  ['POST', '/api/profile/deletion-request', 'signedIn', 400],
  // Nothing pending to cancel: 404 for whoever asks.
  ['DELETE', '/api/profile/deletion-request', 'signedIn', 404],
  ['GET', '/api/profile/export', 'signedIn', 200],
  ['GET', '/api/transactions', 'signedIn', 200],
  ['GET', '/api/withdrawals', 'signedIn', 200],
  ['GET', '/api/withdrawals/destination', 'signedIn', 200],
  ['POST', '/api/withdrawals', 'signedIn', 400],
  // No IFSC_DATASET on the test server, and :code is not an IFSC: 400 before the directory is asked.
  ['GET', '/api/ifsc/:code', 'signedIn', 400],
  ['GET', '/api/notifications', 'signedIn', 200],
  ['PUT', '/api/notifications/read-all', 'signedIn', 204],
  ['PUT', '/api/notifications/:id/read', 'owner', 204, { id: 'notification' }],
  ['DELETE', '/api/notifications/:id', 'owner', 204, { id: 'notification' }],
  ['POST', '/api/objects/upload', 'signedIn', 200],
  // Authorised by its signed URL, not the cookie: without a signature everyone is refused alike.
  ['PUT', '/api/objects/put/*', 'public', 403],
  // Staff may read any user's upload (none here: 404); a user only their own (this key is not theirs: 403).
  ['GET', '/objects/*', 'signedIn', 404, { except: { user: 403, otherUser: 403 } }],
  ['GET', '/api/tasks', 'signedIn', 200],
  ['GET', '/api/user-tasks', 'signedIn', 200],
  ['POST', '/api/tasks/:id/submit-proof', 'signedIn', 400],
  ['POST', '/api/tasks/:id/start', 'signedIn', 404],
  ['GET', '/api/admin/tasks', 'admin', 200],
  ['POST', '/api/admin/tasks', 'admin', 400],
  ['PUT', '/api/admin/tasks/:id', 'admin', 400],
  ['GET', '/api/admin/tasks/:id', 'admin', 404],
  // No If-Match: the precondition is asked for before the task is looked up.
  ['DELETE', '/api/admin/tasks/:id', 'admin', 428],
  // An empty body changes nothing: 200 (a control change would be 202, a request for a second admin).
  ['PUT', '/api/admin/settings', 'admin', 200],
  ['GET', '/api/admin/settings/requests', 'admin', 200],
  ['POST', '/api/admin/settings/requests/:id/approve', 'admin', 404],
  ['POST', '/api/admin/settings/requests/:id/reject', 'admin', 404],
  ['GET', '/api/admin/deletions', 'admin', 200],
  ['POST', '/api/admin/deletions/:id/erase', 'admin', 404],
  // Finance reads the audit list too (its month end): admin's row, finance as the exception.
  ['GET', '/api/admin/audit', 'admin', 200, { except: { finance: 200 } }],
  ['GET', '/api/admin/audit/actors', 'admin', 200, { except: { finance: 200 } }],
  ['GET', '/api/admin/task-figures', 'admin', 200],
  // Every staff role may ask how much waits in its own queues.
  ['GET', '/api/admin/queues', 'reviewer', 200, { except: { finance: 200, admin: 200, adminFinance: 200 } }],
  // Nobody with this id: 404 from the user's empty stream (the reason is checked first: 400).
  ['POST', '/api/admin/users/:id/suspend', 'admin', 400],
  ['POST', '/api/admin/users/:id/unsuspend', 'admin', 404],
  ['GET', '/api/kyc/documents', 'signedIn', 200],
  ['POST', '/api/kyc/documents', 'signedIn', 400],
  ['POST', '/api/kyc/complete', 'signedIn', 409],
  ['GET', '/api/admin/kyc', 'reviewer', 200],
  ['POST', '/api/admin/kyc/:id/approve', 'reviewer', 404],
  ['POST', '/api/admin/kyc/:id/reject', 'reviewer', 400],
  ['GET', '/api/admin/submissions', 'reviewer', 200],
  ['POST', '/api/admin/submissions/:id/approve', 'reviewer', 404],
  ['POST', '/api/admin/submissions/:id/reject', 'reviewer', 400],
  ['POST', '/api/admin/submissions/bulk', 'reviewer', 400],
  ['GET', '/api/admin/withdrawals', 'finance', 200],
  ['GET', '/api/admin/withdrawals/:id', 'finance', 404],
  ['POST', '/api/admin/withdrawals/:id/paid', 'finance', 400],
  ['POST', '/api/admin/withdrawals/:id/reject', 'finance', 400],
  ['POST', '/api/admin/withdrawals/:id/reverse', 'finance', 400],
  ['POST', '/api/admin/payout-batches', 'finance', 400],
  ['GET', '/api/admin/payout-batches', 'finance', 200],
  ['GET', '/api/admin/payout-batches/:id', 'finance', 404],
  ['POST', '/api/admin/payout-batches/:id/approve', 'finance', 404],
  ['GET', '/api/admin/payout-batches/:id/file', 'finance', 404],
  // A JSON body where the bank's CSV belongs: 415 before anything is looked up.
  ['POST', '/api/admin/payout-batches/:id/results', 'finance', 415],
  ['POST', '/api/admin/ledger/bank-statements', 'finance', 415],
  ['GET', '/api/admin/ledger/bank-statements', 'finance', 200],
  ['POST', '/api/admin/adjustments', 'finance', 400],
  ['GET', '/api/admin/adjustments', 'finance', 200],
  ['POST', '/api/admin/adjustments/:id/approve', 'finance', 404],
  ['POST', '/api/admin/adjustments/:id/reject', 'finance', 404],
  // The web app's pages (index.html for client routes), when apps/web/dist is built.
  // The path's `:userId` is not a user id: 400 before any lookup. A mobile number is looked up in a body.
  ['POST', '/api/admin/ledger/users/lookup', 'finance', 400],
  ['GET', '/api/admin/ledger/users/:userId/statement', 'finance', 400],
  ['GET', '/api/admin/ledger/users/:userId/balance', 'finance', 400],
  ['GET', '/api/admin/ledger/trial-balance', 'finance', 200],
  ['GET', '/api/admin/ledger/reconciliation', 'finance', 200],
  ['GET', '/api/admin/ledger/verify', 'finance', 200],
  ['POST', '/api/admin/ledger/funding', 'finance', 400],
  ['GET', '/api/admin/ledger/funding', 'finance', 200],
  ['POST', '/api/admin/ledger/funding/:id/approve', 'finance', 404],
  ['POST', '/api/admin/ledger/funding/:id/reject', 'finance', 404],
  // No reason in the matrix's empty body: 400 before the funding is looked up.
  ['POST', '/api/admin/ledger/funding/:id/reverse', 'finance', 400],
  ['POST', '/api/admin/ledger/funding/:id/reverse/approve', 'finance', 404],
  // No financial year given: 400 before anything is read.
  ['GET', '/api/admin/reports/yearly', 'finance', 400],
  // Prometheus scrapes without a session; keep it off the public network (docs/logs-and-metrics.md).
  ['GET', '/metrics', 'public', 200],
  // The OpenAPI document: a client generator needs no session.
  ['GET', '/api/openapi.json', 'public', 200],
  ['GET', '/*', 'public', 200, { optional: true }],
  // Webhooks: an empty body is refused before anything is registered or looked up; unknown ids are 404.
  ['POST', '/api/admin/webhooks', 'admin', 400],
  ['GET', '/api/admin/webhooks', 'admin', 200],
  ['DELETE', '/api/admin/webhooks/:id', 'admin', 404],
  ['GET', '/api/admin/webhooks/:id/deliveries', 'admin', 404],
  ['POST', '/api/admin/webhooks/:id/replay', 'admin', 400],
  // The API reference page and its viewer's script: any staff role.
  ['GET', '/api/admin/reference', 'reviewer', 200, { except: { finance: 200, admin: 200, adminFinance: 200 } }],
  ['GET', '/api/admin/reference/scalar.js', 'reviewer', 200, { except: { finance: 200, admin: 200, adminFinance: 200 } }],
  // An empty body is refused (accepted must be true) before anything is recorded.
  ['POST', '/api/profile/consent', 'signedIn', 400],
  ['GET', '/api/push/public-key', 'public', 200],
  // No subscription in the matrix's empty body: 400 before anything is recorded.
  ['POST', '/api/push/subscriptions', 'signedIn', 400],
  ['DELETE', '/api/push/subscriptions', 'signedIn', 400],
  ['GET', '/api/push/alerts', 'signedIn', 200],
  ['PUT', '/api/push/alerts', 'signedIn', 400],
  ['GET', '/api/task-signals', 'signedIn', 200],
  ['POST', '/api/admin/submissions/:id/request-changes', 'reviewer', 400],
  ['POST', '/api/submissions/:id/appeal', 'signedIn', 400],
  ['GET', '/api/admin/appeals', 'reviewer', 200],
  ['POST', '/api/admin/appeals/:id/decide', 'reviewer', 400],
  ['GET', '/api/admin/reviewers/stats', 'admin', 200],
  // The matrix's ':month' is no month: 400 before the period is looked up.
  ['POST', '/api/admin/ledger/periods/:month/close', 'finance', 400],
  ['POST', '/api/admin/ledger/periods/:month/close/approve', 'finance', 400],
  ['GET', '/api/profile/invite', 'signedIn', 200],
  ['GET', '/api/admin/invitations', 'finance', 200],
  // No amount: 400 once signed in.
  ['GET', '/api/withdrawals/quote', 'signedIn', 400],
  ['GET', '/api/admin/ledger/periods', 'finance', 200],
  // Without its days: 400 once the role is checked.
  ['GET', '/api/admin/ledger/trial-balance/period', 'finance', 400],
  ['GET', '/api/admin/ledger/statement-exceptions', 'finance', 200],
  // No note: 400 once the role is checked; the approval's ':id' is no exception id: 404.
  ['POST', '/api/admin/ledger/statement-exceptions/:id/match', 'finance', 400],
  ['POST', '/api/admin/ledger/statement-exceptions/:id/write-off', 'finance', 400],
  ['POST', '/api/admin/ledger/statement-exceptions/:id/write-off/approve', 'finance', 404],
  ['POST', '/api/admin/ledger/tax-deposits', 'finance', 400],
  // Without a quarter / the matrix's ':quarter' is no quarter: 400 once the role is checked.
  ['GET', '/api/admin/ledger/tax-deposits', 'finance', 400],
  ['GET', '/api/admin/ledger/tax/:quarter', 'finance', 400],
  ['GET', '/api/admin/ledger/tax/:quarter/certificates', 'finance', 400],
  ['GET', '/api/tax-summary', 'signedIn', 200],
  ['GET', '/api/admin/ledger/balances', 'finance', 200],
  // The sign-in form's post: the matrix's empty body is refused, and the refusal sends the browser back to /login.
  ['POST', '/api/auth/login/form', 'public', 303],
  // /login with the sign-in form drawn in (signed out) or the plain page (signed in); only with a built web app.
  ['GET', '/login', 'public', 200, { optional: true }],
];

const ROLES: Record<Exclude<Caller, 'anonymous'>, Role[]> = {
  user: [],
  otherUser: [],
  reviewer: ['reviewer'],
  finance: ['finance'],
  admin: ['admin'],
  adminFinance: ['admin', 'finance'],
};
const CALLERS: Caller[] = ['anonymous', 'user', 'otherUser', 'reviewer', 'finance', 'admin', 'adminFinance'];

function expectedStatus(caller: Caller, [, , access, ok, options]: Row): number {
  const override = options?.except?.[caller];
  if (override !== undefined) return override;
  if (access === 'public') return ok;
  if (caller === 'anonymous') return 401;
  if (access === 'signedIn') return ok;
  if (access === 'owner') return caller === 'user' ? ok : 404;
  return ROLES[caller].includes(access) ? ok : 403;
}

interface Fixtures {
  /** A notification of `user`'s (from a credit). */
  notification: (who: Record<Caller, TestClient>) => Promise<string>;
  /** A session of `user`'s on another device. */
  otherSession: (who: Record<Caller, TestClient>) => Promise<string>;
}

let server: TestServer;
let callers: Record<Caller, TestClient>;
let fixtures: Fixtures;

async function signedInCallers(): Promise<Record<Caller, TestClient>> {
  const entries = await Promise.all(
    (Object.keys(ROLES) as Array<keyof typeof ROLES>).map(async (caller) => [caller, await server.signUp({ roles: ROLES[caller] })] as const),
  );
  return { anonymous: server.client(), ...Object.fromEntries(entries) } as Record<Caller, TestClient>;
}

beforeAll(async () => {
  server = await startTestServer();
  callers = await signedInCallers();
  fixtures = {
    async notification(who) {
      const user = who.user as TestClient & { mobile: string };
      await adjust(who.finance, user.mobile, 1);
      const list = await who.user.get<Array<{ id: string }>>('/api/notifications');
      return list.body[0]!.id;
    },
    async otherSession(who) {
      const { mobile, password } = who.user as TestClient & { mobile: string; password: string };
      const device = server.client();
      expect((await device.post('/api/auth/login', { mobile, password })).status).toBe(200);
      const list = await who.user.get<Array<{ id: string; current: boolean }>>('/api/auth/sessions');
      return list.body.find((s) => !s.current)!.id;
    },
  };
});
afterAll(async () => server?.close());

describe('authorization matrix', () => {
  it('has exactly one row for every route the app registers', () => {
    const registered = server.routes.map((r) => `${r.method} ${r.path}`).sort();
    const table = MATRIX.map(([method, path]) => `${method} ${path}`);
    expect(new Set(table).size, 'duplicate rows').toBe(table.length);
    const required = MATRIX.filter(([, , , , options]) => !options?.optional).map(([method, path]) => `${method} ${path}`);
    expect(registered.filter((route) => !table.includes(route)), 'routes without a row').toEqual([]);
    expect(required.filter((route) => !registered.includes(route)), 'rows without a route').toEqual([]);
  });

  it('says who may call each route as the OpenAPI document does', () => {
    // The document's 'staff' (any staff role) is the row's first role with the others as exceptions.
    // The web app's pages (GET /*, /login) are not in the API's document.
    const documented = MATRIX.filter(([method, path]) => ROUTES[`${method} ${path}`]?.access !== 'staff' && !['GET /*', 'GET /login'].includes(`${method} ${path}`));
    expect(documented.map(([method, path, access]) => `${method} ${path} ${access}`)).toEqual(
      documented.map(([method, path]) => `${method} ${path} ${ROUTES[`${method} ${path}`]?.access}`),
    );
  });

  for (const row of MATRIX) {
    const [method, template, access, , options] = row;
    it(`${method} ${template} (${access})`, async (context) => {
      if (options?.optional && !server.routes.some((r) => r.method === method && r.path === template)) return context.skip();
      const who = options?.fresh ? await signedInCallers() : callers;
      const id = options?.id ? await fixtures[options.id](who) : UNKNOWN;
      const path = template.replace(':id', id).replace('*', `uploads/${UNKNOWN}/${UNKNOWN}`);
      const got: Record<string, number> = {};
      const want: Record<string, number> = {};
      // The owner last: its call may use the fixture up (a deleted notification).
      for (const caller of [...CALLERS.filter((c) => c !== 'user'), 'user' as const]) {
        const res = await who[caller].request(method, path, method === 'GET' ? undefined : {});
        got[caller] = res.status;
        want[caller] = expectedStatus(caller, row);
      }
      expect(got).toEqual(want);
    });
  }
});
