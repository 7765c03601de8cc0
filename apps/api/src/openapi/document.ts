import { type ErrorCode, ErrorBody, IDEMPOTENCY_KEY_PATTERN, IDEMPOTENT_COMMANDS, LOG_POSITION_HEADER } from '@kamai/contracts';
import { type ConversionConfig, toJsonSchema } from '@valibot/to-json-schema';
import { type RouteDoc, ROUTES, type Schema } from './routes.ts';

/**
 * Every error code, once. `satisfies` makes the compiler refuse a code the contracts' ErrorCode
 * gains or loses until it is described here, so the document's enum cannot drift from the type.
 */
const ERROR_CODES = {
  validation_failed: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  insufficient_balance: 409,
  destination_required: 400,
  // A stream that kept moving (409), or a saved command the read model has not shown yet (503).
  busy: [409, 503],
  invalid_credentials: 401,
  too_many_attempts: 429,
  mobile_taken: 409,
  kyc_document_locked: 409,
  kyc_incomplete: 409,
  kyc_bonus_already_claimed: 409,
  payload_too_large: 413,
  cross_site_request: 403,
  upload_quota: 429,
  unsupported_media_type: 415,
  idempotency_key_reused: 422,
  duplicate_reference: 409,
  precondition_failed: 412,
  precondition_required: 428,
  unknown_ifsc: 404,
  no_branch_directory: 404,
  task_full: 409,
  task_expired: 409,
  account_suspended: 403,
  batch_not_approved: 409,
  deletion_cooling_off: 409,
  balance_not_settled: 409,
  user_erased: 409,
  invalid_code: 400,
  conflict_of_duties: 403,
  already_batched: 409,
  with_bank: 409,
  not_in_batch: 409,
  storage_full: 503,
  storage_read_only: 503,
  internal: 500,
  consent_required: 403,
  appeal_exists: 409,
  appeal_window_closed: 409,
  own_rejection: 403,
  period_closed: 409,
  period_not_over: 409,
  budget_spent: 409,
  monthly_cap: 409,
  pan_in_use: 409,
} as const satisfies Record<ErrorCode, number | readonly number[]>;

/** The codes sent with a status. */
const codesOf = (status: number) =>
  (Object.entries(ERROR_CODES) as Array<[ErrorCode, number | readonly number[]]>).filter(([, s]) => (typeof s === 'number' ? s === status : s.includes(status))).map(([code]) => code);

// Transformations that keep the type (trim, case changes): a pattern after one holds for the value
// as the route has changed it, not as a client sends it, so the input's schema stops before them.
const VALUE_CHANGES = new Set(['trim', 'trim_start', 'trim_end', 'to_upper_case', 'to_lower_case', 'normalize']);
const BEFORE_CHANGE = Symbol('before a value change');

/** Requests are described as a client sends them (before transforms), answers as the server sends them. */
const schemaOf = (schema: Schema, typeMode: ConversionConfig['typeMode']): Record<string, unknown> => {
  // A refinement JSON Schema cannot say (a check, a transform) is left out; the route still enforces it.
  const { $schema: _, ...json } = toJsonSchema(schema, {
    target: 'draft-2020-12',
    typeMode,
    errorMode: 'ignore',
    // The pipe's schema at its first value change is carried along (under a symbol, which JSON
    // drops) and put back after each action that follows it.
    ...(typeMode === 'input' && {
      overrideAction: ({ valibotAction, jsonSchema }) => {
        const before = (jsonSchema as { [BEFORE_CHANGE]?: typeof jsonSchema })[BEFORE_CHANGE];
        if (before) return { ...before, [BEFORE_CHANGE]: before };
        if (valibotAction.kind !== 'transformation' || !VALUE_CHANGES.has(valibotAction.type)) return undefined;
        const { ...kept } = jsonSchema;
        return { ...kept, [BEFORE_CHANGE]: kept };
      },
    }),
  }) as Record<string, unknown>;
  return json;
};
const input = (schema: Schema) => schemaOf(schema, 'input');
const output = (schema: Schema) => schemaOf(schema, 'output');

/** `/api/x/:id` → `/api/x/{id}`; a trailing `*` (an object key, slashes and all) → `{key}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, '{key}');
}

const ROLE_TEXT: Record<RouteDoc['access'], string> = {
  public: 'Public: no session needed.',
  signedIn: 'Any signed-in user.',
  owner: 'The signed-in owner of the resource; anyone else gets 404.',
  admin: 'Staff role: admin.',
  reviewer: 'Staff role: reviewer.',
  finance: 'Staff role: finance.',
  staff: 'Any staff role (admin, reviewer or finance).',
};

const errorRef = (description: string, codes: ErrorCode[], retryAfter = false) => ({
  description,
  // The codes as a value, for tools (and the tests' conformance check) to hold an answer to.
  'x-kamai-error-codes': codes,
  ...(retryAfter ? { headers: { 'Retry-After': { $ref: '#/components/headers/Retry-After' } } } : {}),
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorBody' } } },
});

/** The error answers a route can give, from what it reads and who may call it. */
function errorsOf(method: string, path: string, route: RouteDoc, idempotent: boolean) {
  const writes = method !== 'GET';
  const takesInput = route.body || route.query || route.params || route.idPattern;
  const codes = codesOf;
  const out: Record<string, unknown> = {};
  const add = (status: number, when: string, retryAfter = false) =>
    (out[status] = errorRef(`${when}. Codes: ${codes(status).map((code) => `\`${code}\``).join(', ')}.`, codes(status), retryAfter));
  if (takesInput || route.rawBody) add(400, 'The input is refused');
  if (route.access !== 'public' || path === '/api/auth/login' || route.errors?.includes(401)) add(401, 'Not signed in (or wrong credentials)');
  if (route.access !== 'public' || writes) add(403, 'Not allowed: a missing role, another origin, a suspended account');
  if (route.idPattern || route.params || route.access === 'owner' || route.errors?.includes(404)) add(404, 'Nothing with that id (or not yours)');
  if (writes || route.errors?.includes(409)) add(409, "The resource's state refuses it");
  if (route.ifMatch) {
    add(412, 'If-Match names a revision the resource has moved past');
    add(428, 'If-Match is missing');
  }
  if (route.body || route.rawBody) add(413, 'The body is too large');
  if (route.rawBody) add(415, 'The body is not of the media type asked for');
  if (idempotent) add(422, 'The Idempotency-Key was used with a different body');
  if (route.throttled === 'attempts') add(429, 'Too many attempts; wait for Retry-After seconds', true);
  if (route.throttled === 'quota') add(429, "Today's upload quota is used up");
  // A command's refusal names the log's position too (what the refusal was decided on).
  if (writes) for (const answer of Object.values(out)) positionNamed(answer as { headers?: Record<string, unknown> });
  add(500, 'Unexpected');
  add(503, 'Storage full or read-only (nothing saved), or the read model has not caught up; retry after Retry-After seconds when given', true);
  if (route.failingAnswers) {
    const own = route.answer ? output(route.answer) : {};
    // Marked as a value, so checks (the tests' conformance, the document's own test) read it rather than name the route.
    Object.assign(out[503] as object, { 'x-kamai-own-answer': true, content: { 'application/json': { schema: { anyOf: [{ $ref: '#/components/schemas/ErrorBody' }, own] } } } });
  }
  return out;
}

/** The read-your-writes header as the document spells it (`Kamai-Position`). */
const POSITION_HEADER = LOG_POSITION_HEADER.replace(/(^|-)\w/g, (m) => m.toUpperCase());

/** A command's answer on a shared log (EVENT_STORE=postgres) names the log's head: LOG_POSITION_HEADER. */
function positionNamed(answer: { headers?: Record<string, unknown> }): void {
  answer.headers = { ...answer.headers, [POSITION_HEADER]: { $ref: `#/components/headers/${POSITION_HEADER}` } };
}

function successOf(route: RouteDoc, status: number, answer: Schema | undefined, description: string, command: boolean) {
  const headers: Record<string, unknown> = {};
  if (command) headers[POSITION_HEADER] = { $ref: `#/components/headers/${POSITION_HEADER}` };
  if (route.etag) headers.ETag = { $ref: '#/components/headers/ETag' };
  if (route.nextCursor) headers['X-Next-Cursor'] = { $ref: '#/components/headers/X-Next-Cursor' };
  const redirects = status === 302 || status === 303;
  if (redirects) headers.Location = { schema: { type: 'string' } };
  const hasBody = status !== 204 && !redirects;
  const schema = answer ? (route.list ? { type: 'array', items: output(answer) } : output(answer)) : {};
  return {
    description,
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(hasBody ? { content: { [route.content ?? 'application/json']: { schema } } } : {}),
  };
}

function operationOf(key: string, route: RouteDoc) {
  const [method, path] = key.split(' ') as [string, string];
  const names = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!).concat(path.endsWith('*') ? ['key'] : []);
  const paramSchema = route.params ? (input(route.params) as { properties?: Record<string, unknown> }) : undefined;
  const parameters: unknown[] = names.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: paramSchema?.properties?.[name] ?? (route.idPattern && name === 'id' ? { type: 'string', pattern: route.idPattern.source } : { type: 'string' }),
  }));
  if (route.query) {
    const query = input(route.query) as { properties?: Record<string, unknown>; required?: string[] };
    for (const [name, schema] of Object.entries(query.properties ?? {})) {
      parameters.push({ name, in: 'query', required: query.required?.includes(name) ?? false, schema });
    }
  }
  const sample = path.replace(/:\w+/g, 'x').replace(/\*$/, 'x');
  const idempotent = method === 'POST' && IDEMPOTENT_COMMANDS.some((pattern) => pattern.test(sample));
  if (idempotent) parameters.push({ $ref: '#/components/parameters/Idempotency-Key' });
  if (route.ifMatch) parameters.push({ $ref: '#/components/parameters/If-Match' });
  // Every request may name the position its client has seen: the node waits until its read models reach it.
  parameters.push({ $ref: `#/components/parameters/${POSITION_HEADER}` });
  const command = method !== 'GET';
  const responses: Record<string, unknown> = { [route.ok]: successOf(route, route.ok, route.answer, 'Success', command) };
  if (route.alsoOk) responses[route.alsoOk.status] = successOf(route, route.alsoOk.status, route.alsoOk.answer, route.alsoOk.description, command);
  Object.assign(responses, errorsOf(method, path, route, idempotent));
  const requestBody = route.body
    ? { required: true, content: { 'application/json': { schema: input(route.body) } } }
    : route.rawBody
      ? { required: true, content: { [route.rawBody]: { schema: { type: 'string' } } } }
      : undefined;
  return {
    method: method.toLowerCase(),
    path: openApiPath(path),
    operation: {
      operationId: `${method.toLowerCase()}${path.replace(/[:*]/g, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
      summary: route.summary,
      description: ROLE_TEXT[route.access],
      tags: [path.split('/')[path.startsWith('/api/admin/') ? 3 : 2] ?? 'api'],
      'x-kamai-access': route.access,
      security: route.access === 'public' ? [] : [{ session: [] }],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    },
  };
}

/** The OpenAPI 3.1 document of the whole API, made from ROUTES and the contracts schemas. */
export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [key, route] of Object.entries(ROUTES)) {
    const { method, path, operation } = operationOf(key, route);
    (paths[path] ??= {})[method] = operation;
  }
  const errorBody = output(ErrorBody) as { properties: { error: { properties: Record<string, unknown> } } };
  errorBody.properties.error.properties.code = { type: 'string', enum: Object.keys(ERROR_CODES) };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Kamai API',
      version: '1',
      description:
        'The JSON API of Kamai. Amounts are rupee strings with two decimals; every error answers ErrorBody. Generated from the valibot schemas in contracts (see docs/api.md).',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: { ErrorBody: errorBody },
      securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'kamai_session', description: 'The session cookie set by sign-in.' } },
      parameters: {
        'Idempotency-Key': {
          name: 'Idempotency-Key',
          in: 'header',
          required: false,
          description: 'The same key with the same body answers the first answer again instead of acting twice; with another body: 422.',
          schema: { type: 'string', pattern: IDEMPOTENCY_KEY_PATTERN.source },
        },
        'If-Match': {
          name: 'If-Match',
          in: 'header',
          required: true,
          description: 'The ETag the resource was read with: 428 without it, 412 when the resource has moved on.',
          schema: { type: 'string' },
        },
        [POSITION_HEADER]: {
          name: POSITION_HEADER,
          in: 'header',
          required: false,
          description:
            'The highest log position a command answer named (Kamai-Position) that this client has seen: the node answering waits (at most 10 s, never past the log head) until its read models reach it, so a read at one node sees a write made at another. Digits; any other value is ignored (it only ever delays a read), so no pattern is enforced.',
          schema: { type: 'string' },
        },
      },
      headers: {
        ETag: { description: "The resource's revision, to send back in If-Match.", schema: { type: 'string' } },
        'X-Next-Cursor': { description: 'Present when there is another page: send it as `cursor` with the same filters.', schema: { type: 'string' } },
        'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'string', pattern: '^\\d+$' } },
        [POSITION_HEADER]: {
          description:
            "On a shared log (EVENT_STORE=postgres): the log's head once the command was decided, including what it appended. Send the highest seen back on later requests (the Kamai-Position parameter). Absent on the embedded SQLite store.",
          schema: { type: 'string', pattern: '^\\d+$' },
        },
      },
    },
  };
}

/** Kept for the route: the document does not change while the process runs. */
let cached: string | undefined;
export const openApiJson = () => (cached ??= JSON.stringify(openApiDocument()));
