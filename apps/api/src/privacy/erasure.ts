import { eventCodec, isPlaceholder, streams } from '@kamai/contracts';
import { DomainError, mobileDecider, userDecider } from '@kamai/domain';
import { isBusy, listSessionIdsOf, sqliteConnectionOf } from '@kamai/projections';
import { endSessions } from '../auth/sessions.ts';
import { recordErasure } from '../backup/erasure-list.ts';
import { handleCommand } from '../commands/handle.ts';
import { outsideKeyed } from '../commands/keyed.ts';
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
 * The steps of carrying out a deletion request, in order (the erasure workflow, workflows/erasure.ts,
 * records each one's outcome). The `UserErased` append decides it: the decider refuses it during the
 * cooling-off or while money is owed, and the stream's revision settles a race with a withdrawal by
 * the same user (one of the two is appended, the other re-decided and refused). Then, each safe to
 * run again: the mobile number is freed, every session ended, the proof and KYC images deleted, and
 * last the person's data key, after which their events' personal fields read as erased. The read
 * models scrub their rows on `UserErased`; the read database's WAL is then checkpointed away.
 */

/** Records `UserErased`: `applied` (or found already so by this request: `skipped`), else the refusal's code. */
export async function eraseOnUserStream(deps: AppDeps, request: { id: string; userId: string }, by: string): Promise<string> {
  try {
    const done = await handleCommand(
      deps.store,
      streams.user(request.userId),
      userDecider,
      { type: 'EraseUser', data: { requestId: request.id, by }, now: deps.now().toISOString() },
      { actor: by },
    );
    return done.events.length > 0 ? 'applied' : 'skipped';
  } catch (err) {
    if (err instanceof DomainError) return err.code ?? err.kind;
    throw err;
  }
}

/**
 * Frees the person's mobile number and forgets that they held it: the reservation's key is deleted,
 * so its events read the number and the holder as erased, and a later holder's stream names nobody
 * before them. The sign-in and reset counters kept against the number go too.
 */
export async function releaseMobileOf(deps: AppDeps, userId: string, by: string): Promise<string> {
  const { mobile } = await tracesOf(deps, userId);
  if (mobile === null || isPlaceholder(mobile)) return 'skipped';
  // The hashed reservation, and a plain one kept from before the log was sealed: releasing a number
  // someone else holds (or nobody) changes nothing.
  for (const streamId of new Set([deps.personalData.mobileStreamId(mobile), deps.personalData.legacyMobileStreamId(mobile)])) {
    // Outside the workflow's key: the release is idempotent on its own, and a step's tag would link
    // the number's stream to the workflow, whose record names the person.
    await outsideKeyed(() => handleCommand(deps.store, streamId, mobileDecider, { type: 'ReleaseMobile', userId, now: deps.now().toISOString() }, { actor: by }));
    for (const recorded of await deps.store.readStream(streamId)) {
      const event = eventCodec.decode(recorded);
      // A reservation of theirs whose key is still there (a reservation from before keys: '' has none).
      if (event?.type === 'MobileReserved' && event.data.userId === userId && event.data.reservationId !== '') {
        await deps.personalData.erase(event.data.reservationId);
      }
    }
  }
  deps.attempts.forgetMobile(mobile);
  return 'applied';
}

/** Ends every session the read model still lists, expired ones too: ending one twice changes nothing. */
export async function endSessionsOf(deps: AppDeps, userId: string, by: string): Promise<string> {
  const sessions = await listSessionIdsOf(deps.db, userId);
  await endSessions(deps, sessions, 'erased', by);
  return 'applied';
}

/** Deletes the proof and KYC images (their keys are read from the person's events while they decode). */
export async function deleteImagesOf(deps: AppDeps, objects: ObjectStorage, userId: string): Promise<string> {
  for (const url of (await tracesOf(deps, userId)).imageURLs) {
    const parsed = isPlaceholder(url) ? null : parseObjectURL(url);
    // Deleting an object already gone is no error: a step run again finds some gone.
    if (parsed) await objects.delete(parsed.key);
  }
  return 'applied';
}

/** Last of the person's own steps: once the key is gone their mobile number and image keys no longer decode. */
export async function deleteKeyOf(deps: AppDeps, request: { id: string; userId: string }, by: string): Promise<string> {
  const { userId } = request;
  await deps.personalData.erase(userId);
  // Kept outside the backed-up files: a restore of an older backup erases the person again (a step run
  // again may list them twice; restore reads the list as a set).
  await recordErasure(deps.config, { userId, requestId: request.id, erasedBy: by, erasedAt: deps.now().toISOString() });
  return 'applied';
}

/** Once the read models have scrubbed the person's rows, the old pages leave the read database's WAL. */
export async function checkpointAfterErasure(deps: AppDeps): Promise<string> {
  await deps.runner.waitFor(await deps.store.headPosition());
  await checkpointReadDb(deps);
  return 'applied';
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
