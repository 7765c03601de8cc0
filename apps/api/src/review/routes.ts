import { type BulkReviewBody, BulkReviewRequest, type BulkReviewResult, RejectRequest, RequestChangesRequest, SubmissionsQuery, msg, reasonCodeOf } from '@kamai/contracts';
import { DomainError } from '@kamai/domain';
import { findSubmission, getSettings, listSubmissions, submissionOwner } from '@kamai/projections';
import { type Context, Hono } from 'hono';
import { readWithCatchUp, requireRole } from '../auth/sessions.ts';
import type { AppEnv } from '../deps.ts';
import { notFound, notYetVisible } from '../http/errors.ts';
import { UUID_PATTERN, idParam, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { reviewProof } from '../tasks/commands.ts';

/**
 * Before the body is looked at: 401 when signed out, 403 without the reviewer role. Admin alone is
 * not enough: whoever sets rewards must not also approve them (separation of duties).
 */
const reviewerOnly = withRole('reviewer');
/** A submission id that is not a UUID names nothing: 404. */
const submissionIdParam = idParam('id', UUID_PATTERN, msg('api.submissionNotFound'));

type Review = { decision: 'approve' } | { decision: 'reject' | 'request_changes'; reason: string; reasonCode: string };

/** A rejection (or change request) with its plain reason code: which canned reason in force it is, or "other". */
async function rejection(c: Context<AppEnv>, reason: string, decision: 'reject' | 'request_changes' = 'reject'): Promise<Review> {
  const { cannedReasons } = await getSettings(c.var.deps.db);
  return { decision, reason, reasonCode: reasonCodeOf(reason, cannedReasons) };
}

/**
 * Approves or rejects the submission the path names, on its owner's stream. Reviewed twice, or by
 * two reviewers at once, the stream revision lets exactly one through; the other hears 409.
 */
async function review(c: Context<AppEnv>, decision: Review) {
  const deps = c.var.deps;
  const reviewer = requireRole(c, 'reviewer');
  const submissionId = (c.req.param('id') ?? '').toLowerCase();
  // The read model only says whose stream to go to; the decision is made on that stream.
  const owner = await readWithCatchUp(deps, () => submissionOwner(deps.db, submissionId));
  if (!owner) throw notFound(msg('api.submissionNotFound'));

  const { position } = await reviewProof(deps.store, owner, { ...decision, submissionId, reviewerId: reviewer.id }, deps.now());
  await deps.runner.waitFor(position);
  const reviewed = await findSubmission(deps.db, submissionId, deps.now());
  if (!reviewed) throw notYetVisible();
  return c.json(reviewed, 200);
}

/**
 * One decision for several submissions: each is its own command on its owner's stream, so a refusal
 * (decided meanwhile, the reviewer's own, gone) is that id's result and changes nothing for the
 * others. Ids are decided in the order given, so a keyed retry finds each earlier decision again.
 */
async function bulkReview(c: Context<AppEnv>, request: BulkReviewRequest) {
  const deps = c.var.deps;
  const reviewer = requireRole(c, 'reviewer');
  const decision: Review = request.decision === 'approve' ? { decision: 'approve' } : await rejection(c, request.reason);
  const results: BulkReviewBody['results'] = [];
  let last = 0;
  for (const submissionId of request.ids) {
    // Only whose stream it is: the queue's flags are not needed to decide.
    const owner = await readWithCatchUp(deps, () => submissionOwner(deps.db, submissionId));
    let result: BulkReviewResult;
    if (!owner) result = 'not_found';
    else {
      try {
        const { position } = await reviewProof(deps.store, owner, { ...decision, submissionId, reviewerId: reviewer.id }, deps.now());
        last = Math.max(last, position);
        result = request.decision === 'approve' ? 'approved' : 'rejected';
      } catch (err) {
        if (!(err instanceof DomainError)) throw err;
        result = err.kind === 'forbidden' ? 'own_submission' : err.kind === 'not_found' ? 'not_found' : 'conflict';
      }
    }
    results.push({ id: submissionId, result });
  }
  if (last > 0) await deps.runner.waitFor(last);
  return c.json({ results } satisfies BulkReviewBody, 200);
}

/** The proof review queue and its decisions: the `reviewer` role. */
export const reviewRoutes = new Hono<AppEnv>()
  .get('/api/admin/submissions', reviewerOnly, validate('query', SubmissionsQuery), async (c) => {
    const { status } = c.req.valid('query');
    return c.json(await listSubmissions(c.var.deps.db, { status, now: c.var.deps.now() }));
  })
  .post('/api/admin/submissions/bulk', reviewerOnly, validate('json', BulkReviewRequest), (c) => bulkReview(c, c.req.valid('json')))
  .post('/api/admin/submissions/:id/approve', reviewerOnly, submissionIdParam, (c) => review(c, { decision: 'approve' }))
  .post('/api/admin/submissions/:id/reject', reviewerOnly, submissionIdParam, validate('json', RejectRequest), async (c) =>
    review(c, await rejection(c, c.req.valid('json').reason)),
  )
  /** Sent back to the person instead of rejected: a reason from the canned list or written, coded like a rejection's. */
  .post('/api/admin/submissions/:id/request-changes', reviewerOnly, submissionIdParam, validate('json', RequestChangesRequest), async (c) =>
    review(c, await rejection(c, c.req.valid('json').reason, 'request_changes')),
  );
