import * as v from 'valibot';
import type { Paise } from './money.ts';

/**
 * Texts the server records for a person to read (notification titles and messages, ledger
 * descriptions) are stored in events as a key and its parameters, the facts, never as a sentence:
 * the reader's language is chosen when the text is shown. Their English texts, by key, are in
 * recorded-texts.ts; this module fills in parameters (the web's first screen needs only this part).
 *
 * A parameter whose name ends in `Paise` is money and is shown as rupees (`₹1,250.00`).
 */
export const MessageParams = v.record(v.string(), v.union([v.string(), v.number()]));
export type MessageParams = v.InferOutput<typeof MessageParams>;

/** Paise as the rupees a person reads: 125000 -> "₹1,250.00" (Indian digit grouping). */
/** One formatter per locale: building an Intl.NumberFormat costs more than a command's decision. */
const wholeRupees = new Map<string, Intl.NumberFormat>();

export function rupeeText(paise: Paise, locale = 'en-IN'): string {
  const sign = paise < 0 ? '-' : '';
  const abs = Math.abs(paise);
  let format = wholeRupees.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale);
    wholeRupees.set(locale, format);
  }
  const whole = format.format(Math.floor(abs / 100));
  return `${sign}₹${whole}.${String(abs % 100).padStart(2, '0')}`;
}

/** Fills `{name}` placeholders with the parameters; money parameters (`…Paise`) become rupees. */
export function renderText(template: string, params: MessageParams = {}, locale = 'en-IN'): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => {
    if (!Object.hasOwn(params, name)) return whole;
    const value = params[name];
    return name.endsWith('Paise') && typeof value === 'number' ? rupeeText(value, locale) : String(value);
  });
}
