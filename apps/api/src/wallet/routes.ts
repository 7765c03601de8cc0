import { WithdrawalRequest, destinationOf, streams } from '@kamai/contracts';
import { userDecider, withdrawalBody } from '@kamai/domain';
import { commandId } from '../commands/keyed.ts';
import { findSavedDestination, listTransactions, listUserWithdrawals } from '@kamai/projections';
import { Hono } from 'hono';
import { requireUser } from '../auth/sessions.ts';
import { handleCommand } from '../commands/handle.ts';
import type { AppEnv } from '../deps.ts';
import { signedIn } from '../http/guards.ts';
import { consented } from '../profile/consent.ts';
import { validate } from '../http/validate.ts';

/** The user's side of the wallet: the ledger, withdrawal requests and their history. */
export const walletRoutes = new Hono<AppEnv>()
  .get('/api/transactions', signedIn, async (c) => c.json(await listTransactions(c.var.deps.db, requireUser(c).id)))
  .get('/api/withdrawals', signedIn, async (c) => c.json(await listUserWithdrawals(c.var.deps.db, requireUser(c).id)))
  .get('/api/withdrawals/destination', signedIn, async (c) =>
    c.json({ destination: await findSavedDestination(c.var.deps.db, requireUser(c).id) }),
  )
  /**
   * RequestWithdrawal, decided on the user's stream (not a read model): the hold, the request and a
   * notification are one append at the revision the balance was read at, retried on conflict.
   */
  .post('/api/withdrawals', consented, validate('json', WithdrawalRequest), async (c) => {
    const user = requireUser(c);
    const deps = c.var.deps;
    const request = c.req.valid('json');
    const withdrawalId = commandId();
    const command = {
      type: 'RequestWithdrawal' as const,
      data: {
        withdrawalId,
        entryId: commandId(),
        notificationId: commandId(),
        amountPaise: request.amount,
        destination: destinationOf(request),
      },
      now: deps.now().toISOString(),
    };
    // Withdrawal records are replaced, never changed: the one taken here stays as decided.
    const { view: record, position } = await handleCommand(
      deps.store,
      streams.user(user.id),
      userDecider,
      command,
      { actor: user.id },
      { view: (state) => state.withdrawals.byId.get(withdrawalId) },
    );
    await deps.runner.waitFor(position);
    if (!record) throw new Error(`withdrawal ${withdrawalId} missing after it was accepted`);
    return c.json(withdrawalBody(withdrawalId, user.id, record), 201);
  });

