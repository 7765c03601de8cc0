/**
 * Money on the wire and on the way in. Inside the system money is an integer count of paise; on the
 * wire it is a decimal string with two places ("125.00"). Conversions go through strings, never
 * through floating-point arithmetic.
 */

/** An integer number of paise (1 rupee = 100 paise). */
export type Paise = number;

const DECIMAL = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

/**
 * Parses a rupee amount given as a decimal string or a JSON number ("125", "125.5", 125.75) into
 * paise. Returns null for anything else: negatives, more than two decimals, exponents, non-numbers.
 */
export function parseRupees(input: unknown): Paise | null {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return null;
    text = String(input);
  } else if (typeof input === 'string') {
    text = input.trim();
  } else {
    return null;
  }
  const match = DECIMAL.exec(text);
  if (!match) return null;
  const rupees = Number(match[1]);
  const fraction = (match[2] ?? '').padEnd(2, '0');
  return rupees * 100 + Number(fraction);
}

/** Paise as the wire's decimal string: 12550 -> "125.50", -500 -> "-5.00". */
export function formatPaise(paise: Paise): string {
  if (!Number.isSafeInteger(paise)) throw new RangeError(`not a whole number of paise: ${paise}`);
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  const rupees = Math.floor(abs / 100);
  const rest = String(abs % 100).padStart(2, '0');
  return `${sign}${rupees}.${rest}`;
}

/** Rupees as a whole number of paise: 100 -> 10000. For constants written in rupees. */
export const rupees = (whole: number): Paise => whole * 100;
