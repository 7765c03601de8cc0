import { listTaskSignals } from '@kamai/projections';
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { signedIn } from '../http/guards.ts';

/** GET /api/task-signals: each task's median review time and approval share over the last 30 days (docs/trust-signals.md). */
export const taskSignalRoutes = new Hono<AppEnv>().get('/api/task-signals', signedIn, async (c) => c.json(await listTaskSignals(c.var.deps.db, c.var.deps.now())));
