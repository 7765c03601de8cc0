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
