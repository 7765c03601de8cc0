import * as v from 'valibot';
import { refusal } from './refusal.ts';

/**
 * Dates a person types are whole days in India time (UTC+05:30, no daylight saving). A day
 * "2026-12-31" runs from 2026-12-30T18:30Z up to, not including, 2026-12-31T18:30Z; a range's end
 * day is included, so its end is the start of the next day.
 */
const IST_OFFSET_MS = (5 * 60 + 30) * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

export const DAY_MESSAGE = 'Enter a date as YYYY-MM-DD';

/** A calendar day "YYYY-MM-DD" that exists (no 31 February). */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The first instant of an IST day, as an ISO timestamp. */
export function istDayStart(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) - IST_OFFSET_MS).toISOString();
}

/** The first instant after an IST day (the exclusive end of an inclusive range ending that day). */
export function istDayEnd(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00.000Z`) - IST_OFFSET_MS + DAY_MS).toISOString();
}

/**
 * An IST day as the UTC instants of its first and its last millisecond, for a period given as days
 * whose `to` day is included whole.
 */
export function istDay(day: string): { start: string; end: string } {
  return { start: istDayStart(day), end: new Date(Date.parse(istDayEnd(day)) - 1).toISOString() };
}

/** The IST day an instant falls on. */
export function istDayOf(instant: string | Date): string {
  const ms = typeof instant === 'string' ? Date.parse(instant) : instant.getTime();
  return new Date(ms + IST_OFFSET_MS).toISOString().slice(0, 10);
}

/** The last IST day before an exclusive end instant (what a form shows for an inclusive end). */
export function istLastDayBefore(end: string): string {
  return istDayOf(new Date(Date.parse(end) - 1));
}

/** A day field as a form or query sends it. */
export const Day = (message = refusal('task.expiresOn')) => v.pipe(v.string(message), v.trim(), v.check(isDay, message));
