import type { Projection } from '../projection.ts';

export const SETTINGS_ROW_ID = 'app';

/** app_settings: the one row of values an admin has set (the defaults apply to what is null). */
export const settingsProjection: Projection = {
  name: 'settings',
  version: 1,
  tables: {
    app_settings: {
      columns: 'id TEXT PRIMARY KEY, support_email TEXT, homepage_url TEXT, updated_by TEXT NOT NULL, updated_at TEXT NOT NULL',
    },
  },
  handles: ['SettingsUpdated'],
  async apply(db, event) {
    if (event.type !== 'SettingsUpdated') return;
    const d = event.data;
    const changed = {
      ...(d.supportEmail !== undefined && { support_email: d.supportEmail }),
      ...(d.homepageUrl !== undefined && { homepage_url: d.homepageUrl }),
      updated_by: d.updatedBy,
      updated_at: d.updatedAt,
    };
    await db
      .insertInto('app_settings')
      .values({ id: SETTINGS_ROW_ID, support_email: null, homepage_url: null, ...changed })
      .onConflict((oc) => oc.column('id').doUpdateSet(changed))
      .execute();
  },
};
