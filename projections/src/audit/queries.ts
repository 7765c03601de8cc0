import { AUDIT_PAGE_SIZE, type AuditAction, type AuditActorBody, type AuditEntryBody, type PendingAdjustmentBody, type Role, formatPaise } from '@kamai/contracts';
import type { ReadDbHandle } from '../db.ts';
import { rolesOf } from '../users/queries.ts';
import type { AdjustmentsTable } from './schema.ts';

/** A person's name from its two parts, or null when neither is set. */
export const nameOf = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ') || null;
const rolesOrNone = (roles: string | null): Role[] => (roles === null ? [] : rolesOf({ roles }));

/** What the audit list may be narrowed to; `fromAt` is inclusive, `toBefore` exclusive (UTC instants). */
export interface AuditFilter {
  actor?: string | undefined;
  action?: AuditAction | undefined;
  fromAt?: string | undefined;
  toBefore?: string | undefined;
}

/**
 * GET /api/admin/audit: staff actions, newest first, a page at a time. `before` is the previous
 * page's cursor (a position); the answer names the next one when more rows follow. The filters
 * narrow every page alike, so a cursor walks the filtered list.
 */
export async function listAudit(
  db: ReadDbHandle,
  options: AuditFilter & { before?: number | undefined; limit?: number | undefined } = {},
): Promise<{ rows: AuditEntryBody[]; nextCursor: number | null }> {
  const limit = options.limit ?? AUDIT_PAGE_SIZE;
  let query = db
    .selectFrom('audit_log as a')
    .leftJoin('users as actor', 'actor.id', 'a.actor_id')
    .leftJoin('users as subject', 'subject.id', 'a.subject_user_id')
    .select([
      'a.id',
      'a.position',
      'a.at',
      'a.action',
      'a.actor_id',
      'a.subject_user_id',
      'a.amount_paise',
      'a.reference',
      'actor.first_name as actor_first',
      'actor.last_name as actor_last',
      'actor.mobile as actor_mobile',
      'actor.roles as actor_roles',
      'subject.first_name as subject_first',
      'subject.last_name as subject_last',
      'subject.mobile as subject_mobile',
    ])
    .orderBy('a.position', 'desc')
    .limit(limit + 1);
  if (options.before !== undefined) query = query.where('a.position', '<', options.before);
  if (options.actor !== undefined) query = query.where('a.actor_id', '=', options.actor);
  if (options.action !== undefined) query = query.where('a.action', '=', options.action);
  if (options.fromAt !== undefined) query = query.where('a.at', '>=', options.fromAt);
  if (options.toBefore !== undefined) query = query.where('a.at', '<', options.toBefore);
  const fetched = await query.execute();
  const more = fetched.length > limit;
  const page = more ? fetched.slice(0, limit) : fetched;
  const rows = page.map((r) => ({
    id: r.id,
    at: r.at,
    action: r.action,
    actor: { id: r.actor_id, name: nameOf(r.actor_first, r.actor_last), mobile: r.actor_mobile ?? null, roles: rolesOrNone(r.actor_roles) },
    subject: r.subject_user_id ? { id: r.subject_user_id, name: nameOf(r.subject_first, r.subject_last), mobile: r.subject_mobile ?? null } : null,
    amount: r.amount_paise === null ? null : formatPaise(r.amount_paise),
    reference: r.reference,
  }));
  return { rows, nextCursor: more ? (page.at(-1)?.position ?? null) : null };
}

/** GET /api/admin/audit/actors: each distinct actor of the audit list (staff, or `system`), by name. */
export async function listAuditActors(db: ReadDbHandle): Promise<AuditActorBody[]> {
  const rows = await db
    .selectFrom((eb) => eb.selectFrom('audit_log').select('actor_id').distinct().as('a'))
    .leftJoin('users as u', 'u.id', 'a.actor_id')
    .select(['a.actor_id', 'u.first_name', 'u.last_name', 'u.roles'])
    .execute();
  return rows
    .map((r) => ({ id: r.actor_id, name: nameOf(r.first_name, r.last_name), roles: rolesOrNone(r.roles) }))
    .sort((a, b) => (a.name ?? a.id).localeCompare(b.name ?? b.id) || a.id.localeCompare(b.id));
}

export async function findAdjustment(db: ReadDbHandle, id: string) {
  return db.selectFrom('adjustments').selectAll().where('id', '=', id).executeTakeFirst();
}

/** GET /api/admin/adjustments: pending ones first in request order, for a second finance member. */
export async function listAdjustments(db: ReadDbHandle, status: 'pending' | 'approved' | 'rejected'): Promise<PendingAdjustmentBody[]> {
  const rows = await db
    .selectFrom('adjustments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.id', 'a.user_id', 'u.mobile', 'a.amount_paise', 'a.direction', 'a.reason', 'a.status', 'a.requested_by', 'a.requested_at', 'a.decided_by', 'a.decided_at'])
    .where('a.status', '=', status)
    .orderBy('a.position', 'asc')
    .execute();
  return rows.map(toAdjustmentBody);
}

export function toAdjustmentBody(r: Omit<AdjustmentsTable, 'position'> & { mobile: string | null }): PendingAdjustmentBody {
  return {
    id: r.id,
    userId: r.user_id,
    mobile: r.mobile ?? '',
    amount: formatPaise(r.amount_paise),
    direction: r.direction,
    reason: r.reason,
    status: r.status,
    requestedBy: r.requested_by,
    requestedAt: r.requested_at,
    decidedBy: r.decided_by,
    decidedAt: r.decided_at,
  };
}
