import { parseRupees, rupeeText } from '@kamai/contracts';
import { i18n } from '../i18n/index.ts';

/**
 * The one place numbers and dates are made readable, in the reader's language: en-IN or hi-IN (both
 * group digits the Indian way, ₹1,00,000.00). Formatters are made per locale once and reused.
 */
export function locale(): 'en-IN' | 'hi-IN' {
  return i18n.language === 'hi' ? 'hi-IN' : 'en-IN';
}

const cache = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();
function numberFormat(key: string, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const id = `${locale()}|n|${key}`;
  let format = cache.get(id) as Intl.NumberFormat | undefined;
  if (!format) cache.set(id, (format = new Intl.NumberFormat(locale(), options)));
  return format;
}
function dateFormat(key: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const id = `${locale()}|d|${key}`;
  let format = cache.get(id) as Intl.DateTimeFormat | undefined;
  if (!format) cache.set(id, (format = new Intl.DateTimeFormat(locale(), options)));
  return format;
}

/** A wire amount (decimal string or number) as whole paise, or null when unreadable. */
function paiseOf(amount: string | number): number | null {
  const negative = typeof amount === 'string' ? amount.trim().startsWith('-') : amount < 0;
  const magnitude = typeof amount === 'string' ? amount.trim().replace(/^-/, '') : Math.abs(amount);
  const paise = parseRupees(magnitude);
  return paise === null ? null : negative ? -paise : paise;
}

/**
 * A wire amount (decimal string such as "125.00", or a number) shown in rupees by the one money
 * format of the app, the contracts' `rupeeText` (also the server's, in notifications): always with
 * paise and Indian digit grouping, "125000.5" -> "₹1,25,000.50", "1100" -> "₹1,100.00". The string is
 * read as whole paise first, so no float arithmetic touches the amount; anything unreadable is shown
 * as it came, after the rupee sign.
 */
export function formatRupees(amount: string | number): string {
  const paise = paiseOf(amount);
  if (paise === null) return `₹${amount}`;
  return rupeeText(paise, locale());
}

/** A count with the reader's digit grouping: 100000 -> "1,00,000". */
function formatNumber(value: number): string {
  return numberFormat('plain', {}).format(value);
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const IST_OFFSET_MS = 330 * 60 * 1000;
const DATE = { day: 'numeric', month: 'short', year: 'numeric' } as const;

/** A wire timestamp as a calendar date: "2025-03-05T10:00:00Z" -> "5 Mar 2025". */
export function formatDate(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : dateFormat('date', DATE).format(time);
}

/** A month `YYYY-MM` by name: "2026-10" -> "October 2026" (अक्तूबर 2026). */
export function formatMonth(month: string): string {
  const time = new Date(`${month}-15T00:00:00Z`);
  return Number.isNaN(time.getTime()) ? month : dateFormat('month', { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(time);
}

/**
 * A wire timestamp with its time of day: "5 Mar 2025, 3:30 pm". The browsers' Hindi leaves "am" and
 * "pm" in English, so the day period comes from the locale files.
 */
export function formatDateTime(iso: string, zone: 'device' | 'IST' = 'device'): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return iso;
  // Records staff compare (the audit list) read in India time whatever the device's zone.
  const ist = zone === 'IST';
  const hours = ist ? new Date(time.getTime() + IST_OFFSET_MS).getUTCHours() : time.getHours();
  return dateFormat(ist ? 'datetime-ist' : 'datetime', { ...DATE, hour: 'numeric', minute: '2-digit', hour12: true, ...(ist && { timeZone: 'Asia/Kolkata' }) })
    .formatToParts(time)
    .map((part) => (part.type === 'dayPeriod' ? i18n.t(hours < 12 ? 'common:time.am' : 'common:time.pm') : part.value))
    .join('');
}

/**
 * Wallet: under an hour 'Just now', under a day 'Nh ago', under a week 'Nd ago',
 * otherwise the date. A time slightly ahead of this device's clock also reads 'Just now'.
 */
export function formatRelativeTime(iso: string, now: Date = new Date()): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return iso;
  const elapsed = now.getTime() - time.getTime();
  if (elapsed < HOUR_MS) return i18n.t('common:time.justNow');
  if (elapsed < DAY_MS) return i18n.t('common:time.hoursAgo', { count: Math.floor(elapsed / HOUR_MS) });
  if (elapsed < 7 * DAY_MS) return i18n.t('common:time.daysAgo', { count: Math.floor(elapsed / DAY_MS) });
  return dateFormat('date', DATE).format(time);
}
