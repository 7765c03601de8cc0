import { KycQueueQuery, KycRejectRequest, msg, streams } from '@kamai/contracts';
import { taxPayeeDecider, userDecider } from '@kamai/domain';
import { findKycDocument, findKycQueueItem, listKycQueue } from '@kamai/projections';
import { type Context, Hono } from 'hono';
import { readWithCatchUp, requireRole } from '../auth/sessions.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { notFound, notYetVisible } from '../http/errors.ts';
import { UUID_PATTERN, idParam, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { reviewKycDocument } from './commands.ts';
import { loadStream } from '../commands/handle.ts';
import { commandId } from '../commands/keyed.ts';
import { panClaimPlan, panClaimRefusal, panClaimWorkflow, panOfDocument } from '../workflows/pan-claim.ts';
import { driveWorkflow, loadWorkflow, startWorkflow } from '../workflows/run.ts';

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

  const pan = decision.decision === 'approve' ? await panOfDocument(deps, document.user_id, documentId) : null;
  if (pan !== null) {
    await approvePan(deps, { ownerId: document.user_id, documentId, pan }, reviewer.id);
    await deps.runner.waitFor(await deps.store.headPosition());
  } else {
    const { position } = await reviewKycDocument(deps.store, document.user_id, { ...decision, documentId, reviewerId: reviewer.id }, deps.now());
    await deps.runner.waitFor(position);
  }
  const reviewed = await findKycQueueItem(deps.db, documentId);
  if (!reviewed) throw notYetVisible();
  return c.json(reviewed, 200);
}

/**
 * A PAN card with its number is approved by a workflow (workflows/pan-claim.ts): one PAN is one payee
 * for tax, held by one live account (docs/tax.md). What can be refused is refused before anything is
 * recorded; a race with another approval of the same PAN is settled on the PAN's payee stream.
 */
async function approvePan(deps: AppDeps, document: { ownerId: string; documentId: string; pan: string }, reviewerId: string): Promise<void> {
  const { ownerId, documentId, pan } = document;
  // Under an Idempotency-Key a retry names the same workflow and resumes it, whatever changed since.
  const workflowId = commandId();
  if (!(await loadWorkflow(deps, workflowId)).started) {
    const now = deps.now().toISOString();
    // The person's decider first (own document, reviewed already), then the PAN's holder.
    const { state } = await loadStream(deps.store, streams.user(ownerId), userDecider);
    userDecider.decide({ type: 'ApproveKycDocument', data: { documentId, reviewerId, notificationId: workflowId }, now }, state);
    const payee = await loadStream(deps.store, deps.personalData.panPayeeStreamId(pan), taxPayeeDecider);
    taxPayeeDecider.decide({ type: 'ClaimTaxPayee', data: { userId: ownerId, documentId }, now }, payee.state);
    await startWorkflow(deps, { workflowId, kind: 'pan_claim', batchId: '', by: reviewerId, approvalThresholdPaise: 0, steps: panClaimPlan(documentId, ownerId) });
  }
  const refusal = panClaimRefusal(await driveWorkflow(deps, workflowId, panClaimWorkflow));
  if (refusal) throw refusal;
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
