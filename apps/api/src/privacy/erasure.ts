import { eventCodec, isPlaceholder, streams } from '@kamai/contracts';
import { mobileDecider, userDecider } from '@kamai/domain';
import { isBusy, listSessionIdsOf, sqliteConnectionOf } from '@kamai/projections';
import { endSessions } from '../auth/sessions.ts';
import { recordErasure } from '../backup/erasure-list.ts';
import { handleCommand } from '../commands/handle.ts';
import type { AppDeps } from '../deps.ts';
import { type ObjectStorage, parseObjectURL } from '../object-storage/index.ts';

/** What erasing must remove outside the user's stream, read from their events while they still decode. */
interface Traces {
  mobile: string | null;
  imageURLs: string[];
}

async function tracesOf(deps: AppDeps, userId: string): Promise<Traces> {
  const traces: Traces = { mobile: null, imageURLs: [] };
  for (const recorded of await deps.store.readStream(streams.user(userId))) {
    const event = eventCodec.decode(recorded);
    if (!event) continue;
    if (event.type === 'UserRegistered') traces.mobile = event.data.mobile;
    else if (event.type === 'ProofSubmitted') traces.imageURLs.push(event.data.proofImageUrl);
    else if (event.type === 'KycDocumentSubmitted') traces.imageURLs.push(event.data.frontImageUrl, event.data.backImageUrl);
  }
  return traces;
}

/**
 * Carries out a deletion request. The `UserErased` append decides it (the decider refuses it during
 * the cooling-off or while money is owed, and the stream's revision settles a race with a withdrawal
 * by the same user: one of the two is appended, the other re-decided and refused). Then, each step
 * safe to repeat, so retrying a half-done erasure completes it: the mobile number is freed, every
 * session ended, the proof and KYC images deleted, and last the person's data key, after which their
 * events' personal fields read as erased. The read models scrub their rows on `UserErased`; the read
 * database's WAL is then checkpointed away so no copy of the old rows stays in it.
 */
export async function eraseUser(
  deps: AppDeps,
  objects: ObjectStorage,
  request: { id: string; userId: string },
  adminId: string,
): Promise<void> {
  const { userId } = request;
  const traces = await tracesOf(deps, userId);
  const now = () => deps.now().toISOString();
  const erased = await handleCommand(
    deps.store,
    streams.user(userId),
    userDecider,
    { type: 'EraseUser', data: { requestId: request.id, by: adminId }, now: now() },
    { actor: adminId },
  );
  let position = erased.position;
  if (traces.mobile !== null && !isPlaceholder(traces.mobile)) {
    // The hashed reservation, and a plain one kept from before the log was sealed: releasing a number
    // someone else holds (or nobody) changes nothing.
    for (const streamId of new Set([deps.personalData.mobileStreamId(traces.mobile), deps.personalData.legacyMobileStreamId(traces.mobile)])) {
      const released = await handleCommand(deps.store, streamId, mobileDecider, { type: 'ReleaseMobile', userId, now: now() }, { actor: adminId });
      position = Math.max(position, released.position);
    }
    // The sign-in and reset counters kept against the number (stored hashed, but still the number's).
    deps.attempts.forgetMobile(traces.mobile);
  }
  // Every session the read model still lists, expired ones too: ending one twice changes nothing.
  const sessions = await listSessionIdsOf(deps.db, userId);
  position = Math.max(position, await endSessions(deps, sessions, 'erased', adminId));
  for (const url of traces.imageURLs) {
    const parsed = isPlaceholder(url) ? null : parseObjectURL(url);
    if (parsed) await objects.delete(parsed.key);
  }
  // Last: once the key is gone the mobile number and image keys above no longer decode.
  await deps.personalData.erase(userId);
  // Kept outside the backed-up files: a restore of an older backup erases the person again.
  await recordErasure(deps.config, { userId, requestId: request.id, erasedBy: adminId, erasedAt: now() });
  if (position > 0) await deps.runner.waitFor(position);
  await checkpointReadDb(deps);
}

/** How long an erasure keeps trying to empty the read database's WAL before it answers anyway. */
const CHECKPOINT_PATIENCE_MS = 5000;

/**
 * Moves the WAL's pages into the database file and empties the WAL, so the pages of the rows as they
 * were before the scrub leave the disk (secure_delete zeroes them in the file itself). A reader (the
 * projection thread, a request's read) can keep a TRUNCATE checkpoint from finishing, and the
 * checkpointer thread's PASSIVE ones never empty the WAL: so it is tried again, between other work,
 * until it reports done. The erasure answers after that, or says why not in the log.
 */
async function checkpointReadDb(deps: AppDeps): Promise<void> {
  const sqlite = sqliteConnectionOf(deps.db);
  const deadline = Date.now() + CHECKPOINT_PATIENCE_MS;
  let last = 'the WAL stayed busy';
  for (;;) {
    // A checkpoint cannot run inside a transaction this connection has open meanwhile.
    if (!sqlite.inTransaction) {
      try {
        const [result] = sqlite.pragma('wal_checkpoint(TRUNCATE)') as { busy: number }[];
        if (!result?.busy) return;
      } catch (err) {
        if (!isBusy(err)) {
          console.warn(`[erasure] read database checkpoint did not finish: ${String(err)}`);
          return;
        }
        last = String(err);
      }
    }
    if (Date.now() > deadline) {
      console.warn(`[erasure] read database checkpoint did not finish: ${last}`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
