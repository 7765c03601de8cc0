import {
  BANK_FILE_SETTING_KEYS,
  type BankFileSettings,
  CONTROL_LIMIT_KEYS,
  DEFAULT_BANK_FILE_SETTINGS,
  type CannedReason,
  type ControlLimitValues,
  DEFAULT_CANNED_REASONS,
  DEFAULT_LIMITS,
  DEFAULT_SETTINGS,
  DEFAULT_TAX_RULES,
  LIMIT_KEYS,
  type Limits,
  type SettingsEvent,
  type TaxRule,
  isControlLimitKey,
  msg,
  sameTaxRules,
} from '@kamai/contracts';
import type { Decider, Evolver } from './decider.ts';
import { DomainError, assertNever } from './errors.ts';

/** A request to change control settings, as the stream knows it. */
export interface SettingsChangeRequest {
  changes: ControlLimitValues;
  basis: ControlLimitValues;
  requestedBy: string;
  status: 'pending' | 'approved' | 'rejected';
}

/**
 * The `settings` stream: the support e-mail and homepage (null until an admin sets one), the limits
 * in force (the defaults until an admin changes one), the canned rejection reasons, and the requests
 * to change control settings that wait for a second admin.
 */
export interface SettingsState {
  supportEmail: string | null;
  homepageUrl: string | null;
  limits: Limits;
  cannedReasons: readonly CannedReason[];
  /** Tax withheld at payout (docs/tax.md): DEFAULT_TAX_RULES until finance sets them. */
  taxRules: readonly TaxRule[];
  /** Who deducts the tax (certificates, the return's header): null until set. */
  taxDeductor: Record<TaxDeductorKey, string | null>;
  /** The payout bank file's layout and payer: plain settings. */
  bankFile: BankFileSettings;
  requests: Readonly<Record<string, SettingsChangeRequest>>;
}

/** The deductor's details: plain settings, each changed on its own. */
export const TAX_DEDUCTOR_KEYS = ['taxDeductorTan', 'taxDeductorName', 'taxDeductorAddress'] as const;
export type TaxDeductorKey = (typeof TAX_DEDUCTOR_KEYS)[number];
const NO_DEDUCTOR: Record<TaxDeductorKey, string | null> = { taxDeductorTan: null, taxDeductorName: null, taxDeductorAddress: null };

const withRequest = (state: SettingsState, id: string, change: Partial<SettingsChangeRequest>): SettingsState => {
  const request = state.requests[id];
  return request ? { ...state, requests: { ...state.requests, [id]: { ...request, ...change } } } : state;
};

export const settingsEvolver: Evolver<SettingsState, SettingsEvent> = {
  initialState: () => ({
    supportEmail: null,
    homepageUrl: null,
    limits: { ...DEFAULT_LIMITS },
    cannedReasons: DEFAULT_CANNED_REASONS,
    taxRules: DEFAULT_TAX_RULES,
    taxDeductor: NO_DEDUCTOR,
    bankFile: DEFAULT_BANK_FILE_SETTINGS,
    requests: {},
  }),
  evolve: (state, event) => {
    switch (event.type) {
      case 'SettingsUpdated': {
        const limits = { ...state.limits };
        for (const key of LIMIT_KEYS) {
          const value = event.data[key];
          if (value !== undefined) limits[key] = value;
        }
        return {
          ...state,
          supportEmail: event.data.supportEmail ?? state.supportEmail,
          homepageUrl: event.data.homepageUrl ?? state.homepageUrl,
          limits,
          cannedReasons: event.data.cannedReasons ?? state.cannedReasons,
          taxRules: event.data.taxRules ?? state.taxRules,
          taxDeductor: {
            taxDeductorTan: event.data.taxDeductorTan ?? state.taxDeductor.taxDeductorTan,
            taxDeductorName: event.data.taxDeductorName ?? state.taxDeductor.taxDeductorName,
            taxDeductorAddress: event.data.taxDeductorAddress ?? state.taxDeductor.taxDeductorAddress,
          },
          bankFile: {
            bankFileTemplate: event.data.bankFileTemplate ?? state.bankFile.bankFileTemplate,
            bankDebitAccount: event.data.bankDebitAccount ?? state.bankFile.bankDebitAccount,
            bankPayerName: event.data.bankPayerName ?? state.bankFile.bankPayerName,
            bankPayerIfsc: event.data.bankPayerIfsc ?? state.bankFile.bankPayerIfsc,
          },
        };
      }
      case 'SettingsChangeRequested': {
        const { requestId, changes, basis, requestedBy } = event.data;
        return { ...state, requests: { ...state.requests, [requestId]: { changes, basis, requestedBy, status: 'pending' } } };
      }
      case 'SettingsChangeApproved':
        return withRequest(state, event.data.requestId, { status: 'approved' });
      case 'SettingsChangeRejected':
        return withRequest(state, event.data.requestId, { status: 'rejected' });
      default:
        return assertNever(event);
    }
  },
};

export interface UpdateSettings {
  type: 'UpdateSettings';
  /**
   * `requestId` names the request a change to a control setting becomes; the other values change
   * at once.
   */
  data: {
    supportEmail?: string;
    homepageUrl?: string;
    cannedReasons?: readonly CannedReason[];
    /** A control setting: the whole list. */
    taxRules?: readonly TaxRule[];
    by: string;
    taxDeductorTan?: string;
    taxDeductorName?: string;
    taxDeductorAddress?: string;
    requestId: string;
  } & Partial<Limits> & Partial<BankFileSettings>;
  now: string;
}

const sameReasons = (a: readonly CannedReason[], b: readonly CannedReason[]) =>
  a.length === b.length && a.every((reason, i) => reason.en === b[i]?.en && reason.hi === b[i]?.hi);

/**
 * Records only what differs from the values in force (the defaults until set): plain settings in
 * a SettingsUpdated, control settings in a SettingsChangeRequested that a second admin approves.
 */
export function decideUpdateSettings(command: UpdateSettings, state: SettingsState): SettingsEvent[] {
  const { supportEmail, homepageUrl, cannedReasons, taxRules, by, requestId } = command.data;
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
  if (cannedReasons !== undefined && !sameReasons(cannedReasons, state.cannedReasons)) {
    changes.cannedReasons = cannedReasons.map(({ en, hi }) => ({ en, hi }));
    changed = true;
  }
  for (const key of TAX_DEDUCTOR_KEYS) {
    const value = command.data[key];
    if (value === undefined || value === state.taxDeductor[key]) continue;
    changes[key] = value;
    changed = true;
  }
  for (const key of BANK_FILE_SETTING_KEYS) {
    const value = command.data[key];
    if (value === undefined || value === state.bankFile[key]) continue;
    Object.assign(changes, { [key]: value });
    changed = true;
  }
  const controlChanges: ControlLimitValues = {};
  const basis: ControlLimitValues = {};
  for (const key of LIMIT_KEYS) {
    const value = command.data[key];
    if (value === undefined || value === state.limits[key]) continue;
    if (isControlLimitKey(key)) {
      controlChanges[key] = value;
      basis[key] = state.limits[key];
    } else {
      changes[key] = value;
      changed = true;
    }
  }
  if (taxRules !== undefined && !sameTaxRules(taxRules, state.taxRules)) {
    controlChanges.taxRules = taxRules.map((rule) => ({ ...rule, appliesTo: [...rule.appliesTo] }));
    basis.taxRules = state.taxRules.map((rule) => ({ ...rule, appliesTo: [...rule.appliesTo] }));
  }
  const events: SettingsEvent[] = changed ? [{ type: 'SettingsUpdated', data: changes }] : [];
  if (Object.keys(controlChanges).length > 0) {
    events.push({ type: 'SettingsChangeRequested', data: { requestId, changes: controlChanges, basis, requestedBy: by, requestedAt: command.now } });
  }
  return events;
}

export interface DecideSettingsChange {
  type: 'ApproveSettingsChange' | 'RejectSettingsChange';
  data: { requestId: string; by: string };
  now: string;
}

function pendingRequest(state: SettingsState, requestId: string): SettingsChangeRequest {
  const request = state.requests[requestId];
  if (!request) throw new DomainError('not_found', msg('controls.settingsRequestNotFound'));
  if (request.status !== 'pending') throw new DomainError('conflict', msg('controls.settingsRequestDecided'));
  return request;
}

/**
 * A different admin puts the asked values in force, as long as the values in force are still those
 * the request was made against; the requester may not approve his own.
 */
export function decideApproveSettingsChange(command: DecideSettingsChange, state: SettingsState): SettingsEvent[] {
  const { requestId, by } = command.data;
  const request = pendingRequest(state, requestId);
  if (request.requestedBy === by) throw new DomainError('forbidden', msg('controls.ownSettingsRequest'));
  for (const key of CONTROL_LIMIT_KEYS) {
    const basis = request.basis[key];
    if (basis !== undefined && basis !== state.limits[key]) throw new DomainError('conflict', msg('controls.settingsRequestStale'));
  }
  if (request.basis.taxRules !== undefined && !sameTaxRules(request.basis.taxRules, state.taxRules)) {
    throw new DomainError('conflict', msg('controls.settingsRequestStale'));
  }
  return [
    { type: 'SettingsChangeApproved', data: { requestId, approvedBy: by, approvedAt: command.now } },
    { type: 'SettingsUpdated', data: { ...request.changes, updatedBy: by, updatedAt: command.now } },
  ];
}

/** Another admin rejects a pending request, or its requester cancels it; nothing changes. */
export function decideRejectSettingsChange(command: DecideSettingsChange, state: SettingsState): SettingsEvent[] {
  const { requestId, by } = command.data;
  pendingRequest(state, requestId);
  return [{ type: 'SettingsChangeRejected', data: { requestId, rejectedBy: by, rejectedAt: command.now } }];
}

/** The stream's commands. */
export type SettingsCommand = UpdateSettings | DecideSettingsChange;

/** The decider of `settings`. */
export const settingsDecider: Decider<SettingsState, SettingsCommand, SettingsEvent> = {
  ...settingsEvolver,
  decide: (command, state) => {
    switch (command.type) {
      case 'UpdateSettings':
        return decideUpdateSettings(command, state);
      case 'ApproveSettingsChange':
        return decideApproveSettingsChange(command, state);
      case 'RejectSettingsChange':
        return decideRejectSettingsChange(command, state);
      default:
        return assertNever(command);
    }
  },
};
