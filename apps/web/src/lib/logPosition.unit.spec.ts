import { LOG_POSITION_HEADER } from '@kamai/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { rememberPosition } from './logPosition.ts';
import { adminTaskQuery } from './queries.ts';

afterEach(() => vi.unstubAllGlobals());

describe('the log position sent back on reads', () => {
  it("reads a task for an edit at the highest position a command answer named (another node waits for it)", async () => {
    rememberPosition(new Response(null, { headers: { [LOG_POSITION_HEADER]: '41' } }));
    rememberPosition(new Response(null, { headers: { [LOG_POSITION_HEADER]: '7' } }));
    const sent: Headers[] = [];
    // The browser's fetch, answering as the API does: the request's headers are what is checked.
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      sent.push(new Headers(init.headers));
      return new Response(JSON.stringify({ id: 't1' }), { headers: { ETag: '"3"', 'content-type': 'application/json' } });
    });
    const queryFn = adminTaskQuery('t1').queryFn as unknown as (context: { signal: AbortSignal }) => Promise<{ etag: string }>;
    expect((await queryFn({ signal: new AbortController().signal })).etag).toBe('"3"');
    expect(sent[0]?.get(LOG_POSITION_HEADER)).toBe('41');
  });
});
