import { randomUUID } from 'node:crypto';
import { ADJUSTMENT_REASONS, rupees, streams } from '@kamai/contracts';
import { userDecider } from '@kamai/domain';
import { handleCommand } from '../commands/handle.ts';
import { addSeedStep } from '../seed.ts';

/**
 * Demo money: the demo user gets a ₹250 welcome bonus and has asked to withdraw ₹100, so the wallet,
 * the withdrawal history and the finance queue all have something to show. The bonus is the seed's
 * own (as its role grants are), not the demo finance member's: whoever credits a user may not pay
 * them, and the demo finance account is the one meant to try paying. The bonus's reason is the app's
 * (a code of ADJUSTMENT_REASONS), so its ledger line and notification read in the reader's language.
 */
addSeedStep(async (store, accounts, now) => {
  const userId = accounts.user;
  if (!userId) return;
  const at = now.toISOString();
  await handleCommand(
    store,
    streams.user(userId),
    userDecider,
    {
      type: 'AdjustWallet',
      data: { entryId: randomUUID(), notificationId: randomUUID(), amountPaise: rupees(250), direction: 'credit', reason: ADJUSTMENT_REASONS.demo_welcome, reasonCode: 'demo_welcome', by: 'seed' },
      now: at,
    },
    { actor: 'seed' },
  );
  await handleCommand(
    store,
    streams.user(userId),
    userDecider,
    {
      type: 'RequestWithdrawal',
      data: { withdrawalId: randomUUID(), entryId: randomUUID(), notificationId: randomUUID(), amountPaise: rupees(100), destination: { kind: 'upi', upiId: 'priya.sharma@okhdfc' } },
      now: at,
    },
    { actor: userId },
  );
});
