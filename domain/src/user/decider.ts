import type { UserEvent } from '@kamai/contracts';
import type { Decider } from '../decider.ts';
import { assertNever } from '../errors.ts';
import { type AccountCommand, decideAccount } from './account.ts';
import { type AdjustWallet, type AdjustmentDecision, decideAdjustWallet, decideAdjustmentDecision } from './adjustments.ts';
import { type DeletionCommand, decideDeletion, refuseIfErased } from './deletion.ts';
import { type KycCommand, decideKyc } from './kyc.ts';
import { type NotificationCommand, decideNotifications } from './notifications.ts';
import { type ChangePassword, decideChangePassword } from './password.ts';
import { type UserState, userEvolver, userSnapshot } from './state.ts';
import { type UserTaskCommand, decideUserTasks } from './tasks.ts';
import { type WithdrawalCommand, decideWithdrawals } from './withdrawals.ts';
import { type SuspensionCommand, decideSuspension } from './suspension.ts';
import { type PushCommand, decidePush } from './push.ts';
import { type CreditReferralBonus, decideReferralBonus } from '../invitations/credit.ts';

/** Every command of a `user-<id>` stream. A new area adds its command union here and one case below. */
export type UserCommand =
  | AccountCommand
  | ChangePassword
  | AdjustWallet
  | AdjustmentDecision
  | DeletionCommand
  | KycCommand
  | NotificationCommand
  | UserTaskCommand
  | WithdrawalCommand
  | SuspensionCommand
  | PushCommand
  | CreditReferralBonus;

/** The decider of `user-<id>`: each area keeps its rules in its own file; this only routes to them. */
export const userDecider: Decider<UserState, UserCommand, UserEvent> = {
  ...userEvolver,
  snapshot: userSnapshot,
  decide: (command, state) => {
    refuseIfErased(state, command);
    switch (command.type) {
      case 'RegisterUser':
      case 'UpdateProfile':
      case 'GrantRole':
      case 'RevokeRole':
      case 'GiveConsent':
        return decideAccount(command, state.account);
      case 'AdjustWallet':
        return decideAdjustWallet(command, state);
      case 'ChangePassword':
        return decideChangePassword(command, state.account);
      case 'ApproveAdjustment':
      case 'RejectAdjustment':
        return decideAdjustmentDecision(command, state);
      case 'MarkNotificationRead':
      case 'MarkAllNotificationsRead':
      case 'DeleteNotification':
        return decideNotifications(command);
      case 'StartTask':
      case 'SubmitProof':
      case 'ApproveProof':
      case 'RejectProof':
      case 'RequestChanges':
      case 'LapseChangeRequest':
      case 'AppealRejection':
      case 'DecideAppeal':
        return decideUserTasks(command, state);
      case 'SuspendUser':
      case 'UnsuspendUser':
        return decideSuspension(command, state);
      case 'RequestWithdrawal':
      case 'MarkWithdrawalPaid':
      case 'RejectWithdrawal':
      case 'MarkWithdrawalProcessing':
      case 'FailWithdrawal':
      case 'ReverseWithdrawal':
        return decideWithdrawals(command, state);
      case 'SubmitKycDocument':
      case 'ApproveKycDocument':
      case 'RejectKycDocument':
      case 'ClaimKycBonus':
        return decideKyc(command, state);
      case 'RequestDeletion':
      case 'CancelDeletion':
      case 'EraseUser':
        return decideDeletion(command, state);
      case 'SubscribePush':
      case 'UnsubscribePush':
      case 'ChoosePushAlerts':
        return decidePush(command);
      case 'CreditReferralBonus':
        return decideReferralBonus(command, state);
      default:
        return assertNever(command);
    }
  },
};
