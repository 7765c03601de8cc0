import { describe, expect, it } from 'vitest';
import { Conformance } from './conformance.ts';

const json = new Headers({ 'content-type': 'application/json' });
const failing = { status: 'failing', projections: 'inline', position: 1, head: 1, readModels: [], reason: 'storage read-only' };
const check = new Conformance();
const problems = (method: string, path: string, status: number, body: unknown) =>
  check.problems({ method, url: `http://127.0.0.1${path}`, headers: new Headers() }, { status, headers: json, body });

describe('the conformance check of error answers', () => {
  it("takes a route's own answer at a status the document marks (failingAnswers), and no code-less body elsewhere", () => {
    expect(problems('GET', '/api/health', 503, failing)).toEqual([]);
    expect(problems('GET', '/api/health', 503, { error: { code: 'busy', message: 'Busy' } })).toEqual([]);
    // Another route's 503 is an error body with a listed code, never a body of its own.
    expect(problems('GET', '/api/settings', 503, failing).join('\n')).toMatch(/error code undefined is not one of 503's/);
    expect(problems('GET', '/api/health', 503, { error: { code: 'not_found', message: 'No' } }).join('\n')).toMatch(/error code not_found/);
  });
});
