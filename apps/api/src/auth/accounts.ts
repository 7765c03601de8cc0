import { randomUUID } from 'node:crypto';
import { PRIVACY_POLICY_VERSION, type RegisterRequest, type Role, streams } from '@kamai/contracts';
import { DomainError, type EventStore, mobileDecider, userDecider } from '@kamai/domain';
import { handleCommand, loadStream } from '../commands/handle.ts';
import { ApiError } from '../http/errors.ts';
import { hashPassword } from './passwords.ts';

const MOBILE_TAKEN = 'This mobile number is already registered';

export const mobileTaken = () => new ApiError(409, 'mobile_taken', MOBILE_TAKEN, { mobile: MOBILE_TAKEN });

/**
 * Registers an account: reserves the mobile number on its own stream, then writes the user stream.
 * Throws 409 `mobile_taken` when the number belongs to someone. Returns the user id and the
 * position to wait for.
 */
export async function registerUser(
  store: EventStore,
  request: RegisterRequest,
  now: Date,
): Promise<{ userId: string; position: number }> {
  const passwordHash = await hashPassword(request.password);
  const userId = await reserveMobile(store, request.mobile, now);
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
async function reserveMobile(store: EventStore, mobile: string, now: Date): Promise<string> {
  const userId = randomUUID();
  try {
    await handleCommand(
      store,
      streams.mobile(mobile),
      mobileDecider,
      { type: 'ReserveMobile', mobile, userId, now: now.toISOString() },
      { actor: userId },
    );
    return userId;
  } catch (err) {
    if (!(err instanceof DomainError && err.kind === 'conflict')) throw err;
  }
  const holder = (await loadStream(store, streams.mobile(mobile), mobileDecider)).state.userId;
  if (holder && (await store.readStream(streams.user(holder))).length === 0) return holder;
  throw mobileTaken();
}

/** The user id registered with this mobile number, read from the event store itself. */
export async function userIdForMobile(store: EventStore, mobile: string): Promise<string | null> {
  return (await loadStream(store, streams.mobile(mobile), mobileDecider)).state.userId;
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
