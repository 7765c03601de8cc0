import type { KamaiEvent } from '@kamai/contracts';
import { describe, it } from 'vitest';
import { projectionSpec } from '../testing.ts';
import { reviewerStatsProjection } from './projection.ts';

// 18:00Z is 23:30 IST: a decision half an hour later falls on the next IST day.
const at = (hour: number, minute = 0) => new Date(Date.UTC(2026, 10, 21, hour, minute)).toISOString();
const on = (userId: string, event: KamaiEvent) => ({ stream: `user-${userId}`, event });
const submitted = (userId: string, submissionId: string, submittedAt: string) =>
  on(userId, { type: 'ProofSubmitted', data: { submissionId, taskId: `t-${submissionId}`, taskTitle: 'Rate', rewardPaise: 1000, proofImageUrl: '/objects/p', proofDescription: 'd', submittedAt } });
const rejected = (userId: string, submissionId: string, reviewedBy: string, rejectedAt: string) =>
  on(userId, { type: 'ProofRejected', data: { submissionId, taskId: `t-${submissionId}`, reviewedBy, reason: 'r', reasonCode: 'other', rejectedAt } });
const approved = (userId: string, submissionId: string, reviewedBy: string, approvedAt: string) =>
  on(userId, { type: 'ProofApproved', data: { submissionId, taskId: `t-${submissionId}`, reviewedBy, rewardPaise: 1000, approvedAt } });

const spec = projectionSpec(reviewerStatsProjection);

describe('reviewer-stats read model', () => {
  it('counts decisions per reviewer and IST day with their times; a lapse, an auto-approval and an overturn are no decisions', () =>
    spec
      .given([
        submitted('w1', 's1', at(10)),
        submitted('w1', 's2', at(10)),
        submitted('w2', 's3', at(10)),
        approved('w1', 's1', 'ra', at(10, 5)),
        rejected('w1', 's2', 'ra', at(18, 30)),
        on('w2', { type: 'ProofChangesRequested', data: { submissionId: 's3', taskId: 't-s3', reviewedBy: 'rb', reason: 'r', reasonCode: 'other', requestedAt: at(11), resubmitBy: at(59) } }),
        rejected('w2', 's3', 'rb', at(60)),
        on('w1', { type: 'AppealDecided', data: { appealId: 'a1', submissionId: 's2', decision: 'overturn', decidedBy: 'rb', reason: 'ok', decidedAt: at(61) } }),
        approved('w1', 's2', 'rb', at(61)),
        submitted('w2', 's4', at(12)),
        approved('w2', 's4', 'system', at(90)),
      ])
      .then({
        reviewer_days: [
          { reviewer_id: 'ra', day: '2026-11-21', approvals: 1, rejections: 0, needs_changes: 0, appeals_lost: 0 },
          { reviewer_id: 'ra', day: '2026-11-22', approvals: 0, rejections: 1, needs_changes: 0, appeals_lost: 0 },
          { reviewer_id: 'rb', day: '2026-11-21', approvals: 0, rejections: 0, needs_changes: 1, appeals_lost: 0 },
          { reviewer_id: 'ra', day: '2026-11-23', approvals: 0, rejections: 0, needs_changes: 0, appeals_lost: 1 },
        ],
        reviewer_decisions: [
          { reviewer_id: 'ra', day: '2026-11-21', seconds: 300 },
          { reviewer_id: 'ra', day: '2026-11-22', seconds: 30_600 },
          { reviewer_id: 'rb', day: '2026-11-21', seconds: 3600 },
        ],
        // The worker's rejections count whatever their cause (the lapse too), on their IST day.
        worker_rejection_days: [
          { user_id: 'w1', day: '2026-11-22', rejections: 1 },
          { user_id: 'w2', day: '2026-11-23', rejections: 1 },
        ],
      }));
});
