import { parseRupees } from '@kamai/contracts';

const rupeeFormat = new Intl.NumberFormat('en-IN', { style: 'currency', currency: 'INR' });

/**
 * A wire amount (decimal string such as "125.00", or a number) shown in rupees with Indian digit
 * grouping: "125000.5" -> "₹1,25,000.50". The string is read as whole paise first, so no float
 * arithmetic touches the amount; anything unreadable is shown as it came, after the rupee sign.
 */
export function formatRupees(amount: string | number): string {
  const negative = typeof amount === 'string' ? amount.trim().startsWith('-') : amount < 0;
  const magnitude = typeof amount === 'string' ? amount.trim().replace(/^-/, '') : Math.abs(amount);
  const paise = parseRupees(magnitude);
  if (paise === null) return `₹${amount}`;
  return rupeeFormat.format((negative ? -paise : paise) / 100);
}

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

const dateFormat = new Intl.DateTimeFormat('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });
const dateTimeFormat = new Intl.DateTimeFormat('en-IN', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});

/** A wire timestamp as a calendar date: "2025-03-05T10:00:00Z" -> "5 Mar 2025". */
export function formatDate(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : dateFormat.format(time);
}

/** A wire timestamp with its time of day: "5 Mar 2025, 3:30 pm". */
export function formatDateTime(iso: string): string {
  const time = new Date(iso);
  return Number.isNaN(time.getTime()) ? iso : dateTimeFormat.format(time);
}

/**
 * Spec section 2 (Wallet): under an hour 'Just now', under a day 'Nh ago', under a week 'Nd ago',
 * otherwise the date. A time slightly ahead of this device's clock also reads 'Just now'.
 */
export function formatRelativeTime(iso: string, now: Date = new Date()): string {
  const time = new Date(iso);
  if (Number.isNaN(time.getTime())) return iso;
  const elapsed = now.getTime() - time.getTime();
  if (elapsed < HOUR_MS) return 'Just now';
  if (elapsed < DAY_MS) return `${Math.floor(elapsed / HOUR_MS)}h ago`;
  if (elapsed < 7 * DAY_MS) return `${Math.floor(elapsed / DAY_MS)}d ago`;
  return dateFormat.format(time);
}
