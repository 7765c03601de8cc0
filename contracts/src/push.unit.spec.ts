import { describe, expect, it } from 'vitest';
import { alertDueAt, isQuietHour } from './push.ts';

/** An instant given as India's wall-clock time (IST is UTC+05:30 all year). */
const ist = (wall: string) => new Date(`${wall}+05:30`);

describe('quiet hours: no alert but money from 22:00 to 08:00 IST', () => {
  it('knows the night by India\'s clock, not the server\'s', () => {
    expect(isQuietHour(ist('2026-03-10T21:59:59'))).toBe(false);
    expect(isQuietHour(ist('2026-03-10T22:00:00'))).toBe(true);
    expect(isQuietHour(ist('2026-03-11T07:59:59'))).toBe(true);
    expect(isQuietHour(ist('2026-03-11T08:00:00'))).toBe(false);
  });

  it('holds a task alert until 08:00 IST, the same morning or the next', () => {
    expect(alertDueAt('proof_approved', ist('2026-03-10T23:30:00'))).toEqual(ist('2026-03-11T08:00:00'));
    expect(alertDueAt('proof_rejected', ist('2026-03-11T02:15:00'))).toEqual(ist('2026-03-11T08:00:00'));
    // Across a month's end.
    expect(alertDueAt('proof_approved', ist('2026-03-31T22:00:00'))).toEqual(ist('2026-04-01T08:00:00'));
    const day = ist('2026-03-10T12:00:00');
    expect(alertDueAt('proof_approved', day)).toEqual(day);
  });

  it('sends money alerts at once, night or day', () => {
    const night = ist('2026-03-10T23:30:00');
    for (const kind of ['payout_paid', 'payout_failed', 'payout_returned'] as const) expect(alertDueAt(kind, night)).toEqual(night);
  });
});
