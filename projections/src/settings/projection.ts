import { BANK_FILE_SETTING_KEYS, type BankFileSettings, LIMIT_KEYS, type Limits, type SettingsEvent } from '@kamai/contracts';
import type { Projection } from '../projection.ts';
import { type Rows, columnsOf } from '../rows.ts';

export const SETTINGS_ROW_ID = 'app';

/**
 * app_settings: the one row of values an admin has set (the defaults apply to what is null);
 * settings_requests: control settings changes and what became of them.
 */
export const settingsProjection: Projection = {
  name: 'settings',
  // 2: the limits an admin changed (JSON), the defaults apply to the rest. 3: canned reasons, requests. 4: tax rules.
  // 5: the tax deductor's TAN, name and address. 6: the bank file's settings (JSON, like the limits).
  version: 6,
  tables: {
    app_settings: {
      columns:
        'id TEXT PRIMARY KEY, support_email TEXT, homepage_url TEXT, limits TEXT, canned_reasons TEXT, tax_rules TEXT, tax_deductor_tan TEXT, tax_deductor_name TEXT, tax_deductor_address TEXT, bank_file TEXT, updated_by TEXT NOT NULL, updated_at TEXT NOT NULL',
    },
    settings_requests: {
      columns: `id TEXT PRIMARY KEY, changes TEXT NOT NULL, basis TEXT NOT NULL, status TEXT NOT NULL, requested_by TEXT NOT NULL,
        requested_at TEXT NOT NULL, decided_by TEXT, decided_at TEXT, position INTEGER NOT NULL`,
      indexes: { status: 'status, position' },
    },
  },
  handles: ['SettingsUpdated', 'SettingsChangeRequested', 'SettingsChangeApproved', 'SettingsChangeRejected'],
  apply(rows, event) {
    switch (event.type) {
      case 'SettingsUpdated':
        return applyUpdate(rows, event.data);
      case 'SettingsChangeRequested': {
        const d = event.data;
        rows.upsert(
          'settings_requests',
          {
            id: d.requestId,
            changes: JSON.stringify(d.changes),
            basis: JSON.stringify(d.basis),
            status: 'pending',
            requested_by: d.requestedBy,
            requested_at: d.requestedAt,
            decided_by: null,
            decided_at: null,
            position: event.position,
          },
          { conflict: ['id'] },
        );
        return;
      }
      case 'SettingsChangeApproved':
        rows.update('settings_requests', { id: event.data.requestId }, { set: { status: 'approved', decided_by: event.data.approvedBy, decided_at: event.data.approvedAt } });
        return;
      case 'SettingsChangeRejected': {
        const found = rows.get('settings_requests', { id: event.data.requestId }, ['requested_by']);
        const status = found?.requested_by === event.data.rejectedBy ? 'cancelled' : 'rejected';
        rows.update('settings_requests', { id: event.data.requestId }, { set: { status, decided_by: event.data.rejectedBy, decided_at: event.data.rejectedAt } });
        return;
      }
      default:
        return;
    }
  },
};

function applyUpdate(rows: Rows, d: Extract<SettingsEvent, { type: 'SettingsUpdated' }>['data']): void {
  const changedLimits: Partial<Limits> = {};
  for (const key of LIMIT_KEYS) if (d[key] !== undefined) changedLimits[key] = d[key];
  let limits: string | undefined;
  if (Object.keys(changedLimits).length > 0) {
    const row = rows.get('app_settings', { id: SETTINGS_ROW_ID }, ['limits']);
    const before = row?.limits ? (JSON.parse(row.limits) as Partial<Limits>) : {};
    limits = JSON.stringify({ ...before, ...changedLimits });
  }
  const changedBank: Partial<BankFileSettings> = {};
  for (const key of BANK_FILE_SETTING_KEYS) if (d[key] !== undefined) Object.assign(changedBank, { [key]: d[key] });
  let bankFile: string | undefined;
  if (Object.keys(changedBank).length > 0) {
    const row = rows.get('app_settings', { id: SETTINGS_ROW_ID }, ['bank_file']);
    bankFile = JSON.stringify({ ...(row?.bank_file ? (JSON.parse(row.bank_file) as Partial<BankFileSettings>) : {}), ...changedBank });
  }
  const changed = {
    ...(d.supportEmail !== undefined && { support_email: d.supportEmail }),
    ...(d.homepageUrl !== undefined && { homepage_url: d.homepageUrl }),
    ...(limits !== undefined && { limits }),
    ...(d.cannedReasons !== undefined && { canned_reasons: JSON.stringify(d.cannedReasons) }),
    ...(d.taxRules !== undefined && { tax_rules: JSON.stringify(d.taxRules) }),
    ...(d.taxDeductorTan !== undefined && { tax_deductor_tan: d.taxDeductorTan }),
    ...(d.taxDeductorName !== undefined && { tax_deductor_name: d.taxDeductorName }),
    ...(d.taxDeductorAddress !== undefined && { tax_deductor_address: d.taxDeductorAddress }),
    ...(bankFile !== undefined && { bank_file: bankFile }),
    updated_by: d.updatedBy,
    updated_at: d.updatedAt,
  };
  rows.upsert(
    'app_settings',
    { id: SETTINGS_ROW_ID, support_email: null, homepage_url: null, limits: null, canned_reasons: null, tax_rules: null, tax_deductor_tan: null, tax_deductor_name: null, tax_deductor_address: null, bank_file: null, ...changed },
    { conflict: ['id'], set: columnsOf(changed) },
  );
}
