import { randomUUID } from 'node:crypto';
import { rupees, streams } from '@kamai/contracts';
import { userDecider } from '@kamai/domain';
import { handleCommand } from '../commands/handle.ts';
import { addSeedStep } from '../seed.ts';

/**
 * Demo money: the demo user gets ₹250 from the demo finance account and has asked to withdraw ₹100,
 * so the wallet, the withdrawal history and the finance queue all have something to show.
 */
addSeedStep(async (store, accounts, now) => {
  const userId = accounts.user;
  const financeId = accounts.finance;
  if (!userId || !financeId) return;
  const at = now.toISOString();
  await handleCommand(
    store,
    streams.user(userId),
    userDecider,
    {
      type: 'AdjustWallet',
      data: { entryId: randomUUID(), notificationId: randomUUID(), amountPaise: rupees(250), direction: 'credit', reason: 'Welcome bonus (demo data)', by: financeId },
      now: at,
    },
    { actor: financeId },
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
