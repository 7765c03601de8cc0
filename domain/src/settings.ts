import { DEFAULT_SETTINGS, type SettingsEvent } from '@kamai/contracts';
import type { Decider, Evolver } from './decider.ts';
import { assertNever } from './errors.ts';

/** The `settings` stream: the support e-mail and homepage; null until an admin sets one. */
export interface SettingsState {
  supportEmail: string | null;
  homepageUrl: string | null;
}

export const settingsEvolver: Evolver<SettingsState, SettingsEvent> = {
  initialState: () => ({ supportEmail: null, homepageUrl: null }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'SettingsUpdated':
        return {
          supportEmail: event.data.supportEmail ?? state.supportEmail,
          homepageUrl: event.data.homepageUrl ?? state.homepageUrl,
        };
      default:
        return assertNever(event.type);
    }
  },
};

export interface UpdateSettings {
  type: 'UpdateSettings';
  data: { supportEmail?: string; homepageUrl?: string; by: string };
  now: string;
}

/** Records only what differs from the values in force (the defaults until set); nothing else. */
export function decideUpdateSettings(command: UpdateSettings, state: SettingsState): SettingsEvent[] {
  const { supportEmail, homepageUrl, by } = command.data;
  const changes: Extract<SettingsEvent, { type: 'SettingsUpdated' }>['data'] = { updatedBy: by, updatedAt: command.now };
  if (supportEmail !== undefined && supportEmail !== (state.supportEmail ?? DEFAULT_SETTINGS.supportEmail)) {
    changes.supportEmail = supportEmail;
  }
  if (homepageUrl !== undefined && homepageUrl !== (state.homepageUrl ?? DEFAULT_SETTINGS.homepageUrl)) {
    changes.homepageUrl = homepageUrl;
  }
  if (changes.supportEmail === undefined && changes.homepageUrl === undefined) return [];
  return [{ type: 'SettingsUpdated', data: changes }];
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
