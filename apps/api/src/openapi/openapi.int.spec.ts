import { IDEMPOTENT_COMMANDS } from '@kamai/contracts';
import { compileErrors, validate } from '@readme/openapi-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestServer, startTestServer } from '../testing/server.ts';
import { ROUTES } from './routes.ts';

interface Operation {
  parameters?: Array<{ name?: string; in?: string; $ref?: string }>;
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: Record<string, unknown> }>; 'x-kamai-own-answer'?: boolean }>;
  'x-kamai-access': string;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: { ErrorBody: { properties: { error: { properties: { code: { enum: string[] } } } } } } };
}

let server: TestServer;
let doc: Document;
let headers: Headers;

/** `/api/x/{id}` back to Hono's `/api/x/:id`; a trailing `{key}` is the `*` of an object key. */
const honoPath = (path: string) => path.replace(/\{key\}$/, '*').replace(/\{(\w+)\}/g, ':$1');
const operations = () =>
  Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ route: `${method.toUpperCase()} ${honoPath(path)}`, path, op })));

beforeAll(async () => {
  server = await startTestServer();
  // Anonymous: the document is public.
  const res = await server.client().get<Document>('/api/openapi.json');
  expect(res.status).toBe(200);
  doc = res.body;
  headers = res.headers;
});
afterAll(async () => server?.close());

describe('GET /api/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document, cached by clients', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc) as never);
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
    expect(headers.get('cache-control')).toBe('public, max-age=3600');
  });

  it('describes exactly the routes the app registers', () => {
    // The web app's pages (registered only once apps/web is built; /login with its sign-in form) are not part of the API.
    const registered = server.routes.map((r) => `${r.method} ${r.path}`).filter((route) => route !== 'GET /*' && route !== 'GET /login').sort();
    const described = operations().map((o) => o.route).sort();
    expect(registered.filter((route) => !described.includes(route)), 'routes the document does not describe').toEqual([]);
    expect(described.filter((route) => !registered.includes(route)), 'routes the document names that do not exist').toEqual([]);
  });

  it('names every error code in the one error body, and every error answer uses it', () => {
    const codes = doc.components.schemas.ErrorBody.properties.error.properties.code.enum;
    expect(codes).toEqual(expect.arrayContaining(['validation_failed', 'storage_full', 'precondition_required', 'internal']));
    for (const { route, op } of operations()) {
      for (const [status, answer] of Object.entries(op.responses)) {
        if (Number(status) < 400) continue;
        const schema = answer.content?.['application/json']?.schema;
        // A route whose 503 is also its own answer (failingAnswers: the health check, failing with reasons) says so; the error body stays one of them.
        const own = ROUTES[route]?.failingAnswers === true && status === '503';
        expect(answer['x-kamai-own-answer'] === true, `${route} ${status} x-kamai-own-answer`).toBe(own);
        if (own) expect((schema?.anyOf as unknown[] | undefined)?.[0], `${route} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorBody' });
        else expect(schema, `${route} ${status}`).toEqual({ $ref: '#/components/schemas/ErrorBody' });
      }
      expect(op.responses['503']?.headers, `${route} 503 Retry-After`).toHaveProperty('Retry-After');
    }
  });

  it('takes the request bodies and answers from the contracts schemas', () => {
    const post = doc.paths['/api/withdrawals']!.post!;
    const body = post.requestBody!.content['application/json']!.schema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(body.properties)).toEqual(expect.arrayContaining(['amount']));
    expect(post.responses['201']!.content!['application/json']!.schema).toHaveProperty('properties.status');
    const list = doc.paths['/api/admin/withdrawals']!.get!;
    expect(list.responses['200']!.content!['application/json']!.schema).toHaveProperty('type', 'array');
    expect(list.responses['200']!.headers).toHaveProperty('X-Next-Cursor');
    expect(list.parameters?.map((p) => p.name)).toEqual(expect.arrayContaining(['cursor']));
    expect(list['x-kamai-access']).toBe('finance');
  });

  it('reads Idempotency-Key on exactly the idempotent commands, If-Match where a task is changed', () => {
    for (const { route, path, op } of operations()) {
      const refs = (op.parameters ?? []).map((p) => p.$ref);
      const sample = path.replace(/\{\w+\}/g, 'x');
      const idempotent = route.startsWith('POST ') && IDEMPOTENT_COMMANDS.some((pattern) => pattern.test(sample));
      expect(refs.includes('#/components/parameters/Idempotency-Key'), route).toBe(idempotent);
    }
    const idempotencyKey = (path: string) => doc.paths[path]!.post!.parameters?.map((p) => p.$ref) ?? [];
    expect(idempotencyKey('/api/withdrawals')).toContain('#/components/parameters/Idempotency-Key');
    expect(idempotencyKey('/api/admin/payout-batches/{id}/results')).toContain('#/components/parameters/Idempotency-Key');
    expect(idempotencyKey('/api/admin/tasks')).not.toContain('#/components/parameters/Idempotency-Key');
    expect(doc.paths['/api/admin/tasks/{id}']!.put!.parameters!.map((p) => p.$ref)).toContain('#/components/parameters/If-Match');
    expect(doc.paths['/api/admin/tasks/{id}']!.get!.responses['200']!.headers).toHaveProperty('ETag');
    expect(doc.paths['/api/admin/tasks/{id}']!.delete!.responses).toHaveProperty('428');
  });

  it('takes Kamai-Position on every request and names it in every command answer below 500 (read-your-writes across nodes)', () => {
    for (const { route, op } of operations()) {
      expect((op.parameters ?? []).map((p) => p.$ref), route).toContain('#/components/parameters/Kamai-Position');
      for (const [status, answer] of Object.entries(op.responses)) {
        const named = Object.keys(answer.headers ?? {}).includes('Kamai-Position');
        expect(named, `${route} ${status}`).toBe(!route.startsWith('GET ') && Number(status) < 500);
      }
    }
  });
});
