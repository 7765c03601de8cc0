import {
  PROOF_SIMILARITY_MAX_DISTANCE,
  PROOF_SIMILARITY_MAX_LISTED,
  PROOF_SIMILARITY_WINDOW,
  halvesDistance,
  hashHalves,
  isDifferenceHash,
} from '@kamai/contracts';
import { erasedColumns } from '../erasure.ts';
import type { Rows } from '../rows.ts';

/** Another proof near one: its id, its owner and how many bits differ. */
export interface Near {
  id: string;
  userId: string;
  distance: number;
}

/** The order similar proofs are listed in: closest first, then by id. */
export const closestFirst = (a: Pick<Near, 'id' | 'distance'>, b: Pick<Near, 'id' | 'distance'>) => a.distance - b.distance || a.id.localeCompare(b.id);

/**
 * Pairs kept per proof. The queue lists PROOF_SIMILARITY_MAX_LISTED; the spare ones stand in when an
 * erasure takes listed ones away. Without a bound, a screen every worker sends alike (one layout, other
 * words) would store a pair for each of the window's proofs on every submission.
 */
export const KEPT_SIMILAR = PROOF_SIMILARITY_MAX_LISTED * 2;

interface Entry {
  id: string;
  userId: string;
  position: number;
  /** Null when the hash is not one (erased): the proof holds its place in the window and matches nothing. */
  halves: [number, number] | null;
  /** Its kept pairs, closest first. */
  near: Near[];
}

interface ProofWindow {
  /** Oldest first, at most PROOF_SIMILARITY_WINDOW. */
  entries: Entry[];
  /** The head row this copy matches; -1 while it is being changed, so a failure halfway forces a load. */
  changedAt: number;
}

/**
 * One copy per writer: the live connection's writer and each rebuild's shadow writer (whose tables
 * start empty) each keep their own, checked against the head row before every use.
 */
const windows = new WeakMap<Rows, ProofWindow>();

const ERASED_HASH = erasedColumns('ProofSubmitted', { proofDhash: 'proof_dhash' }).proof_dhash ?? '';

function headOf(rows: Rows): number {
  return rows.get('proof_window_head', { id: 1 }, ['changed_at'])?.changed_at ?? 0;
}

/** The window as the tables hold it: at most PROOF_SIMILARITY_WINDOW rows and their kept pairs. */
function load(rows: Rows, changedAt: number): ProofWindow {
  const entries = rows.all('proof_window', { position: { lt: Number.MAX_SAFE_INTEGER } }, ['position', 'submission_id', 'user_id', 'proof_dhash']).map(
    (row): Entry => ({
      id: row.submission_id,
      userId: row.user_id,
      position: row.position,
      halves: isDifferenceHash(row.proof_dhash) ? hashHalves(row.proof_dhash) : null,
      near: rows
        .all('similar_proofs', { submission_id: row.submission_id }, ['other_id', 'other_user_id', 'distance'])
        .map((pair) => ({ id: pair.other_id, userId: pair.other_user_id, distance: pair.distance }))
        .sort(closestFirst),
    }),
  );
  return { entries, changedAt };
}

/** This writer's window, loaded again when the tables moved without it. Marked as being changed. */
function openWindow(rows: Rows): ProofWindow {
  const head = headOf(rows);
  let window = windows.get(rows);
  if (!window || window.changedAt !== head) {
    window = load(rows, head);
    windows.set(rows, window);
  }
  window.changedAt = -1;
  return window;
}

function closeWindow(rows: Rows, window: ProofWindow, position: number): void {
  rows.upsert('proof_window_head', { id: 1, changed_at: position }, { conflict: ['id'], set: ['changed_at'] });
  window.changedAt = position;
}

/** Records `other` as near `owner` when it is among owner's KEPT_SIMILAR closest, dropping the one it displaces. */
function keep(rows: Rows, owner: Entry, other: Entry, distance: number): void {
  const near: Near = { id: other.id, userId: other.userId, distance };
  const last = owner.near.at(-1);
  if (owner.near.length >= KEPT_SIMILAR && last && closestFirst(near, last) >= 0) return;
  rows.insert('similar_proofs', { submission_id: owner.id, user_id: owner.userId, other_id: other.id, other_user_id: other.userId, distance });
  const at = owner.near.findIndex((n) => closestFirst(near, n) < 0);
  owner.near.splice(at === -1 ? owner.near.length : at, 0, near);
  if (owner.near.length > KEPT_SIMILAR) {
    const dropped = owner.near.pop();
    if (dropped) rows.delete('similar_proofs', { submission_id: owner.id, other_id: dropped.id });
  }
}

/**
 * A proof with a hash: compared with the PROOF_SIMILARITY_WINDOW hashed proofs before it (both ways,
 * so an earlier proof also names its later copy), then it joins the window and the oldest leaves.
 */
export function projectProofHash(rows: Rows, proof: { submissionId: string; userId: string; position: number; dhash: string }): void {
  const window = openWindow(rows);
  const entry: Entry = {
    id: proof.submissionId,
    userId: proof.userId,
    position: proof.position,
    halves: isDifferenceHash(proof.dhash) ? hashHalves(proof.dhash) : null,
    near: [],
  };
  if (entry.halves) {
    for (const other of window.entries) {
      if (!other.halves || other.id === entry.id) continue;
      const distance = halvesDistance(entry.halves, other.halves);
      if (distance > PROOF_SIMILARITY_MAX_DISTANCE) continue;
      keep(rows, entry, other, distance);
      keep(rows, other, entry, distance);
    }
  }
  rows.insert('proof_window', { position: proof.position, submission_id: proof.submissionId, user_id: proof.userId, proof_dhash: proof.dhash });
  window.entries.push(entry);
  if (window.entries.length > PROOF_SIMILARITY_WINDOW) {
    window.entries.splice(0, window.entries.length - PROOF_SIMILARITY_WINDOW);
    const oldest = window.entries[0];
    if (oldest) rows.delete('proof_window', { position: { lt: oldest.position } });
  }
  closeWindow(rows, window, proof.position);
}

/** An erased person's pictures match nothing: their pairs go (both ways) and their hashes read as erased. */
export function eraseProofHashes(rows: Rows, userId: string, position: number): void {
  const window = openWindow(rows);
  rows.delete('similar_proofs', { user_id: userId });
  rows.delete('similar_proofs', { other_user_id: userId });
  rows.update('proof_window', { user_id: userId }, { set: { proof_dhash: ERASED_HASH } });
  for (const entry of window.entries) {
    if (entry.userId === userId) {
      entry.halves = null;
      entry.near = [];
    } else entry.near = entry.near.filter((n) => n.userId !== userId);
  }
  closeWindow(rows, window, position);
}
