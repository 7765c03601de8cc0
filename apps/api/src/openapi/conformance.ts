import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { openApiDocument } from './document.ts';

/**
 * The tests' check of every request and answer against the OpenAPI document (docs/api.md): the
 * test server helper wraps the app's fetch with it, collects what it finds and fails the test file
 * at close. Never on the production path.
 */

interface JsonSchema {
  [key: string]: unknown;
}
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required?: boolean;
  schema: JsonSchema;
}
interface Answer {
  content?: Record<string, { schema: JsonSchema }>;
  'x-kamai-error-codes'?: string[];
  /** This error status may also carry the route's own answer (RouteDoc.failingAnswers), which has no code. */
  'x-kamai-own-answer'?: boolean;
}
interface Operation {
  parameters?: Array<Parameter | { $ref: string }>;
  requestBody?: { required?: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, Answer>;
}
export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema>; parameters: Record<string, Parameter> };
}

/** An operation found for a request: its document path, method and path parameters. */
export interface Match {
  path: string;
  method: string;
  operation: Operation;
  params: Record<string, string>;
}

/** One request or answer that disagrees with the document. */
export interface Violation {
  request: string;
  status: number;
  problem: string;
}

// Only the API is described: the web app's pages (GET /*) are not, so a path outside these is not checked.
const DESCRIBED = /^\/(api\/|objects\/|metrics$)/;

export class Conformance {
  readonly doc: OpenApiDocument;
  readonly violations: Violation[] = [];
  private readonly ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
  private readonly compiled = new Map<JsonSchema, ValidateFunction>();
  /** Templated paths as patterns, the fixed ones first (`/api/withdrawals/destination` before `/{id}`). */
  private readonly templates: Array<{ path: string; pattern: RegExp; names: string[] }>;

  constructor(doc: OpenApiDocument = openApiDocument() as unknown as OpenApiDocument) {
    this.doc = doc;
    addFormats.default(this.ajv);
    this.ajv.addSchema(doc.components.schemas.ErrorBody!, '#/components/schemas/ErrorBody');
    this.templates = Object.keys(doc.paths)
      .map((path) => {
        const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
        const source = path.replace(/[.]/g, '\\.').replace(/\{key\}$/, '(.*)').replace(/\{\w+\}/g, '([^/]+)');
        return { path, pattern: new RegExp(`^${source}$`), names };
      })
      .sort((a, b) => a.names.length - b.names.length);
  }

  /** The operation a request names, or undefined. */
  match(method: string, pathname: string): Match | undefined {
    const lower = method.toLowerCase();
    for (const { path, pattern, names } of this.templates) {
      const found = pattern.exec(pathname);
      const operation = found && this.doc.paths[path]![lower];
      if (!found || !operation) continue;
      const params = Object.fromEntries(names.map((name, i) => [name, decoded(found[i + 1]!)]));
      return { path, method: lower, operation, params };
    }
    return undefined;
  }

  private validator(schema: JsonSchema): ValidateFunction {
    let fn = this.compiled.get(schema);
    if (!fn) this.compiled.set(schema, (fn = this.ajv.compile(schema)));
    return fn;
  }

  private errors(schema: JsonSchema, value: unknown): string | undefined {
    const fn = this.validator(schema);
    return fn(value) ? undefined : this.ajv.errorsText(fn.errors, { dataVar: 'body' });
  }

  /**
   * What is wrong with an exchange, by the document: an undescribed route answered anything but
   * 404, a status the operation does not list, a body its schema refuses, an error code the status
   * does not list; and a request the document refuses (parameters, query, body) that was answered
   * with success. A request the document allows may still be refused: the routes check more than
   * JSON Schema can say (docs/api.md).
   */
  problems(request: { method: string; url: string; headers: Headers; body?: unknown }, answer: { status: number; headers: Headers; body: unknown }): string[] {
    const url = new URL(request.url);
    if (['HEAD', 'OPTIONS'].includes(request.method) || !DESCRIBED.test(url.pathname)) return [];
    const found = this.match(request.method, url.pathname);
    if (!found) return answer.status === 404 || answer.status === 405 ? [] : [`no operation in the document, answered ${answer.status}`];
    const { operation } = found;
    const out: string[] = [];
    const described = operation.responses[String(answer.status)];
    if (!described) out.push(`status ${answer.status} is not listed (${Object.keys(operation.responses).join(', ')})`);
    const type = answer.headers.get('content-type') ?? '';
    if (described && type.includes('application/json')) {
      const schema = described.content?.['application/json']?.schema;
      if (!schema) out.push(`answered JSON where the document lists ${Object.keys(described.content ?? {}).join(', ') || 'no body'}`);
      else {
        const wrong = this.errors(schema, answer.body);
        if (wrong) out.push(`answer ${wrong}`);
      }
      const error = (answer.body as { error?: { code?: unknown } } | null)?.error;
      const codes = described['x-kamai-error-codes'];
      // The route's own answer at this status (marked in the document) is no error body: no code to check.
      const own = described['x-kamai-own-answer'] === true && error === undefined;
      if (answer.status >= 400 && codes && !own && !codes.includes(String(error?.code))) out.push(`error code ${String(error?.code)} is not one of ${answer.status}'s (${codes.join(', ')})`);
    }
    if (answer.status >= 200 && answer.status < 300) out.push(...this.requestProblems(found, url, request.headers, request.body));
    return out;
  }

  /** Where a request differs from what the document says the operation takes. */
  requestProblems(found: Match, url: URL, headers: Headers, body: unknown): string[] {
    const out: string[] = [];
    for (const ref of found.operation.parameters ?? []) {
      const param = '$ref' in ref ? this.doc.components.parameters[ref.$ref.split('/').pop()!]! : ref;
      const value = param.in === 'path' ? found.params[param.name] : param.in === 'query' ? url.searchParams.get(param.name) : headers.get(param.name);
      if (value === null || value === undefined) {
        if (param.required) out.push(`the ${param.in} parameter ${param.name} is required`);
        continue;
      }
      // Query values are strings on the wire; a schema of another type is checked on the value parsed as JSON.
      const wrong = this.errors(param.schema, value) && this.errors(param.schema, parsed(value));
      if (wrong) out.push(`the ${param.in} parameter ${param.name} ${wrong.replace(/^body/, '')}`);
    }
    const requestBody = found.operation.requestBody;
    const json = requestBody?.content['application/json']?.schema;
    if (json && body !== undefined) {
      const wrong = this.errors(json, body);
      if (wrong) out.push(`request ${wrong} (sent ${JSON.stringify(body)?.slice(0, 200)})`);
    }
    return out;
  }

  /** Wraps a fetch handler: every exchange is checked as it passes, the answer is sent unchanged. */
  wrap<E>(fetch: (request: Request, env: E) => unknown): (request: Request, env: E) => Promise<unknown> {
    return async (request, env) => {
      // The body is read on a copy, and only when small and JSON: the route reads the original.
      const length = Number(request.headers.get('content-length') ?? 'NaN');
      const copy = (request.headers.get('content-type') ?? '').includes('application/json') && length > 0 && length <= 64 * 1024 ? request.clone() : undefined;
      const response = await fetch(request, env);
      if (response instanceof Response) void this.record(request, copy, response.clone());
      return response;
    };
  }

  /** Pending checks, awaited by `settled()` before the violations are read. */
  private pending = new Set<Promise<void>>();

  private record(request: Request, copy: Request | undefined, response: Response): Promise<void> {
    const done = (async () => {
      const text = (response.headers.get('content-type') ?? '').includes('application/json') ? await bodyText(response) : '';
      const ok = response.status >= 200 && response.status < 300;
      const body = ok && copy ? parsed(await copy.text()) : undefined;
      const problems = this.problems(
        { method: request.method, url: request.url, headers: request.headers, body },
        { status: response.status, headers: response.headers, body: text ? parsed(text) : undefined },
      );
      const { pathname, search } = new URL(request.url);
      for (const problem of problems) this.violations.push({ request: `${request.method} ${pathname}${search}`, status: response.status, problem });
    })().catch((err: unknown) => {
      this.violations.push({ request: `${request.method} ${request.url}`, status: response.status, problem: `the check failed: ${String(err)}` });
    });
    this.pending.add(done);
    void done.finally(() => this.pending.delete(done));
    return done;
  }

  /** Resolves once every exchange seen so far is checked. */
  async settled(): Promise<Violation[]> {
    while (this.pending.size > 0) await Promise.all(this.pending);
    return this.violations;
  }
}

/** The answer's text as the client reads it: the pipeline compresses larger answers itself. */
async function bodyText(response: Response): Promise<string> {
  const bytes = Buffer.from(await response.arrayBuffer());
  const encoding = response.headers.get('content-encoding');
  return (encoding === 'br' ? brotliDecompressSync(bytes) : encoding === 'gzip' ? gunzipSync(bytes) : bytes).toString('utf8');
}

/** A path segment as the route sees it; one that is not valid percent-encoding stays as sent. */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The violations as one message, for a failing test. */
export function describeViolations(violations: Violation[]): string {
  const lines = violations.slice(0, 50).map((v) => `  ${v.request} → ${v.status}: ${v.problem}`);
  const more = violations.length > 50 ? `\n  … and ${violations.length - 50} more` : '';
  return `${violations.length} requests or answers disagree with the OpenAPI document (docs/api.md):\n${lines.join('\n')}${more}`;
}
