import * as v from 'valibot';
import { KycStatus } from './auth.ts';

/**
 * The review queue's flags on a proof: near-duplicate pictures (a 64-bit difference hash), work done
 * too fast, and what is known about the worker. One place for the numbers the server and the report
 * use.
 */

/**
 * Two proofs whose difference hashes differ in at most this many of 64 bits are flagged as the same
 * picture. Chosen from the committed image set (`proof-similarity-report`): resized, re-encoded and
 * lightly cropped copies stay at or below it, distinct screenshots of one app stay well above.
 */
export const PROOF_SIMILARITY_MAX_DISTANCE = 7;

/** How many of the hashed proofs before it a new proof is compared with, once, when it is projected. */
export const PROOF_SIMILARITY_WINDOW = 5000;

/** The most similar proofs listed on one queue item (closest first). */
export const PROOF_SIMILARITY_MAX_LISTED = 10;

/** Work whose time to proof is under this share of the task's estimated time is flagged fast. */
export const FAST_WORK_SHARE = 0.25;

/** A difference hash as stored: 16 lowercase hex digits (64 bits). */
const DHASH = /^[0-9a-f]{16}$/;

export function isDifferenceHash(value: unknown): value is string {
  return typeof value === 'string' && DHASH.test(value);
}

function popcount32(n: number): number {
  let x = n - ((n >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** A hash as two 32-bit halves, the form the distance is computed on. */
export function hashHalves(hash: string): [number, number] {
  return [Number.parseInt(hash.slice(0, 8), 16), Number.parseInt(hash.slice(8, 16), 16)];
}

/** How many of the 64 bits differ between two hashes (as halves). */
export function halvesDistance(a: readonly [number, number], b: readonly [number, number]): number {
  return popcount32((a[0] ^ b[0]) >>> 0) + popcount32((a[1] ^ b[1]) >>> 0);
}

/** How many of the 64 bits differ between two difference hashes. */
export function hammingDistance(a: string, b: string): number {
  return halvesDistance(hashHalves(a), hashHalves(b));
}

const UNIT_SECONDS: Record<string, number> = { s: 1, sec: 1, secs: 1, second: 1, seconds: 1, m: 60, min: 60, mins: 60, minute: 60, minutes: 60, h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600 };

/**
 * A task's estimated time ("5 min", "30 seconds", "1-2 hours", "1.5 hr") in seconds; a range counts
 * as its lower end, so "fast" is judged against the quickest honest try. Null when the admin's text
 * names no number and unit: such a task is never flagged fast.
 */
export function estimatedSeconds(text: string): number | null {
  const match = /(\d+(?:\.\d+)?)\s*(?:(?:-|–|to)\s*\d+(?:\.\d+)?\s*)?([a-z]+)/i.exec(text.trim());
  if (!match) return null;
  const unit = UNIT_SECONDS[(match[2] ?? '').toLowerCase()];
  const amount = Number(match[1]);
  if (unit === undefined || !(amount > 0)) return null;
  return Math.round(amount * unit);
}

/** Fast: the proof came in under FAST_WORK_SHARE of the estimate after the worker tapped Start. */
export function isFastWork(secondsToProof: number | null, estimate: number | null): boolean {
  return secondsToProof !== null && estimate !== null && secondsToProof < estimate * FAST_WORK_SHARE;
}

/** Another proof whose picture looks like this one's (any user, any task), closest first. */
export const SimilarProof = v.object({
  submissionId: v.string(),
  /** The other worker's mobile with all but its last digits hidden; empty once they were erased. */
  mobileMasked: v.string(),
  /** Differing bits of the 64, at most PROOF_SIMILARITY_MAX_DISTANCE. */
  distance: v.number(),
});
export type SimilarProof = v.InferOutput<typeof SimilarProof>;

/** What the queue knows about the worker behind a proof. */
export const QueueWorker = v.object({
  /** approved / (approved + rejected) over their proofs, 0..1; null before any decision. */
  approvalRate: v.nullable(v.number()),
  approvedCount: v.number(),
  rejectedCount: v.number(),
  /** Whole days since they registered, as of the read. */
  accountAgeDays: v.number(),
  kycStatus: KycStatus,
  suspended: v.boolean(),
});
export type QueueWorker = v.InferOutput<typeof QueueWorker>;

/** The flags each proof of the review queue carries. */
export const proofFlagFields = {
  similarProofs: v.array(SimilarProof),
  /** Seconds from the worker tapping Start to the proof; null when they never tapped Start. */
  secondsToProof: v.nullable(v.number()),
  /** True when secondsToProof is under FAST_WORK_SHARE of the task's estimated time. */
  fast: v.boolean(),
  worker: QueueWorker,
};
