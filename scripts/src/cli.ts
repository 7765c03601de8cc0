/**
 * Operators' command line: `npm run cli -- <command> [args]`, on the same DATA_DIR (and event store
 * settings) as the app. Changes go in as events, so a running app picks them up within a second.
 */
import { ROLES, type Role, formatPaise, streams, userEvents } from '@kamai/contracts';
import { type EventStore, fold, userEvolver } from '@kamai/domain';
import { allProjections, findWallet, openReadDb, projectionsNamed, readCheckpoints, rebuildReadModels } from '@kamai/projections';
import { ConfigError, grantRole, loadConfig, openEventStore, revokeRole, userIdForMobile } from '@kamai/api';
import type { UserEvent } from '@kamai/contracts';

const USAGE = `usage: npm run cli -- <command>

  grant-role <mobile> <admin|reviewer|finance>    give a user a staff role
  revoke-role <mobile> <admin|reviewer|finance>   take it away
  rebuild-read-models [name]                      rebuild every read model (or the one named) from
                                                  every event, aside, and swap it in; a running app
                                                  keeps serving the old rows meanwhile
  read-models                                     list the read models: name, version, position
  replay-wallet <mobile>                          replay a wallet's ledger from its events and check
                                                  the read model agrees`;

class UsageError extends Error {}

async function main(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  const config = loadConfig();
  const store = await openEventStore(config);
  try {
    switch (command) {
      case 'grant-role':
      case 'revoke-role':
        return await changeRole(store, command, rest);
      case 'rebuild-read-models':
        return await rebuild(store, config.readDbFile, rest);
      case 'read-models':
        return await listReadModels(store, config.readDbFile);
      case 'replay-wallet':
        return await replayWallet(store, config.readDbFile, rest);
      default:
        throw new UsageError(command ? `unknown command: ${command}` : 'no command given');
    }
  } finally {
    await store.close();
  }
}

async function userIdOrFail(store: EventStore, mobile: string | undefined): Promise<string> {
  if (!mobile || !/^\d{10}$/.test(mobile)) throw new UsageError('give a 10-digit mobile number');
  const userId = await userIdForMobile(store, mobile);
  if (!userId || (await store.readStream(streams.user(userId))).length === 0) {
    throw new UsageError(`no user is registered with mobile ${mobile}`);
  }
  return userId;
}

async function changeRole(store: EventStore, command: 'grant-role' | 'revoke-role', [mobile, role]: string[]) {
  if (!ROLES.includes(role as Role)) throw new UsageError(`role must be one of: ${ROLES.join(', ')}`);
  const userId = await userIdOrFail(store, mobile);
  const change = command === 'grant-role' ? grantRole : revokeRole;
  const { events } = await change(store, userId, role as Role, 'cli', new Date());
  const verb = command === 'grant-role' ? 'granted to' : 'revoked from';
  console.log(events.length > 0 ? `${role} ${verb} ${mobile}` : `nothing to do: ${mobile} ${command === 'grant-role' ? 'already has' : 'does not have'} ${role}`);
}

async function rebuild(store: EventStore, readDbFile: string, names: string[]) {
  let projections;
  try {
    projections = names.length > 0 ? projectionsNamed(names) : allProjections;
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const db = await openReadDb(readDbFile);
  try {
    const { events, position, seconds } = await rebuildReadModels(db, store, projections, { log: (line) => console.log(line) });
    const which = names.length > 0 ? projections.map((p) => p.name).join(', ') : 'the read models';
    console.log(
      `rebuilt ${which} from ${events} events (up to position ${position}) in ${seconds.toFixed(2)} s: ${Math.round(events / Math.max(seconds, 1e-6))} events/s`,
    );
  } finally {
    await db.destroy();
  }
}

/** Every read model this code defines, with the version and position the database holds for it. */
async function listReadModels(store: EventStore, readDbFile: string) {
  const db = await openReadDb(readDbFile);
  try {
    const [checkpoints, head] = await Promise.all([readCheckpoints(db), store.headPosition()]);
    console.log(`store head: ${head}`);
    console.log('name            version  stored  position  behind');
    for (const p of allProjections) {
      const stored = checkpoints.get(p.name);
      const note = !stored ? '  (not built yet)' : stored.version !== p.version ? `  (rows are version ${stored.version}: a rebuild is due)` : '';
      console.log(
        `${p.name.padEnd(14)}  ${String(p.version).padStart(7)}  ${String(stored?.version ?? '-').padStart(6)}  ${String(stored?.position ?? 0).padStart(8)}  ${String(head - (stored?.position ?? 0)).padStart(6)}${note}`,
      );
    }
  } finally {
    await db.destroy();
  }
}

/**
 * Finance's audit: every ledger event of the wallet in order with the running balance, then the
 * balance folded from the events beside the one the read model serves.
 */
async function replayWallet(store: EventStore, readDbFile: string, [mobile]: string[]) {
  const userId = await userIdOrFail(store, mobile);
  const recorded = await store.readStream(streams.user(userId));
  const events = recorded.filter((e) => Object.hasOwn(userEvents, e.type)).map((e) => ({ ...e, event: { type: e.type, data: e.data } as UserEvent }));
  let state = userEvolver.initialState();
  console.log(`wallet of ${mobile} (user ${userId})`);
  console.log('position  time                      change        balance  what');
  for (const { position, event } of events) {
    const before = state.wallet.balance;
    state = userEvolver.evolve(state, event);
    if (event.type !== 'WalletCredited' && event.type !== 'WalletDebited') continue;
    const change = state.wallet.balance - before;
    const at = event.type === 'WalletCredited' ? event.data.creditedAt : event.data.debitedAt;
    const sign = change >= 0 ? '+' : '-';
    console.log(
      `${String(position).padStart(8)}  ${at}  ${(sign + formatPaise(Math.abs(change))).padStart(10)}  ${formatPaise(state.wallet.balance).padStart(10)}  ${event.data.kind}: ${event.data.description}${event.data.by ? ` (by ${event.data.by})` : ''}`,
    );
  }
  const folded = fold(userEvolver, events.map((e) => e.event)).wallet;
  const db = await openReadDb(readDbFile);
  try {
    const row = await findWallet(db, userId);
    console.log(`events say:     balance ${formatPaise(folded.balance)}, earned ${formatPaise(folded.totalEarned)}, withdrawn ${formatPaise(folded.totalWithdrawn)}`);
    console.log(
      row
        ? `read model says: balance ${formatPaise(row.balance_paise)}, earned ${formatPaise(row.total_earned_paise)}, withdrawn ${formatPaise(row.total_withdrawn_paise)}`
        : 'read model says: no wallet row (not caught up yet?)',
    );
    const agrees = row && row.balance_paise === folded.balance && row.total_earned_paise === folded.totalEarned && row.total_withdrawn_paise === folded.totalWithdrawn;
    console.log(agrees ? 'OK: the read model agrees with the events' : 'MISMATCH: rebuild the read models (npm run cli -- rebuild-read-models)');
    if (!agrees) process.exitCode = 3;
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    console.error(`${err.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else if (err instanceof ConfigError) {
    console.error(err.message);
    process.exitCode = 2;
  } else {
    console.error(err);
    process.exitCode = 1;
  }
});
