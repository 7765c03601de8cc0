import { parseRupees } from '@kamai/contracts';
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
 * A wire amount (decimal string such as "125.00", or a number) shown in rupees with Indian digit
 * grouping: "125000.5" -> "₹1,25,000.50". The string is read as whole paise first, so no float
 * arithmetic touches the amount; anything unreadable is shown as it came, after the rupee sign.
 */
export function formatRupees(amount: string | number): string {
  const paise = paiseOf(amount);
  if (paise === null) return `₹${amount}`;
  return numberFormat('rupees', { style: 'currency', currency: 'INR' }).format(paise / 100);
}

/** The same for lists and summaries: whole rupees without ".00" ("₹1,250"), paise only when not zero ("₹1,250.50"). */
export function formatRupeesShort(amount: string | number): string {
  const paise = paiseOf(amount);
  if (paise === null) return `₹${amount}`;
  if (paise % 100 !== 0) return formatRupees(amount);
  return numberFormat('whole', { style: 'currency', currency: 'INR', minimumFractionDigits: 0, maximumFractionDigits: 0 }).format(paise / 100);
}

/** A count with the reader's digit grouping: 100000 -> "1,00,000". */
export function formatNumber(value: number): string {
  return numberFormat('plain', {}).format(value);
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
const DATE = { day: 'numeric', month: 'short', year: 'numeric' } as const;

/** A wire timestamp as a calendar date: "2025-03-05T10:00:00Z" -> "5 Mar 2025". */
export function formatDate(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : dateFormat('date', DATE).format(time);
}

/** A wire timestamp with its time of day: "5 Mar 2025, 3:30 pm". */
export function formatDateTime(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : dateFormat('datetime', { ...DATE, hour: 'numeric', minute: '2-digit' }).format(time);
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
