import { type WithdrawalQuoteBody, WithdrawalQuoteQuery, WithdrawalRequest, destinationOf, formatPaise, streams } from '@kamai/contracts';
import { settingsEvolver, taxBody, userDecider, withdrawalBody, withdrawalTax } from '@kamai/domain';
import { loadStream } from '../commands/handle.ts';
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
   * What a withdrawal of `amount` would be charged if requested now (docs/tax.md), for the confirm
   * dialog: the same function, rules and state the request's decider uses. A quote holds nothing.
   */
  .get('/api/withdrawals/quote', signedIn, validate('query', WithdrawalQuoteQuery), async (c) => {
    const deps = c.var.deps;
    const { amount } = c.req.valid('query');
    const rules = await taxRulesInForce(deps.store);
    const { state } = await loadStream(deps.store, streams.user(requireUser(c).id), userDecider);
    const charges = withdrawalTax(state, rules, amount, deps.now().toISOString());
    const tax = taxBody(charges);
    const labels = charges.map((charge) => rules.find((rule) => rule.code === charge.code)?.label ?? charge.code);
    const body: WithdrawalQuoteBody = {
      amount: formatPaise(amount),
      tax: tax && { ...tax, label: labels.join('; ') },
      net: formatPaise(amount - charges.reduce((sum, charge) => sum + charge.amountPaise, 0)),
    };
    return c.json(body);
  })
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
        taxRules: await taxRulesInForce(deps.store),
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


/** The tax rules in force, from the settings stream (not a read model): the charge uses what was approved last. */
async function taxRulesInForce(store: AppEnv['Variables']['deps']['store']) {
  return (await loadStream(store, streams.settings(), settingsEvolver)).state.taxRules;
}
