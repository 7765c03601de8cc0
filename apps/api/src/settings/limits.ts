import { type BankFileSettings, type Limits, streams } from '@kamai/contracts';
import { type EventStore, settingsEvolver } from '@kamai/domain';
import { loadStream } from '../commands/handle.ts';

/**
 * The limits in force, read from the `settings` stream itself rather than the read model, so a limit
 * an admin lowered a moment ago on another process already applies.
 */
export async function loadLimits(store: EventStore): Promise<Limits> {
  return (await loadStream(store, streams.settings(), settingsEvolver)).state.limits;
}

/** The moment before which a payout still processing counts as late (the late-payout limit ago). */
export async function latePayoutCutoff(store: EventStore, now: Date): Promise<string> {
  return new Date(now.getTime() - (await loadLimits(store)).latePayoutDays * 86_400_000).toISOString();
}

/** The bank file's settings in force, from the `settings` stream like the limits. */
export async function loadBankFileSettings(store: EventStore): Promise<BankFileSettings> {
  return (await loadStream(store, streams.settings(), settingsEvolver)).state.bankFile;
}
