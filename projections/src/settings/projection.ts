import { LIMIT_KEYS, type Limits } from '@kamai/contracts';
import type { Projection } from '../projection.ts';
import { columnsOf } from '../rows.ts';

export const SETTINGS_ROW_ID = 'app';

/** app_settings: the one row of values an admin has set (the defaults apply to what is null). */
export const settingsProjection: Projection = {
  name: 'settings',
  // 2: the limits an admin changed (JSON), the defaults apply to the rest.
  version: 2,
  tables: {
    app_settings: {
      columns: 'id TEXT PRIMARY KEY, support_email TEXT, homepage_url TEXT, limits TEXT, updated_by TEXT NOT NULL, updated_at TEXT NOT NULL',
    },
  },
  handles: ['SettingsUpdated'],
  apply(rows, event) {
    if (event.type !== 'SettingsUpdated') return;
    const d = event.data;
    const changedLimits: Partial<Limits> = {};
    for (const key of LIMIT_KEYS) if (d[key] !== undefined) changedLimits[key] = d[key];
    let limits: string | undefined;
    if (Object.keys(changedLimits).length > 0) {
      const row = rows.get('app_settings', { id: SETTINGS_ROW_ID }, ['limits']);
      const before = row?.limits ? (JSON.parse(row.limits) as Partial<Limits>) : {};
      limits = JSON.stringify({ ...before, ...changedLimits });
    }
    const changed = {
      ...(d.supportEmail !== undefined && { support_email: d.supportEmail }),
      ...(d.homepageUrl !== undefined && { homepage_url: d.homepageUrl }),
      ...(limits !== undefined && { limits }),
      updated_by: d.updatedBy,
      updated_at: d.updatedAt,
    };
    rows.upsert(
      'app_settings',
      { id: SETTINGS_ROW_ID, support_email: null, homepage_url: null, limits: null, ...changed },
      { conflict: ['id'], set: columnsOf(changed) },
    );
  },
};
