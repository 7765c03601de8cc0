import { formatPaise, maskMobile, type Role, type UserBody } from '@kamai/contracts';
import { type Selectable, sql } from 'kysely';
import type { ReadDbHandle } from '../db.ts';
import { PENDING_PAYOUT_SQL, hotReads } from '../hot-reads.ts';
import type { UsersTable } from '../schema.ts';
import { usersProjection } from './projection.ts';

/** A person's record in the users read model: who they are and what they may do. */
export type UserRecord = Selectable<UsersTable>;

/** What a user's wallet shows: the balance, the earnings, the payout requested and not yet paid. */
export interface WalletFigures {
  balance_paise: number;
  total_earned_paise: number;
  pending_payout_paise: number;
}

/** A user with the wallet figures the user body shows. */
export type UserRow = UserRecord & WalletFigures;

function selectUsers(db: ReadDbHandle) {
  return db
    .selectFrom('users')
    .leftJoin('wallets', 'wallets.user_id', 'users.id')
    .selectAll('users')
    .select((eb) => [
      eb.fn.coalesce('wallets.balance_paise', eb.lit(0)).as('balance_paise'),
      eb.fn.coalesce('wallets.total_earned_paise', eb.lit(0)).as('total_earned_paise'),
      sql<number>`${sql.raw(PENDING_PAYOUT_SQL)}`.as('pending_payout_paise'),
    ]);
}

/**
 * The events that change a user's record (findUserRecord) for their stream's user: the users read
 * model's own. A cache of records drops a user's record on these and keeps it while money moves.
 */
export const USER_RECORD_EVENTS: readonly string[] = usersProjection.handles;

/**
 * The events that change a user's wallet figures (findWalletFigures): the wallet's balance and
 * earnings, and the pending payout (the journal's withdrawal holds on the user's stream).
 */
export const WALLET_FIGURE_EVENTS: readonly string[] = [
  'UserRegistered',
  'WalletCredited',
  'WalletDebited',
  'WithdrawalRequested',
  'WithdrawalPaid',
  'WithdrawalRejected',
  'UserErased',
];

export function findUserById(db: ReadDbHandle, id: string): Promise<UserRow | undefined> {
  const hot = hotReads(db);
  if (hot) return Promise.resolve(hot.userById.get(id) as UserRow | undefined);
  return selectUsers(db).where('users.id', '=', id).executeTakeFirst();
}

/** The user's record without the wallet: what every signed-in request needs (a prepared statement). */
export function findUserRecord(db: ReadDbHandle, id: string): Promise<UserRecord | undefined> {
  const hot = hotReads(db);
  if (hot) return Promise.resolve(hot.userRecord.get(id) as UserRecord | undefined);
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user's wallet figures (zero for a user without a wallet yet). */
export async function findWalletFigures(db: ReadDbHandle, userId: string): Promise<WalletFigures> {
  const hot = hotReads(db);
  if (hot) return hot.walletFigures.get(userId) as WalletFigures;
  const row = await findUserById(db, userId);
  return { balance_paise: row?.balance_paise ?? 0, total_earned_paise: row?.total_earned_paise ?? 0, pending_payout_paise: row?.pending_payout_paise ?? 0 };
}

export function findUserByMobile(db: ReadDbHandle, mobile: string): Promise<UserRow | undefined> {
  return selectUsers(db).where('users.mobile', '=', mobile).executeTakeFirst();
}

export function rolesOf(row: Pick<UserRow, 'roles'>): Role[] {
  return JSON.parse(row.roles) as Role[];
}

/** The user body of `GET /api/auth/user`, plus isAdmin, roles and totalEarned. */
export function toUserBody(row: UserRow): UserBody {
  const fullName = [row.first_name, row.last_name].filter(Boolean).join(' ');
  return {
    id: row.id,
    username: fullName || (row.mobile ?? ''),
    mobile: row.mobile ?? '',
    firstName: row.first_name,
    lastName: row.last_name,
    email: row.email,
    profileImageUrl: row.profile_image_url,
    totalRupees: formatPaise(row.balance_paise),
    pendingPayout: formatPaise(row.pending_payout_paise),
    totalEarned: formatPaise(row.total_earned_paise),
    notificationsEnabled: row.notifications_enabled === 1,
    ...((row.language === 'en' || row.language === 'hi') && { language: row.language }),
    isAdmin: row.is_admin === 1,
    roles: rolesOf(row),
    kycStatus: row.kyc_status,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    consentRequired: row.consent_policy_version === null,
  };
}

/** Whose an account or a row is, as exports name them: the name and a masked mobile, or "erased". */
export interface AccountHolder {
  id: string;
  name: string;
  /** Masked (`+91 98xxxxxx10`); null for an erased person. */
  mobile: string | null;
}

export const ERASED_HOLDER = 'erased';

/**
 * The people behind user ids, for exports. Names come from the users read model, which the runner
 * folds from the log through the key store (names are sealed in the log); an erased person reads
 * as "erased", an unknown id is left out.
 */
export async function accountHolders(db: ReadDbHandle, ids: Iterable<string>): Promise<Map<string, AccountHolder>> {
  const wanted = [...new Set(ids)];
  const holders = new Map<string, AccountHolder>();
  // SQLite binds at most a few hundred parameters per statement.
  for (let i = 0; i < wanted.length; i += 500) {
    const rows = await db
      .selectFrom('users')
      .select(['id', 'first_name', 'last_name', 'mobile', 'erased_at'])
      .where('id', 'in', wanted.slice(i, i + 500))
      .execute();
    for (const r of rows) {
      const erased = r.erased_at !== null;
      holders.set(r.id, {
        id: r.id,
        name: erased ? ERASED_HOLDER : [r.first_name, r.last_name].filter(Boolean).join(' ') || r.id,
        mobile: erased || r.mobile === null ? null : maskMobile(r.mobile),
      });
    }
  }
  return holders;
}

/** The finance members still on the books (not erased), by id: who a balance's warning tells. */
export async function financeMemberIds(db: ReadDbHandle): Promise<string[]> {
  const rows = await db.selectFrom('users').select(['id', 'roles']).where('roles', 'like', '%"finance"%').where('erased_at', 'is', null).orderBy('id').execute();
  return rows.filter((row) => rolesOf(row).includes('finance')).map((row) => row.id);
}
