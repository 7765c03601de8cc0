import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOG_POSITION_HEADER, type Role, type SettingsBody } from '@kamai/contracts';
import { grantRole, userIdForMobile } from '../auth/accounts.ts';
import { loadConfig } from '../config.ts';
import { Conformance, describeViolations } from '../openapi/conformance.ts';
import { type RunningServer, type ServerOptions, startServer } from '../server.ts';

/**
 * A real API server on loopback over fresh SQLite files, for API tests. Each test file starts its
 * own; nothing is shared between files.
 */
export interface TestServer extends RunningServer {
  dataDir: string;
  /**
   * Every request and answer checked against the OpenAPI document (docs/api.md); `close()` throws
   * when any disagreed, so the test file fails.
   */
  conformance: Conformance;
  /** A client with its own cookie jar. */
  client(): TestClient;
  /** Registers a user through the API and returns a signed-in client. */
  signUp(options?: Partial<SignUp> & { roles?: Role[] }): Promise<TestClient & { mobile: string; password: string; userId: string }>;
  grantRole(mobile: string, role: Role): Promise<void>;
  /**
   * PUT /api/admin/settings as two admins of its own: a control change is requested by one and
   * approved by the other. Answers the settings in force.
   */
  applySettings(body: Record<string, unknown>): Promise<SettingsBody>;
}

/**
 * PUT /api/admin/settings by `requester`; a control change it asks for is approved by `approver`
 * (another admin). Answers the settings in force, and throws on any refusal.
 */
export async function applySettings(requester: TestClient, approver: TestClient, body: Record<string, unknown>): Promise<SettingsBody> {
  const put = await requester.put('/api/admin/settings', body);
  if (put.status === 200) return put.body as SettingsBody;
  if (put.status !== 202) throw new Error(`settings refused: ${put.status} ${JSON.stringify(put.body)}`);
  const approved = await approver.post(`/api/admin/settings/requests/${(put.body as { request: { id: string } }).request.id}/approve`);
  if (approved.status !== 200) throw new Error(`settings approval refused: ${approved.status} ${JSON.stringify(approved.body)}`);
  return (approved.body as { settings: SettingsBody }).settings;
}

export interface SignUp {
  mobile: string;
  password: string;
  firstName: string;
  lastName: string;
}

export interface TestResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export class TestClient {
  private cookies = new Map<string, string>();
  /** The highest log position an answer named, sent back as the web client does (read-your-writes across nodes). */
  private position = 0;
  constructor(readonly baseUrl: string) {}

  async request<T = any>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<TestResponse<T>> {
    const init: RequestInit = { method, headers: { ...(this.position > 0 && { [LOG_POSITION_HEADER]: String(this.position) }), ...headers }, redirect: 'manual' };
    const h = init.headers as Record<string, string>;
    // As the app's own pages do: a state-changing request names its origin (pass origin '' for none).
    if (!['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase()) && !('origin' in h)) h.origin = this.baseUrl;
    if (h.origin === '') delete h.origin;
    if (this.cookies.size > 0) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (body !== undefined) {
      h['content-type'] ??= 'application/json';
      init.body = typeof body === 'string' || body instanceof Uint8Array ? (body as RequestInit['body']) : JSON.stringify(body);
    }
    const res = await fetch(this.baseUrl + path, init);
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      const value = rest.join('=');
      if (!name) continue;
      if (value === '' || /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(name.trim());
      else this.cookies.set(name.trim(), value);
    }
    const named = Number(res.headers.get(LOG_POSITION_HEADER));
    if (Number.isSafeInteger(named) && named > this.position) this.position = named;
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) parsed = JSON.parse(text);
    return { status: res.status, headers: res.headers, body: parsed as T };
  }

  /** A GET's body as the bytes sent (text() drops a leading UTF-8 BOM). */
  async bytes(path: string): Promise<Uint8Array> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    return new Uint8Array(await (await fetch(this.baseUrl + path, { headers })).arrayBuffer());
  }

  get = <T = any>(path: string) => this.request<T>('GET', path);
  post = <T = any>(path: string, body?: unknown) => this.request<T>('POST', path, body ?? {});
  put = <T = any>(path: string, body?: unknown) => this.request<T>('PUT', path, body ?? {});
  delete = <T = any>(path: string) => this.request<T>('DELETE', path);

  /** Another client holding the same cookies, as a second device or a stolen cookie would. */
  clone(baseUrl = this.baseUrl): TestClient {
    const copy = new TestClient(baseUrl);
    copy.cookies = new Map(this.cookies);
    copy.position = this.position;
    return copy;
  }

  get signedIn(): boolean {
    return this.cookies.size > 0;
  }
}

let mobileCounter = 0;
/** A fresh, valid 10-digit mobile number for this test run. */
export function freshMobile(): string {
  mobileCounter += 1;
  return `7${String(process.pid % 10000).padStart(4, '0')}${String(mobileCounter).padStart(5, '0')}`;
}

export async function startTestServer(env: Record<string, string> = {}, options: ServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'kamai-test-'));
  // Every test registers its users from 127.0.0.1: the per-address registration limit is lifted unless a test sets it.
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, SEED_DEMO: 'false', WEB_DIST: '', REGISTRATIONS_PER_HOUR: '1000000', ...env });
  const conformance = new Conformance();
  const server = await startServer(config, () => {}, { decorateFetch: (fetch) => conformance.wrap(fetch), ...options });
  const url = `http://127.0.0.1:${server.port}`;
  let admins: Promise<[TestClient, TestClient]> | undefined;

  const testServer: TestServer = {
    ...server,
    url,
    dataDir,
    conformance,
    client: () => new TestClient(url),
    async signUp(options = {}) {
      const account = {
        mobile: options.mobile ?? freshMobile(),
        password: options.password ?? 'secret123',
        firstName: options.firstName ?? 'Test',
        lastName: options.lastName ?? 'User',
      };
      const client = new TestClient(url);
      const res = await client.post('/api/auth/register', { ...account, consent: true });
      if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
      for (const role of options.roles ?? []) await testServer.grantRole(account.mobile, role);
      return Object.assign(client, { mobile: account.mobile, password: account.password, userId: (res.body as { id: string }).id });
    },
    async grantRole(mobile, role) {
      const userId = await userIdForMobile(server.store, server.personalData, mobile);
      if (!userId) throw new Error(`no user with mobile ${mobile}`);
      const { position } = await grantRole(server.store, userId, role, 'test', new Date());
      await server.runner.waitFor(position);
    },
    async applySettings(body) {
      admins ??= Promise.all([testServer.signUp({ roles: ['admin'] }), testServer.signUp({ roles: ['admin'] })]);
      const [requester, approver] = await admins;
      return applySettings(requester, approver, body);
    },
    async close() {
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
      const violations = await conformance.settled();
      if (violations.length > 0) throw new Error(describeViolations(violations));
    },
  };
  return testServer;
}
