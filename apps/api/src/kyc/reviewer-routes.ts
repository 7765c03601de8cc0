import { KycQueueQuery, KycRejectRequest, msg } from '@kamai/contracts';
import { findKycDocument, findKycQueueItem, listKycQueue } from '@kamai/projections';
import { type Context, Hono } from 'hono';
import { readWithCatchUp, requireRole } from '../auth/sessions.ts';
import type { AppEnv } from '../deps.ts';
import { notFound, notYetVisible } from '../http/errors.ts';
import { UUID_PATTERN, idParam, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { reviewKycDocument } from './commands.ts';

/**
 * KYC review is the `reviewer` role's alone: roles do not imply each other here, so an admin or
 * finance member without it gets 403. 401 when signed out, before the body is looked at.
 */
const reviewerOnly = withRole('reviewer');
const documentIdParam = idParam('id', UUID_PATTERN, msg('kyc.notFound'));

type Review = { decision: 'approve' } | { decision: 'reject'; reason: string };

/**
 * Decides on the document the path names, on its owner's stream. The domain refuses a reviewer's
 * own documents (403) and a second decision on one submission (409): of two reviewers approving at
 * once, the stream revision lets exactly one through.
 */
async function review(c: Context<AppEnv>, decision: Review) {
  const deps = c.var.deps;
  const reviewer = requireRole(c, 'reviewer');
  const documentId = (c.req.param('id') ?? '').toLowerCase();
  // The read model only says whose stream to go to; the decision is made on that stream.
  const document = await readWithCatchUp(deps, () => findKycDocument(deps.db, documentId));
  if (!document) throw notFound(msg('kyc.notFound'));

  const { position } = await reviewKycDocument(deps.store, document.user_id, { ...decision, documentId, reviewerId: reviewer.id }, deps.now());
  await deps.runner.waitFor(position);
  const reviewed = await findKycQueueItem(deps.db, documentId);
  if (!reviewed) throw notYetVisible();
  return c.json(reviewed, 200);
}

/** The reviewers' KYC queue and its decisions. */
export const kycReviewerRoutes = new Hono<AppEnv>()
  .get('/api/admin/kyc', reviewerOnly, validate('query', KycQueueQuery), async (c) => {
    const { status } = c.req.valid('query');
    return c.json(await listKycQueue(c.var.deps.db, { status }));
  })
  .post('/api/admin/kyc/:id/approve', reviewerOnly, documentIdParam, (c) => review(c, { decision: 'approve' }))
  .post('/api/admin/kyc/:id/reject', reviewerOnly, documentIdParam, validate('json', KycRejectRequest), (c) =>
    review(c, { decision: 'reject', reason: c.req.valid('json').reason }),
  );
