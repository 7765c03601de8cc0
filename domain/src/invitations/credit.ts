import type { InvitationBeneficiary, Paise, UserEvent } from '@kamai/contracts';
import { notify } from '../user/notifications.ts';
import { type WalletState, credit } from '../user/wallet.ts';

/**
 * An invitation bonus paid into the person's wallet: a journal entry of its own kind
 * (`referral_bonus`, from the platform's referral bonus account) and a notification, one append. Its
 * step of the award workflow runs once (docs/invitations.md): the invitation's stream recorded the
 * award before it.
 */
export interface CreditReferralBonus {
  type: 'CreditReferralBonus';
  data: { entryId: string; notificationId: string; amountPaise: Paise; inviteeId: string; beneficiary: InvitationBeneficiary };
  now: string;
}

export function decideReferralBonus(command: CreditReferralBonus, state: { wallet: WalletState }): UserEvent[] {
  const { entryId, notificationId, amountPaise, inviteeId } = command.data;
  return [
    credit({ entryId, amountPaise, kind: 'referral_bonus', params: {}, reference: inviteeId, now: command.now }, state.wallet),
    notify({ notificationId, key: 'invite_bonus', params: { amountPaise }, kind: 'success', now: command.now }),
  ];
}
