import { randomUUID } from 'node:crypto';
import { PRIVACY_POLICY_VERSION, type RegisterRequest, type Role, streams, msg } from '@kamai/contracts';
import { DomainError, type EventStore, mobileDecider, userDecider } from '@kamai/domain';
import { handleCommand, loadStream } from '../commands/handle.ts';
import { ApiError } from '../http/errors.ts';
import { hashPassword } from './passwords.ts';
import type { PersonalData } from '../privacy/personal-data.ts';

/** What names a mobile number's reservation stream (AppDeps.personalData). */
export type MobileStreams = Pick<PersonalData, 'mobileStreamId'>;

/**
 * Where a store written before stream names were hashed reserved a number (`mobile-<digits>`), read
 * until `migrate-privacy` renames those streams: a number reserved there is still taken.
 */
const legacyMobileStream = (mobile: string) => streams.mobile(mobile);

export const mobileTaken = () => new ApiError(409, 'mobile_taken', msg('api.mobileTaken'), { mobile: msg('api.mobileTaken') });

/**
 * Registers an account: reserves the mobile number on its own stream, then writes the user stream.
 * Throws 409 `mobile_taken` when the number belongs to someone. Returns the user id and the
 * position to wait for.
 */
export async function registerUser(
  store: EventStore,
  mobiles: MobileStreams,
  request: RegisterRequest,
  now: Date,
): Promise<{ userId: string; position: number }> {
  const passwordHash = await hashPassword(request.password);
  const userId = await reserveMobile(store, mobiles, request.mobile, now);
  try {
    const { position } = await handleCommand(
      store,
      streams.user(userId),
      userDecider,
      {
        type: 'RegisterUser',
        data: {
          userId,
          mobile: request.mobile,
          passwordHash,
          firstName: request.firstName,
          lastName: request.lastName,
          consentPolicyVersion: PRIVACY_POLICY_VERSION,
        },
        now: now.toISOString(),
      },
      { actor: userId },
    );
    return { userId, position };
  } catch (err) {
    if (err instanceof DomainError && err.kind === 'conflict') throw mobileTaken();
    throw err;
  }
}

/**
 * Reserves the mobile number on its own stream ("no stream" expected), so it registers once even
 * across API processes. A reservation whose user stream was never written (the process died between
 * the two appends) is resumed instead of locking the number out forever.
 */
async function reserveMobile(store: EventStore, mobiles: MobileStreams, mobile: string, now: Date): Promise<string> {
  const legacyHolder = (await loadStream(store, legacyMobileStream(mobile), mobileDecider)).state.userId;
  if (legacyHolder) return resumeOrRefuse(store, legacyHolder);
  const userId = randomUUID();
  const streamId = mobiles.mobileStreamId(mobile);
  try {
    await handleCommand(
      store,
      streamId,
      mobileDecider,
      { type: 'ReserveMobile', mobile, userId, reservationId: randomUUID(), now: now.toISOString() },
      // Not the user id: the reservation's events name their holder only under the reservation's key.
      { actor: 'registration' },
    );
    return userId;
  } catch (err) {
    if (!(err instanceof DomainError && err.kind === 'conflict')) throw err;
  }
  const holder = (await loadStream(store, streamId, mobileDecider)).state.userId;
  if (!holder) throw mobileTaken();
  return resumeOrRefuse(store, holder);
}

async function resumeOrRefuse(store: EventStore, holder: string): Promise<string> {
  if ((await store.readStream(streams.user(holder), { maxCount: 1 })).length === 0) return holder;
  throw mobileTaken();
}

/** The user id registered with this mobile number, read from the event store itself. */
export async function userIdForMobile(store: EventStore, mobiles: MobileStreams, mobile: string): Promise<string | null> {
  const holder = (await loadStream(store, mobiles.mobileStreamId(mobile), mobileDecider)).state.userId;
  return holder ?? (await loadStream(store, legacyMobileStream(mobile), mobileDecider)).state.userId;
}

export async function grantRole(store: EventStore, userId: string, role: Role, by: string, now: Date) {
  return handleCommand(
    store,
    streams.user(userId),
    userDecider,
    { type: 'GrantRole', data: { role, by }, now: now.toISOString() },
    { actor: by },
  );
}

export async function revokeRole(store: EventStore, userId: string, role: Role, by: string, now: Date) {
  return handleCommand(
    store,
    streams.user(userId),
    userDecider,
    { type: 'RevokeRole', data: { role, by }, now: now.toISOString() },
    { actor: by },
  );
}
