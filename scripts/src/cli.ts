/**
 * Operators' command line: `npm run cli -- <command> [args]`, on the same DATA_DIR (and event store
 * settings) as the app. Changes go in as events, so a running app picks them up within a second.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FINANCIAL_YEAR_MESSAGE, ROLES, type Role, financialYear, formatPaise, istDayOf, maskMobile, periodEnd, periodStart, streams } from '@kamai/contracts';
import type { EventStore } from '@kamai/domain';
import {
  type KnownWithdrawal,
  PLATFORM_ENTRY,
  accountHolders,
  userOfAccount,
  trialBalance,
  ProjectionRunner,
  type ReadDbHandle,
  accounts,
  allProjections,
  changeOf,
  entryText,
  paramsOf,
  findUserById,
  findWallet,
  journalTransactionOf,
  listPostings,
  openReadDb,
  readEventTextsFrom,
  projectionsNamed,
  readCheckpoints,
  readParked,
  rebuildReadModels,
  negativeBalancesAsOfAnyDay,
  payoutAnomalies,
  reconciliation,
  toProjectedEvent,
  userBalanceAt,
  userStatement,
} from '@kamai/projections';
import {
  BackupError,
  ConfigError,
  MigrationError,
  backupDataDir,
  restoreBackup,
  type SealedEventStore,
  grantRole,
  loadConfig,
  openEventStore,
  readAheadFor,
  revokeRole,
  statementCsv,
  csvFile,
  toStatementBody,
  userIdForMobile,
  migratePrivacy,
  checkpointLedger,
  createLedgerWitness,
  type LedgerWitness,
  LedgerRefusedError,
  formatHead,
  parseHead,
  runAutoApprovals,
  formatSimilarityReport,
  similarityReport,
  verifyLedger,
  yearlyReport,
  yearlyReportCsv,
} from '@kamai/api';

const USAGE = `usage: npm run cli -- <command>

  grant-role <mobile> <admin|reviewer|finance>    give a user a staff role
  revoke-role <mobile> <admin|reviewer|finance>   take it away
  rebuild-read-models [name]                      rebuild every read model (or the one named) from
                                                  every event, aside, and swap it in; a running app
                                                  keeps serving the old rows meanwhile
  read-models                                     list the read models: name, version, position
  replay-wallet <mobile|user id> [--as-of ISO] [--csv] [--out FILE]
                                                  replay a wallet's ledger from its events (up to a
                                                  moment) and check the read models agree; --csv
                                                  prints the statement as CSV instead
  reconcile                                       all wallets + pending payouts against funded − paid
  export-ledger [--from DATE] [--to DATE] [--by effective|recorded] [--out FILE]
                                                  every journal posting as CSV (--out journal.csv), after an
                                                  opening row per account with --from; dates are whole IST days, --to inclusive;
                                                  --by effective reads the days entries take effect (a closed month's files)
  verify-ledger [--head POSITION:HASH[:MAC]]      check the event log's chains (each stream's and the whole
                                                  log's) and its signed checkpoints end to end; with --head,
                                                  that the log still runs through a head you kept
  ledger-head                                     sign and print the log's current head, for you to keep
                                                  outside this machine (see docs/ledger-integrity.md)
  yearly-report <2025-26> [--out FILE]            per person for an Indian financial year (April-March, IST):
                                                  rewards, bonuses, adjustments, payouts and PAN, as CSV
                                                  for the accountant (--out yearly.csv), with the tax withheld
  migrate-privacy                                 copy a log written before personal data was sealed
                                                  into a sealed one (app stopped; see docs/privacy.md)
  run-auto-approvals [--now ISO]                  approve proofs past the auto-approval delay (as
                                                  of a moment, never later than now; default now), as the running app
                                                  does every minute; safe beside it
  proof-similarity-report [dir]                   hash every image of a directory (default: the
                                                  committed set scripts/fixtures/proofs) and print the
                                                  near-duplicate check's catches and false flags
  backup <dir>                                    copy the event log, read models, key store, throttle
                                                  store and objects into a new directory, safely while
                                                  the app runs (never the key-encryption key)
  restore <backup> <data dir>                     copy a backup into a data directory (app stopped),
                                                  then erase again everyone the erasure list names
                                                  (see docs/operations.md)`;

class UsageError extends Error {}

async function main(args: string[]): Promise<void> {
  const [command, ...rest] = args;
  // Needs no installation: it reads a directory of images.
  if (command === 'proof-similarity-report') return printSimilarityReport(rest);
  // The data directory a restore writes may not exist yet.
  if (command === 'restore') return restore(rest);
  const config = loadConfig();
  // Every command works on an existing installation: a mistyped DATA_DIR is said plainly, not
  // created empty nor reported as a stack trace from SQLite.
  if (config.eventStore.kind === 'sqlite' && !existsSync(config.dataDir)) {
    throw new ConfigError(`The data directory ${config.dataDir} does not exist. Set DATA_DIR to the directory the app keeps its data in (start the app once to create it).`);
  }
  if (command === 'migrate-privacy') return migrate(config);
  if (command === 'backup') return backup(config, rest);
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
        return await replayWallet(store, config.readDbFile, rest, config.ledgerSigningKey, createLedgerWitness(config));
      case 'reconcile':
        return await reconcile(store, config.readDbFile, config.ledgerSigningKey, createLedgerWitness(config));
      case 'export-ledger':
        return await exportLedger(store, config.readDbFile, rest);
      case 'yearly-report':
        return await printYearlyReport(store, config.readDbFile, rest);
      case 'verify-ledger':
        return await verify(store, rest, config.ledgerSigningKey, createLedgerWitness(config));
      case 'ledger-head':
        return await ledgerHead(store, config.ledgerSigningKey, createLedgerWitness(config));
      case 'run-auto-approvals':
        return await autoApprove(store, config.readDbFile, rest);
      default:
        throw new UsageError(command ? `unknown command: ${command}` : 'no command given');
    }
  } finally {
    await store.close();
  }
}

async function migrate(config: ReturnType<typeof loadConfig>) {
  const report = await migratePrivacy(config);
  console.log(`migrated ${report.events} events; the new log's first event records the old head ${report.oldHeadHash ?? '(none)'} at position ${report.oldHeadPosition}`);
  console.log(`mobile reservations renamed: ${report.mobileStreamsRenamed}; wallets replayed to the same balances: ${report.walletsChecked}`);
  for (const file of report.keptAside) console.log(`kept aside (plain personal data: delete it once you have a backup you trust): ${file}`);
  console.log('the read models are rebuilt from the new log at the next start (or run rebuild-read-models now)');
}

async function backup(config: ReturnType<typeof loadConfig>, [target, ...extra]: string[]) {
  if (!target || extra.length > 0) throw new UsageError('give the directory to write the backup to');
  const manifest = await backupDataDir(config, resolve(target));
  console.log(`backed up ${manifest.files.length} files of ${config.dataDir} to ${resolve(target)} (${manifest.files.reduce((sum, f) => sum + f.bytes, 0)} bytes)`);
  if (config.eventStore.kind === 'kurrentdb') console.log('the event log is in KurrentDB: back it up with KurrentDB\'s own backup');
  if (config.objectStorage === 's3') console.log('objects are in S3: the bucket\'s own versioning and replication are their backup');
}

async function restore([backupDir, dataDir, ...extra]: string[]) {
  if (!backupDir || !dataDir || extra.length > 0) throw new UsageError('give the backup directory and the data directory to restore it into');
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir });
  const report = await restoreBackup(resolve(backupDir), config, (line) => console.log(line));
  if (!existsSync(config.erasureList)) {
    console.log(`no erasure list at ${config.erasureList}: if anyone was erased since the backup, set ERASURE_LIST to the list and restore again`);
  }
  console.log(`erasures re-applied from ${config.erasureList}: ${report.reapplied.length}${report.readModelsRebuilt ? '; read models rebuilt' : ''}`);
  console.log('run verify-ledger and reconcile on it before starting the app');
}

/** The committed image set the near-duplicate check is measured on. */
const PROOF_FIXTURES = fileURLToPath(new URL('../fixtures/proofs', import.meta.url));

async function printSimilarityReport(rest: string[]) {
  const report = await similarityReport(rest[0] ?? PROOF_FIXTURES);
  console.log(formatSimilarityReport(report));
  if (report.missed.length > 0 || report.falseFlags.length > 0) process.exitCode = 1;
}

const USER_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The user a mobile number names, or a user id as given (the only name an erased person keeps). */
async function userIdOrFail(store: SealedEventStore, mobile: string | undefined): Promise<string> {
  if (!mobile || !(/^\d{10}$/.test(mobile) || USER_ID.test(mobile))) throw new UsageError('give a 10-digit mobile number or a user id');
  const userId = USER_ID.test(mobile) ? mobile : await userIdForMobile(store, store.personal, mobile);
  if (!userId || (await store.readStream(streams.user(userId))).length === 0) {
    throw new UsageError(`no user is registered with ${USER_ID.test(mobile) ? `id ${mobile}` : `mobile ${maskMobile(mobile)}`}`);
  }
  return userId;
}

async function changeRole(store: SealedEventStore, command: 'grant-role' | 'revoke-role', [mobile, role]: string[]) {
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
    const { events, position, seconds } = await rebuildReadModels(db, store, projections, { log: (line) => console.log(line), readAhead: readAheadFor(store) });
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
    const [checkpoints, parked, head] = await Promise.all([readCheckpoints(db), readParked(db), store.headPosition()]);
    console.log(`store head: ${head}`);
    console.log('name            version  stored  position  behind');
    for (const p of allProjections) {
      const stored = checkpoints.get(p.name);
      const stuck = parked.get(p.name);
      const note =
        stuck && stuck.version === p.version
          ? `  PARKED at position ${stuck.position} (${stuck.eventType}) since ${stuck.parkedAt}: ${stuck.error}; after the fix: rebuild-read-models ${p.name}`
          : !stored
            ? '  (not built yet)'
            : stored.version !== p.version
              ? `  (rows are version ${stored.version}: a rebuild is due)`
              : '';
      console.log(
        `${p.name.padEnd(14)}  ${String(p.version).padStart(7)}  ${String(stored?.version ?? '-').padStart(6)}  ${String(stored?.position ?? 0).padStart(8)}  ${String(head - (stored?.position ?? 0)).padStart(6)}${note}`,
      );
    }
  } finally {
    await db.destroy();
  }
}

/** `--name value` options after the positional arguments; a moment must parse as a date. */
/**
 * `--out FILE`, taken out of a file-writing command's arguments: the file is written whole, so
 * nothing else (npm's banner when run as `npm run cli`) lands in it. Without it the file goes to stdout.
 */
function outOption(args: string[]): { rest: string[]; write: (text: string) => void } {
  const at = args.indexOf('--out');
  if (at < 0) return { rest: args, write: (text) => void process.stdout.write(text) };
  const file = args[at + 1];
  if (file === undefined || file.startsWith('--')) throw new UsageError('--out needs a file name');
  return {
    rest: [...args.slice(0, at), ...args.slice(at + 2)],
    write: (text) => {
      writeFileSync(file, text);
      console.log(`wrote ${resolve(file)}`);
    },
  };
}

function options(args: string[], names: readonly string[], flags: readonly string[] = []) {
  const positional: string[] = [];
  const values: Record<string, string> = {};
  const set = new Set<string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] ?? '';
    if (flags.includes(arg)) set.add(arg);
    else if (names.includes(arg)) {
      const value = args[++i];
      if (value === undefined || Number.isNaN(Date.parse(value))) throw new UsageError(`${arg} needs an ISO date or time`);
      // Kept as given: a date alone is a whole day in India time, which only the option's user can place.
      values[arg] = value;
    } else if (arg.startsWith('--')) throw new UsageError(`unknown option: ${arg}`);
    else positional.push(arg);
  }
  return { positional, values, flags: set };
}

async function autoApprove(store: EventStore, readDbFile: string, args: string[]) {
  let now = new Date();
  const at = args.indexOf('--now');
  if (at >= 0) {
    const value = args[at + 1];
    now = new Date(value ?? '');
    if (!value || Number.isNaN(now.getTime())) throw new UsageError('--now takes an ISO time, e.g. 2026-11-25T10:00:00Z');
    // Only back: a replay of sweeps that were missed. A credit dated in the future could be spent at
    // once while every balance as of an earlier day went below zero.
    if (now.getTime() > Date.now()) throw new UsageError(`--now may not be later than the present (${new Date().toISOString()}): no event is dated after it is recorded`);
  }
  const db = await caughtUpReadDb(store, readDbFile);
  try {
    const result = await runAutoApprovals({ store, db, now });
    console.log(`auto-approved ${result.approved.length} submissions as of ${now.toISOString()}; ${result.alreadyDecided} decided meanwhile; ${result.releasedSlots} slots given back; ${result.lapsed.length} change requests lapsed into rejections`);
  } finally {
    await db.destroy();
  }
}

/**
 * The read models brought up to the store's head (safe beside a running app: same checkpoint rules).
 * A read model that is new or of another version is built first (or waited for, when another
 * process is building it); then the runner stops at a checkpoint.
 */
async function caughtUpReadDb(store: EventStore, readDbFile: string): Promise<ReadDbHandle> {
  const db = await openReadDb(readDbFile);
  readEventTextsFrom(db, store);
  const runner = new ProjectionRunner(db, store, allProjections, { readAhead: readAheadFor(store) });
  try {
    await runner.start();
    await runner.stop();
  } catch (err) {
    await runner.stop().catch(() => {});
    await db.destroy();
    throw err;
  }
  return db;
}

async function verify(store: SealedEventStore, args: string[], signingKey: Uint8Array | null, witness: LedgerWitness | null) {
  const [flag, value, ...extra] = args;
  if (extra.length > 0 || (flag !== undefined && flag !== '--head')) throw new UsageError(`unexpected argument: ${extra[0] ?? flag}`);
  const head = value === undefined ? null : parseHead(value);
  if (flag === '--head' && !head) throw new UsageError('--head needs the value ledger-head printed: POSITION:HASH or POSITION:HASH:MAC');
  const verdict = await verifyLedger(store, { signingKey, head, witness });
  // A snapshot that does not open is ignored (its stream is folded from its events), so it is
  // reported without failing the check; an erased user's snapshots are among them. One that opens
  // but differs from its events' fold fails it (verifyLedger).
  for (const { streamId, revision, problem } of await store.snapshotProblems()) {
    console.log(`snapshot of ${streamId} at revision ${revision} ${problem === 'unsealed' ? 'was kept before sealing' : 'does not open or verify'}: ignored`);
  }
  const { count, latestPosition, witnessLatestPosition } = verdict.checkpoints;
  const witnessed = witness
    ? `; the witness (${witness.name}) holds ${witnessLatestPosition == null ? 'none yet' : `one up to position ${witnessLatestPosition}`}`
    : '; no witness (LEDGER_WITNESS) to compare with';
  const checkpoints = signingKey
    ? `signed checkpoints: ${count}${latestPosition === null ? '' : `, the newest at position ${latestPosition}`}; MACs checked${witnessed}`
    : `signed checkpoints: ${count}; MACs NOT checked: LEDGER_SIGNING_KEY is not set here, so a rewritten log is caught only with --head`;
  if (verdict.ok) {
    console.log(`OK: ${verdict.events} events verified; head ${verdict.headHash ?? '(empty log)'} at position ${verdict.headPosition}`);
    console.log(checkpoints);
    if (head) console.log(`OK: the log still runs through the head you kept at position ${head.position}`);
    const covered = Math.max(latestPosition ?? 0, witnessLatestPosition ?? 0);
    if (covered < verdict.headPosition) {
      console.log(`events after position ${covered} are covered by the log's chain alone until the next signed checkpoint`);
    }
    return;
  }
  const f = verdict.failure;
  if (f?.problem === 'unreadable') {
    // Every such event, not only the first: each is a person's data someone changed.
    for (const e of await store.unreadableEvents()) {
      console.log(`unreadable: ${e.type} event in stream ${e.streamId} at position ${e.position} (revision ${e.revision}): its sealed personal data does not open`);
    }
  }
  console.log(`TAMPERED: ${f?.problem} event in stream ${f?.streamId} at position ${f?.position}${f?.revision === null ? '' : ` (revision ${f?.revision})`}: ${f?.detail}`);
  console.log(`${verdict.events} events verified before it. Restore the event store from a backup; rebuilding the read models cannot fix the log.`);
  console.log(checkpoints);
  process.exitCode = 4;
}

/** Signs the log's current head (kept as a checkpoint, and in the witness) and prints it for the operator to keep elsewhere. */
async function ledgerHead(store: SealedEventStore, signingKey: Uint8Array | null, witness: LedgerWitness | null) {
  if (!signingKey) {
    const head = await store.capabilities.checkpoints?.logHead();
    if (!head) return console.log('the log is empty');
    console.log(`HEAD ${formatHead({ ...head, mac: null })}`);
    console.log('unsigned: LEDGER_SIGNING_KEY is not set. Keep this value outside this machine; verify-ledger --head <value> proves the log still runs through it.');
    return;
  }
  let checkpoint;
  try {
    checkpoint = await checkpointLedger(store, signingKey, new Date(), witness);
  } catch (err) {
    if (!(err instanceof LedgerRefusedError)) throw err;
    console.log(`TAMPERED: ${err.message}`);
    console.log('Nothing was signed. Run verify-ledger, and restore the event store from a backup.');
    process.exitCode = 4;
    return;
  }
  if (!checkpoint) return console.log('the log is empty');
  console.log(`HEAD ${formatHead(checkpoint)}`);
  console.log(`position ${checkpoint.position}, log hash ${checkpoint.hash}, signed at ${checkpoint.recordedAt}${witness ? `, witnessed in ${witness.name}` : ''}.`);
  console.log('Keep this value outside this machine; verify-ledger --head <value> proves the log still runs through it.');
}

/**
 * Finance's audit: every money event of the wallet in order (credits, holds, refunds, pays) with the
 * running available balance and pending payout, folded from the events themselves, then compared
 * with the read models. A log that fails verification is reported as such, never "rebuild".
 */
async function replayWallet(store: SealedEventStore, readDbFile: string, args: string[], signingKey: Uint8Array | null, witness: LedgerWitness | null) {
  const out = outOption(args);
  const { positional, values, flags } = options(out.rest, ['--as-of'], ['--csv']);
  // An "as of" date is the end of that day in India time.
  const asOf = values['--as-of'] === undefined ? undefined : periodEnd(values['--as-of']);
  const userId = await userIdOrFail(store, positional[0]);
  // Named by the number only when a number was given: a user id is not a phone number to mask.
  const given = positional[0] ?? '';
  const who = USER_ID.test(given) ? `user ${userId}` : `${maskMobile(given)} (user ${userId})`;
  const db = await caughtUpReadDb(store, readDbFile);
  try {
    if (flags.has('--csv')) {
      const user = await findUserById(db, userId);
      if (!user) throw new UsageError(`the read models have no ${who} yet`);
      out.write(statementCsv(toStatementBody(user, await userStatement(db, userId, asOf ? { to: asOf } : {}))));
      return;
    }
    const names = new Map<string, string>();
    const nameOf = async (id: string | null) => {
      if (!id) return '';
      if (!names.has(id)) {
        const row = await findUserById(db, id);
        // Who acted (staff, for the audit) by name; never a full mobile number.
        names.set(id, row ? `${[row.first_name, row.last_name].filter(Boolean).join(' ') || id} (${row.mobile ? maskMobile(row.mobile) : 'erased'})` : id);
      }
      return names.get(id) ?? id;
    };
    const withdrawals = new Map<string, KnownWithdrawal>();
    let available = 0;
    let pending = 0;
    let last = 0;
    const recordedEvents = await store.readStream(streams.user(userId));
    const erased = recordedEvents.some((recorded) => recorded.type === 'UserErased');
    console.log(`wallet of ${who}${erased ? ', erased: their personal data is deleted' : ''}${asOf ? ` as of ${asOf}` : ''}`);
    console.log('position  time                      available    pending      balance  what');
    for (const recorded of recordedEvents) {
      const event = toProjectedEvent(recorded);
      if (!event) continue;
      if (event.type === 'WithdrawalRequested') withdrawals.set(event.data.withdrawalId, { userId, amountPaise: event.data.amountPaise });
      const t = journalTransactionOf(event, userId, (id) => withdrawals.get(id));
      if (!t || (asOf !== undefined && t.effectiveAt > asOf)) continue;
      const availableChange = changeOf(accounts.available(userId), t.from, t.to, t.amountPaise);
      const pendingChange = changeOf(accounts.payoutPending(userId), t.from, t.to, t.amountPaise);
      available += availableChange;
      pending += pendingChange;
      last = event.position;
      const signed = (paise: number) => (paise === 0 ? '' : `${paise > 0 ? '+' : '-'}${formatPaise(Math.abs(paise))}`);
      const by = await nameOf(t.actor === userId ? null : t.actor);
      const refs = [t.submissionId && `submission ${t.submissionId}`, t.withdrawalId && `withdrawal ${t.withdrawalId}`, t.utr && `UTR ${t.utr}`].filter(Boolean).join(', ');
      console.log(
        `${String(event.position).padStart(8)}  ${t.effectiveAt}  ${signed(availableChange).padStart(10)} ${signed(pendingChange).padStart(10)}  ${formatPaise(available).padStart(10)}  ${t.kind}: ${entryText(t.kind, paramsOf(t), t.description)}${by ? ` (by ${by})` : ''}${refs ? ` [${refs}]` : ''}`,
      );
    }
    console.log(`events say:      available ${formatPaise(available)}, pending payout ${formatPaise(pending)} (up to position ${last})`);
    const journal = await userBalanceAt(db, userId, asOf);
    console.log(`journal says:    available ${formatPaise(journal.availablePaise)}, pending payout ${formatPaise(journal.pendingPayoutPaise)}`);
    let agrees = journal.availablePaise === available && journal.pendingPayoutPaise === pending;
    if (asOf === undefined) {
      const row = await findWallet(db, userId);
      console.log(row ? `wallet says:     available ${formatPaise(row.balance_paise)}` : 'wallet says:     no wallet row');
      agrees &&= row?.balance_paise === available;
    }
    const verdict = await verifyLedger(store, { signingKey, witness });
    if (!verdict.ok) {
      const f = verdict.failure;
      console.log(`TAMPERED: the event log fails verification (${f?.problem} in ${f?.streamId} at position ${f?.position}); these figures cannot be trusted and a rebuild would not help. Run verify-ledger.`);
      process.exitCode = 4;
      return;
    }
    console.log(agrees ? 'OK: the read models agree with the events, and the log verifies' : 'MISMATCH: rebuild the read models (npm run cli -- rebuild-read-models)');
    if (!agrees) process.exitCode = 3;
  } finally {
    await db.destroy();
  }
}

async function reconcile(store: EventStore, readDbFile: string, signingKey: Uint8Array | null, witness: LedgerWitness | null) {
  const db = await caughtUpReadDb(store, readDbFile);
  try {
    const r = await reconciliation(db);
    const verdict = await verifyLedger(store, { signingKey, witness });
    console.log(`available (all wallets)   ${formatPaise(r.availablePaise).padStart(14)}`);
    console.log(`pending payouts           ${formatPaise(r.pendingPayoutPaise).padStart(14)}`);
    console.log(`tax payable (withheld)    ${formatPaise(r.taxPayablePaise).padStart(14)}`);
    console.log(`tax deposited (challans)  ${formatPaise(r.taxDepositedPaise).padStart(14)}`);
    console.log(`funded (rewards, bonuses, adjustments) ${formatPaise(r.fundedPaise).padStart(14)}`);
    console.log(`paid to banks             ${formatPaise(r.paidPaise).padStart(14)}`);
    console.log(`difference                ${formatPaise(r.differencePaise).padStart(14)}`);
    // The rules never let a wallet go below zero: each line here is money that was never there.
    console.log(`negative balances         ${String(r.negativeBalances.length).padStart(14)}`);
    for (const n of r.negativeBalances) console.log(`  user ${n.userId} ${n.account} ${formatPaise(n.balancePaise)}`);
    // ... and as of any earlier day (a credit dated ahead of its recording, spent at once).
    const earlier = await negativeBalancesAsOfAnyDay(db);
    console.log(`negative on an earlier day ${String(earlier.length).padStart(13)}`);
    for (const n of earlier) console.log(`  user ${n.userId} ${n.account} ${formatPaise(n.balancePaise)} at the end of ${n.day} (IST)`);
    // What the payout workflows must never leave (docs/workflows.md): each line is one to look into.
    const anomalies = await payoutAnomalies(db, new Date(Date.now() - 10 * 60_000).toISOString());
    console.log(`withdrawals in two batches ${String(anomalies.inTwoBatches.length).padStart(13)}`);
    for (const a of anomalies.inTwoBatches) console.log(`  withdrawal ${a.withdrawal_id} in batches ${a.batches}`);
    console.log(`batch lists another batch's ${String(anomalies.listedElsewhere.length).padStart(12)}`);
    for (const a of anomalies.listedElsewhere) console.log(`  batch ${a.batch_id} lists withdrawal ${a.withdrawal_id}, which is in batch ${a.in_batch}`);
    console.log(`payouts of erased people  ${String(anomalies.pendingOfErased.length).padStart(14)}`);
    for (const a of anomalies.pendingOfErased) console.log(`  withdrawal ${a.id} of erased user ${a.user_id}: ${a.status}, ${formatPaise(a.amount_paise)}`);
    console.log(`workflows unfinished >10 min ${String(anomalies.unfinished.length).padStart(11)}`);
    for (const a of anomalies.unfinished) console.log(`  ${a.kind} ${a.id} since ${a.started_at}: ${a.recorded} of ${a.steps} steps`);
    const anomalous = anomalies.inTwoBatches.length + anomalies.listedElsewhere.length + anomalies.pendingOfErased.length + anomalies.unfinished.length;
    console.log(`log: head position ${await store.headPosition()}; verification ${verdict.ok ? `OK (head ${verdict.headHash})` : `FAILED: ${verdict.failure?.problem} in ${verdict.failure?.streamId} at position ${verdict.failure?.position}`}`);
    if (!verdict.ok) process.exitCode = 4;
    else if (r.differencePaise !== 0 || r.negativeBalances.length > 0 || earlier.length > 0 || anomalous > 0) process.exitCode = 3;
  } finally {
    await db.destroy();
  }
}

async function exportLedger(store: EventStore, readDbFile: string, args: string[]) {
  const out = outOption(args);
  // --by takes a word, not a date (options() reads dates): taken out first.
  const byAt = out.rest.indexOf('--by');
  const by = byAt === -1 ? 'recorded' : out.rest[byAt + 1];
  if (by !== 'recorded' && by !== 'effective') throw new UsageError('--by must be effective or recorded');
  const { positional, values } = options(byAt === -1 ? out.rest : out.rest.filter((_, i) => i !== byAt && i !== byAt + 1), ['--from', '--to']);
  if (positional.length > 0) throw new UsageError(`unexpected argument: ${positional[0]}`);
  const db = await caughtUpReadDb(store, readDbFile);
  try {
    // A date is a whole day in India time, the --to day included.
    const moment = (name: '--from' | '--to') => {
      const value = values[name];
      if (value === undefined) return undefined;
      if (Number.isNaN(Date.parse(value))) throw new UsageError(`${name} must be a date (YYYY-MM-DD) or an ISO-8601 time`);
      return name === '--from' ? periodStart(value) : periodEnd(value);
    };
    const from = moment('--from');
    const to = moment('--to');
    const range = { ...(from && { from }), ...(to && { to }) };
    const rows = await listPostings(db, { ...range, by });
    // With --from, each account's balance just before it opens the file, so the rows that follow
    // sum (per account) to the balance at --to (both by the same dates).
    const opening = from === undefined ? [] : (await trialBalance(db, new Date(Date.parse(from) - 1).toISOString(), by)).accounts.filter((a) => a.creditPaise !== a.debitPaise);
    // Accounts named by their holder too (name and masked mobile; "erased" for an erased person).
    const holders = await accountHolders(db, [...rows, ...opening].flatMap((p) => userOfAccount(p.account) ?? []));
    const holderCells = (account: string) => {
      const holder = holders.get(userOfAccount(account) ?? '');
      return [holder?.name ?? null, holder?.mobile ?? null];
    };
    const header = [
      'position', 'transaction_id', 'time', 'account', 'account_holder', 'account_holder_mobile', 'debit', 'credit', 'kind', 'description',
      'actor', 'reason', 'submission_id', 'withdrawal_id', 'utr', 'stream_id', 'revision', 'effective_date', 'value_date', 'corrects',
    ];
    out.write(
      csvFile(
        header,
        [
          ...opening.map((a) => {
            const net = a.creditPaise - a.debitPaise;
            return [
              null, null, from ?? null, a.account, ...holderCells(a.account), net < 0 ? formatPaise(-net) : '', net > 0 ? formatPaise(net) : '',
              'opening_balance', 'Opening balance', null, null, null, null, null, null, null,
              from === undefined ? null : istDayOf(from), null, null,
            ];
          }),
          ...rows.map((p) => [
            p.position, p.transactionId, p.effectiveAt, p.account, ...holderCells(p.account),
            p.amountPaise < 0 ? formatPaise(-p.amountPaise) : '', p.amountPaise > 0 ? formatPaise(p.amountPaise) : '',
            p.kind, p.description, p.actor, p.reason, p.submissionId, p.withdrawalId, p.utr,
            p.userId === PLATFORM_ENTRY ? streams.funding(p.entryId ?? '') : streams.user(p.userId), p.revision,
            p.effectiveDate, p.valueDate, p.corrects,
          ]),
        ],
        new Set(['position', 'debit', 'credit', 'revision']),
      ),
    );
  } finally {
    await db.destroy();
  }
}

async function printYearlyReport(store: EventStore, readDbFile: string, args: string[]) {
  const out = outOption(args);
  const { positional } = options(out.rest, []);
  const fy = positional[0];
  if (positional.length !== 1 || fy === undefined || financialYear(fy) === null) throw new UsageError(FINANCIAL_YEAR_MESSAGE);
  const db = await caughtUpReadDb(store, readDbFile);
  try {
    out.write(yearlyReportCsv(await yearlyReport(db, fy)));
  } finally {
    await db.destroy();
  }
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError) {
    console.error(`${err.message}\n\n${USAGE}`);
    process.exitCode = 2;
  } else if (err instanceof ConfigError || err instanceof MigrationError || err instanceof BackupError) {
    console.error(err.message);
    process.exitCode = 2;
  } else {
    console.error(err);
    process.exitCode = 1;
  }
});
