import { LOG_POSITION_HEADER } from '@kamai/contracts';
import type { Context } from 'hono';
import type { AppEnv } from '../deps.ts';
import { requestHeader } from './request.ts';

/** How long a request waits for this node's read models to reach the position it names. */
const WAIT_FOR_POSITION_MS = 10_000;
const POSITION = /^[0-9]{1,15}$/;

/**
 * Before the route: a request naming a log position (LOG_POSITION_HEADER, sent back by the web
 * client from an earlier answer, perhaps another node's) is answered once this node's read models
 * include it, so what the client did at node A is seen at node B. Never past the log's head (a
 * made-up position costs no wait), and at most WAIT_FOR_POSITION_MS: then the answer is what this
 * node has. A malformed value is ignored.
 */
export function waitForNamedPosition(c: Context<AppEnv>): Promise<unknown> | undefined {
  const named = requestHeader(c, LOG_POSITION_HEADER);
  if (named === undefined || !POSITION.test(named)) return undefined;
  const { runner, store } = c.var.deps;
  const position = Number(named);
  if (position <= runner.position) return undefined;
  return store
    .headPosition()
    .then((head) => (Math.min(position, head) > runner.position ? runner.waitFor(Math.min(position, head), WAIT_FOR_POSITION_MS) : true))
    .catch(() => false); // the log cannot be asked: the answer is what this node has
}

/**
 * After a command: its answer names the log's head, which includes every event the command
 * appended. Only where the log is shared between nodes (PostgreSQL, KurrentDB): processes on one
 * SQLite DATA_DIR share their read models, and need no position.
 */
export function namePosition(c: Context<AppEnv>): Promise<void> | undefined {
  const { config, store } = c.var.deps;
  if (config.eventStore.kind === 'sqlite') return undefined;
  const method = c.req.method;
  if (method === 'GET' || method === 'HEAD' || c.res.status >= 500) return undefined;
  return store.headPosition().then(
    (head) => c.header(LOG_POSITION_HEADER, String(head)),
    () => {}, // the answer stands without a position
  );
}
