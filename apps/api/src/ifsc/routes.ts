import { type IfscBranchBody, IfscParam, msg } from '@kamai/contracts';
import { Hono } from 'hono';
import type { AppEnv } from '../deps.ts';
import { ApiError } from '../http/errors.ts';
import { signedIn } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { ifscDirectory } from './directory.ts';

const noDirectory = () => new ApiError(404, 'no_branch_directory', msg('api.noBranchDirectory'));

/** One directory per dataset file, shared by every app in the process (tests start several). */
const directories = new Map<string, ReturnType<typeof ifscDirectory>>();

/**
 * GET /api/ifsc/:code: the bank and branch of an IFSC from the operator's offline directory
 * (IFSC_DATASET), so the withdraw form names the branch before anything is sent. Without a
 * directory: 404 no_branch_directory, and the form keeps showing the bank from its own data.
 */
export const ifscRoutes = new Hono<AppEnv>().get('/api/ifsc/:code', signedIn, validate('param', IfscParam), async (c) => {
  const file = c.var.deps.config.ifscDataset;
  if (!file) throw noDirectory();
  const { code } = c.req.valid('param');
  let directory = directories.get(file);
  if (!directory) directories.set(file, (directory = ifscDirectory(file)));
  const answer = await directory.lookup(code);
  if (answer.kind === 'unavailable') throw noDirectory();
  if (answer.kind === 'unknown') throw new ApiError(404, 'unknown_ifsc', msg('api.unknownIfsc', { code }));
  const body: IfscBranchBody = { ifsc: code, ...answer.branch };
  return c.json(body);
});
