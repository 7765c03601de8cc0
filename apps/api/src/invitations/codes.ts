import { createHmac } from 'node:crypto';
import { INVITE_CODE_ALPHABET, INVITE_CODE_LENGTH, msg, streams } from '@kamai/contracts';
import { DomainError, inviteCodeDecider, invitationDecider } from '@kamai/domain';
import { findUserById } from '@kamai/projections';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import { handleCommand, loadStream } from '../commands/handle.ts';
import type { AppDeps, AppEnv } from '../deps.ts';
import { badRequest } from '../http/errors.ts';

/**
 * A person's invite code: derived from their id under the server's secret (so it is stable and says
 * nothing of their id or number), in an alphabet without look-alikes. `attempt` > 0 only when the
 * first code is held by someone else (one in a trillion).
 */
function codeFor(secret: Uint8Array, userId: string, attempt: number): string {
  const digest = createHmac('sha256', secret).update(`invite-code:${userId}:${attempt}`).digest();
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i++) code += INVITE_CODE_ALPHABET[digest[i]! % INVITE_CODE_ALPHABET.length];
  return code;
}

/** The person's invite code, held for them on its own stream (`invite-code-<code>`) the first time it is asked for. */
export async function inviteCodeOf(deps: AppDeps, userId: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const code = codeFor(deps.secret, userId, attempt);
    try {
      await handleCommand(deps.store, streams.inviteCode(code), inviteCodeDecider, { type: 'IssueInviteCode', data: { code, userId }, now: deps.now().toISOString() }, { actor: userId });
      return code;
    } catch (err) {
      if (!(err instanceof DomainError) || attempt >= 3) throw err;
    }
  }
}

/** The person a code was issued to; an unknown code is a field error the person can correct. */
export async function inviterOf(deps: AppDeps, code: string): Promise<string> {
  const { state } = await loadStream(deps.store, streams.inviteCode(code), inviteCodeDecider);
  if (state.userId === null) throw badRequest(msg('invitation.code'), { inviteCode: msg('invitation.code') });
  return state.userId;
}

/**
 * Records that `inviteeId` registered by `inviterId`'s code, and whether the registering browser
 * carried a device cookie this server issued to the inviter's number (the two share a device). A
 * crash after the registration and before this loses the invitation, never money.
 */
export async function acceptInvitation(c: Context<AppEnv>, deviceCookie: string, inviteeId: string, inviterId: string, code: string): Promise<number> {
  const deps = c.var.deps;
  const inviter = await findUserById(deps.db, inviterId);
  const sharedDevice = inviter?.mobile ? deps.loginGuard.recognise(inviter.mobile, getCookie(c, deviceCookie)) !== null : false;
  const { position } = await handleCommand(
    deps.store,
    streams.invitation(inviteeId),
    invitationDecider,
    { type: 'AcceptInvitation', data: { inviteeId, inviterId, code, sharedDevice }, now: deps.now().toISOString() },
    { actor: inviteeId },
  );
  return position;
}
