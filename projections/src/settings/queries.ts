import { DEFAULT_LIMITS, DEFAULT_SETTINGS, type Limits, type SettingsBody, limitsBody } from '@kamai/contracts';
import type { ReadDbHandle } from '../db.ts';
import { SETTINGS_ROW_ID } from './projection.ts';

/** GET /api/settings: what an admin set, the defaults for the rest. */
export async function getSettings(db: ReadDbHandle): Promise<SettingsBody> {
  const row = await db.selectFrom('app_settings').selectAll().where('id', '=', SETTINGS_ROW_ID).executeTakeFirst();
  return {
    supportEmail: row?.support_email ?? DEFAULT_SETTINGS.supportEmail,
    homepageUrl: row?.homepage_url ?? DEFAULT_SETTINGS.homepageUrl,
    updatedAt: row?.updated_at ?? null,
    ...limitsBody(await getLimits(db)),
  };
}

/** The limits in force as the read model has them (the event store is the authority for decisions). */
export async function getLimits(db: ReadDbHandle): Promise<Limits> {
  const row = await db.selectFrom('app_settings').select('limits').where('id', '=', SETTINGS_ROW_ID).executeTakeFirst();
  return { ...DEFAULT_LIMITS, ...(row?.limits ? (JSON.parse(row.limits) as Partial<Limits>) : {}) };
}
