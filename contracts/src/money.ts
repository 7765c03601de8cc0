import * as v from 'valibot';

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

/** Largest amount a money column (precision 10, scale 2) holds: 99,999,999.99 rupees. */
export const MAX_MONEY_PAISE: Paise = 9_999_999_999;

/**
 * A rupee amount in a request body: a JSON number or a decimal string with at most two places,
 * turned into paise through `parseRupees` (never float arithmetic), and at most MAX_MONEY_PAISE.
 * `format` is the message for anything else; `negative` for a negative amount, `empty` for a blank
 * or missing one (both default to `format`).
 */
export function RupeeAmount(messages: { format: string; negative?: string; empty?: string }) {
  const { format, negative = format, empty = format } = messages;
  return v.pipe(
    // A missing amount reads as '' so that it gets a message of ours, not valibot's "Invalid key".
    v.optional(v.union([v.number(), v.string()], format), ''),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const value = dataset.value;
      if (typeof value === 'string' && value.trim() === '') {
        addIssue({ message: empty });
        return NEVER;
      }
      const paise = parseRupees(value);
      if (paise !== null && paise <= MAX_MONEY_PAISE) return paise;
      const isNegative = typeof value === 'number' ? value < 0 : /^\s*-\s*\d/.test(value);
      addIssue({ message: isNegative ? negative : format });
      return NEVER;
    }),
  );
}
