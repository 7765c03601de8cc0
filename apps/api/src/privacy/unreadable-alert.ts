/**
 * The alert for a sealed blob that does not open although its subject's key exists (sealing.ts):
 * counted in `kamai_sealed_unreadable_total` and logged, never with personal data. The process that
 * serves /metrics raises it; its threads hand such events to it (their own counters would never
 * be read), so the sealers of threads need neither the logger nor the metrics.
 */
import { logger } from '../observability/logger.ts';
import { sealedUnreadable } from '../observability/metrics.ts';
import type { UnreadableEvent } from './sealing.ts';

/** Events already reported by this process: a tampered event is read again by every fold and rebuild. */
const reported = new Set<string>();
const REPORTED_MAX = 10_000;

/** Counts and logs (once per event per process) a sealed blob that does not open: an alert, never personal data. */
export function alertUnreadable(event: UnreadableEvent): void {
  if (reported.has(event.id)) return;
  if (reported.size >= REPORTED_MAX) reported.clear();
  reported.add(event.id);
  sealedUnreadable.inc();
  logger.error(
    { alert: 'sealed_unreadable', streamId: event.streamId, position: event.position, revision: event.revision, eventId: event.id, type: event.type },
    "privacy: an event's sealed personal data does not open although its subject's key exists: the stored bytes were changed (run verify-ledger)",
  );
}
