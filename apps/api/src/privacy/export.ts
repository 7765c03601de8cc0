import { PRIVACY_POLICY_VERSION, eventCodec, streams } from '@kamai/contracts';
import { type UserRecord, userDataExport } from '@kamai/projections';
import type { AppDeps } from '../deps.ts';

/** `GET /api/profile/export`: the read models' rows about the caller, and the consent they gave at sign-up. */
export async function exportUserData(deps: AppDeps, user: UserRecord) {
  const now = deps.now().toISOString();
  const [first] = await deps.store.readStream(streams.user(user.id), { maxCount: 1 });
  const registered = first ? eventCodec.decode(first) : null;
  const consent = registered?.type === 'UserRegistered' && registered.data.consentPolicyVersion !== undefined
    ? { policyVersion: registered.data.consentPolicyVersion, at: registered.data.registeredAt, confirmedAdult: true }
    : null;
  return {
    exportedAt: now,
    currentPolicyVersion: PRIVACY_POLICY_VERSION,
    consent,
    ...(await userDataExport(deps.db, user.id, now)),
  };
}
