import {
  type BankFileSettings,
  type CannedReason,
  DEFAULT_BANK_FILE_SETTINGS,
  type ControlLimitValues,
  DEFAULT_CANNED_REASONS,
  DEFAULT_LIMITS,
  DEFAULT_SETTINGS,
  DEFAULT_TAX_RULES,
  type Limits,
  type SettingsBody,
  type SettingsChangeRequestBody,
  type SettingsRequestStatus,
  type TaxRule,
  controlValuesBody,
  limitsBody,
  taxRuleBody,
} from '@kamai/contracts';
import type { ReadDbHandle } from '../db.ts';
import { SETTINGS_ROW_ID } from './projection.ts';

/** GET /api/settings: what an admin set, the defaults for the rest. */
export async function getSettings(db: ReadDbHandle): Promise<SettingsBody> {
  const row = await db.selectFrom('app_settings').selectAll().where('id', '=', SETTINGS_ROW_ID).executeTakeFirst();
  const cannedReasons = row?.canned_reasons ? (JSON.parse(row.canned_reasons) as CannedReason[]) : DEFAULT_CANNED_REASONS;
  return {
    supportEmail: row?.support_email ?? DEFAULT_SETTINGS.supportEmail,
    homepageUrl: row?.homepage_url ?? DEFAULT_SETTINGS.homepageUrl,
    updatedAt: row?.updated_at ?? null,
    ...limitsBody(await getLimits(db)),
    cannedReasons: cannedReasons.map(({ en, hi }) => ({ en, hi })),
    taxRules: (row?.tax_rules ? (JSON.parse(row.tax_rules) as TaxRule[]) : DEFAULT_TAX_RULES).map(taxRuleBody),
    taxDeductorTan: row?.tax_deductor_tan ?? null,
    taxDeductorName: row?.tax_deductor_name ?? null,
    taxDeductorAddress: row?.tax_deductor_address ?? null,
    ...DEFAULT_BANK_FILE_SETTINGS,
    ...(row?.bank_file ? (JSON.parse(row.bank_file) as Partial<BankFileSettings>) : {}),
  };
}

/** The limits in force as the read model has them (the event store is the authority for decisions). */
export async function getLimits(db: ReadDbHandle): Promise<Limits> {
  const row = await db.selectFrom('app_settings').select('limits').where('id', '=', SETTINGS_ROW_ID).executeTakeFirst();
  return { ...DEFAULT_LIMITS, ...(row?.limits ? (JSON.parse(row.limits) as Partial<Limits>) : {}) };
}

const nameOf = (first: string | null | undefined, last: string | null | undefined) => [first, last].filter(Boolean).join(' ') || null;

/** GET /api/admin/settings/requests: control settings changes, oldest first (pending ones by default). */
export async function listSettingsRequests(
  db: ReadDbHandle,
  options: { status?: SettingsRequestStatus; id?: string } = {},
): Promise<SettingsChangeRequestBody[]> {
  let query = db
    .selectFrom('settings_requests as r')
    .leftJoin('users as asker', 'asker.id', 'r.requested_by')
    .leftJoin('users as decider', 'decider.id', 'r.decided_by')
    .select([
      'r.id',
      'r.changes',
      'r.basis',
      'r.status',
      'r.requested_by',
      'r.requested_at',
      'r.decided_by',
      'r.decided_at',
      'asker.first_name as asker_first',
      'asker.last_name as asker_last',
      'decider.first_name as decider_first',
      'decider.last_name as decider_last',
    ])
    .orderBy('r.position', 'asc');
  if (options.status) query = query.where('r.status', '=', options.status);
  if (options.id) query = query.where('r.id', '=', options.id);
  const rows = await query.execute();
  return rows.map((r) => ({
    id: r.id,
    status: r.status,
    changes: controlValuesBody(JSON.parse(r.changes) as ControlLimitValues),
    current: controlValuesBody(JSON.parse(r.basis) as ControlLimitValues),
    requestedBy: { id: r.requested_by, name: nameOf(r.asker_first, r.asker_last) },
    requestedAt: r.requested_at,
    decidedBy: r.decided_by ? { id: r.decided_by, name: nameOf(r.decider_first, r.decider_last) } : null,
    decidedAt: r.decided_at,
  }));
}
