import { DEFAULT_LIMITS, DEFAULT_SETTINGS, LIMIT_KEYS, type Limits, type SettingsEvent } from '@kamai/contracts';
import type { Decider, Evolver } from './decider.ts';
import { assertNever } from './errors.ts';

/**
 * The `settings` stream: the support e-mail and homepage (null until an admin sets one) and the
 * limits in force (the defaults until an admin changes one).
 */
export interface SettingsState {
  supportEmail: string | null;
  homepageUrl: string | null;
  limits: Limits;
}

export const settingsEvolver: Evolver<SettingsState, SettingsEvent> = {
  initialState: () => ({ supportEmail: null, homepageUrl: null, limits: { ...DEFAULT_LIMITS } }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'SettingsUpdated': {
        const limits = { ...state.limits };
        for (const key of LIMIT_KEYS) {
          const value = event.data[key];
          if (value !== undefined) limits[key] = value;
        }
        return {
          supportEmail: event.data.supportEmail ?? state.supportEmail,
          homepageUrl: event.data.homepageUrl ?? state.homepageUrl,
          limits,
        };
      }
      default:
        return assertNever(event.type);
    }
  },
};

export interface UpdateSettings {
  type: 'UpdateSettings';
  data: { supportEmail?: string; homepageUrl?: string; by: string } & Partial<Limits>;
  now: string;
}

/** Records only what differs from the values in force (the defaults until set); nothing else. */
export function decideUpdateSettings(command: UpdateSettings, state: SettingsState): SettingsEvent[] {
  const { supportEmail, homepageUrl, by } = command.data;
  const changes: Extract<SettingsEvent, { type: 'SettingsUpdated' }>['data'] = { updatedBy: by, updatedAt: command.now };
  let changed = false;
  if (supportEmail !== undefined && supportEmail !== (state.supportEmail ?? DEFAULT_SETTINGS.supportEmail)) {
    changes.supportEmail = supportEmail;
    changed = true;
  }
  if (homepageUrl !== undefined && homepageUrl !== (state.homepageUrl ?? DEFAULT_SETTINGS.homepageUrl)) {
    changes.homepageUrl = homepageUrl;
    changed = true;
  }
  for (const key of LIMIT_KEYS) {
    const value = command.data[key];
    if (value !== undefined && value !== state.limits[key]) {
      changes[key] = value;
      changed = true;
    }
  }
  return changed ? [{ type: 'SettingsUpdated', data: changes }] : [];
}

/** The stream's commands; one today, a union as settings grow. */
export type SettingsCommand = UpdateSettings;

/** The decider of `settings`. */
export const settingsDecider: Decider<SettingsState, SettingsCommand, SettingsEvent> = {
  ...settingsEvolver,
  decide: (command, state) => {
    switch (command.type) {
      case 'UpdateSettings':
        return decideUpdateSettings(command, state);
      default:
        return assertNever(command.type);
    }
  },
};
