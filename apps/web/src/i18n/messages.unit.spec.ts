import {
  ADJUSTMENT_REASONS,
  FIELD_NAMES,
  LEDGER_TEXTS,
  NOTIFICATION_TEXTS,
  LoginRequest,
  SERVER_MESSAGES,
  type ServerMessageKey,
  TaskInput,
  serverText,
} from '@kamai/contracts';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES, i18n, initialized } from './index.ts';
import { loadServerTexts } from './serverTexts.ts';
import { destinationInLanguage, ledgerInLanguage, notificationInLanguage, refusalInLanguage, serverMessage } from './messages.ts';

// The app fetches texts per language as needed (the server's texts when first needed, as the app
// does); these checks read both languages' files.
beforeAll(async () => {
  await initialized;
  await loadServerTexts();
  await i18n.loadLanguages([...LANGUAGES]);
});
afterAll(() => i18n.changeLanguage('en'));

describe('every message the server can send, by its key, in both languages', () => {
  const keys = Object.keys(SERVER_MESSAGES) as ServerMessageKey[];
  /** A sample value for each parameter of a template. */
  const sample = (key: ServerMessageKey) =>
    Object.fromEntries([...SERVER_MESSAGES[key].matchAll(/\{(\w+)\}/g)].map((m, i) => [m[1]!, `P${i}`]));

  it('has the English text of every key exactly as the catalogue in contracts has it', () => {
    const en = i18n.getResourceBundle('en', 'messages') as { server: Record<string, Record<string, string>> };
    for (const key of keys) {
      const [group, name] = key.split('.') as [string, string];
      expect(en.server[group]?.[name], key).toBe(SERVER_MESSAGES[key]);
    }
  });

  it('shows each in Hindi with its parameters, by the key and parameters the server sends', async () => {
    await i18n.changeLanguage('hi');
    const untranslated = keys.filter((key) => {
      const params = sample(key);
      const hindi = serverMessage({ key, params }, serverText({ key, params }));
      return hindi === serverText({ key, params }) || Object.values(params).some((value) => !hindi.includes(value));
    });
    expect(untranslated).toEqual([]);
    await i18n.changeLanguage('en');
    expect(keys.filter((key) => serverMessage({ key, params: sample(key) }, '') !== serverText({ key, params: sample(key) }))).toEqual([]);
  });
});

describe('a form’s validation messages, by key from the schema to the screen', () => {
  it('shows a schema’s refusal in the reader’s language, parameters filled in, without looking up any English', async () => {
    const mobile = v.safeParse(LoginRequest, { mobile: '12', password: 'secret1' }).issues?.[0]?.message ?? '';
    const title = v.safeParse(TaskInput, { ...{ title: 'x'.repeat(121), description: 'd', reward: '5' } }).issues?.find((i) => v.getDotPath(i) === 'title')?.message ?? '';
    await i18n.changeLanguage('hi');
    expect(refusalInLanguage(mobile)).toBe(i18n.t('server.auth.mobile', { ns: 'messages' }));
    expect(refusalInLanguage(title)).toMatch(/120/);
    expect(refusalInLanguage(title)).not.toContain('must be');
    // The field it names is a key too, in the reader's language: 'शीर्षक', not 'Title'.
    expect(refusalInLanguage(title)).toBe('शीर्षक अधिकतम 120 अक्षरों का हो सकता है');
    expect(serverMessage({ key: 'api.textTooLong', params: { what: 'proofInstructions', max: 1000 } }, '')).toBe('सबूत के निर्देश अधिकतम 1000 अक्षरों का हो सकता है');
    // A text already in the reader's language (the server's field texts) is shown as it is; so is an English sentence.
    expect(refusalInLanguage('मोबाइल नंबर 10 अंकों का होना चाहिए')).toBe('मोबाइल नंबर 10 अंकों का होना चाहिए');
    expect(refusalInLanguage(SERVER_MESSAGES['auth.mobile'])).toBe(SERVER_MESSAGES['auth.mobile']);
    await i18n.changeLanguage('en');
    expect(refusalInLanguage(mobile)).toBe(SERVER_MESSAGES['auth.mobile']);
    expect(refusalInLanguage(title)).toBe('Title must be at most 120 characters');
  });
});

describe('texts the server records, in the reader’s language', () => {
  it('has the English of every server key exactly as contracts has it, and a Hindi text for each', () => {
    const en = i18n.getResourceBundle('en', 'messages') as { notifications: typeof NOTIFICATION_TEXTS; ledger: typeof LEDGER_TEXTS; adjustmentReasons: typeof ADJUSTMENT_REASONS };
    expect(en.notifications).toEqual(NOTIFICATION_TEXTS);
    expect(en.ledger).toEqual(LEDGER_TEXTS);
    expect(en.adjustmentReasons).toEqual(ADJUSTMENT_REASONS);
    const hi = i18n.getResourceBundle('hi', 'messages') as Record<string, Record<string, unknown>>;
    for (const key of Object.keys(NOTIFICATION_TEXTS)) expect(hi.notifications?.[key], key).toMatchObject({ title: expect.any(String), message: expect.any(String) });
    for (const kind of Object.keys(LEDGER_TEXTS)) expect(hi.ledger?.[kind], kind).toEqual(expect.any(String));
    for (const code of Object.keys(ADJUSTMENT_REASONS)) expect(hi.adjustmentReasons?.[code], code).toMatch(/[\u0900-\u097f]/);
    expect(i18n.getResourceBundle('en', 'messages').fieldNames).toEqual(FIELD_NAMES);
    for (const field of Object.keys(FIELD_NAMES)) expect(hi.fieldNames?.[field], field).toMatch(/[\u0900-\u097f]/);
  });

  it('renders a notification from its key and parameters, money in the reader’s locale', async () => {
    const n = { title: 'Task Approved', message: 'x', key: 'task_approved', params: { amountPaise: 10000050, taskTitle: 'Rate PhonePe' } };
    await i18n.changeLanguage('en');
    expect(notificationInLanguage(n)).toEqual({ title: 'Task Approved', message: '₹1,00,000.50 has been added to your wallet for "Rate PhonePe"' });
    await i18n.changeLanguage('hi');
    expect(notificationInLanguage(n)).toEqual({ title: 'काम मंज़ूर हुआ', message: '"Rate PhonePe" के लिए ₹1,00,000.50 आपके वॉलेट में जोड़ दिए गए हैं' });
    // An older notification without a key keeps its English words.
    expect(notificationInLanguage({ title: 'Welcome', message: 'Hello there' })).toEqual({ title: 'Welcome', message: 'Hello there' });
  });

  it('renders ledger descriptions from kind and parameters, and older literal ones as they are', async () => {
    await i18n.changeLanguage('hi');
    expect(ledgerInLanguage({ kind: 'adjustment', description: 'Adjustment: Goodwill', params: { reason: 'Goodwill' } })).toBe('समायोजन: Goodwill');
    expect(ledgerInLanguage({ kind: 'kyc_bonus', description: 'KYC verification bonus' })).toBe('KYC सत्यापन बोनस');
    expect(ledgerInLanguage({ kind: 'withdrawal', description: 'Withdrawal to UPI ra***@okaxis' })).toBe('Withdrawal to UPI ra***@okaxis');
  });

  it('shows a reason the app wrote (the demo bonus) in the reader’s language, by its code', async () => {
    const params = { reason: ADJUSTMENT_REASONS.demo_welcome, reasonCode: 'demo_welcome' };
    await i18n.changeLanguage('hi');
    expect(ledgerInLanguage({ kind: 'adjustment', description: 'Adjustment: Welcome bonus (demo data)', params })).toBe('समायोजन: स्वागत बोनस (डेमो डेटा)');
    expect(notificationInLanguage({ title: '', message: '', key: 'wallet_credited', params: { amountPaise: 25000, ...params } }).message).toBe(
      'आपके वॉलेट में ₹250.00 जोड़े गए: स्वागत बोनस (डेमो डेटा)',
    );
    // A code this app does not know leaves the reason as written.
    expect(ledgerInLanguage({ kind: 'adjustment', description: '', params: { reason: 'Goodwill', reasonCode: 'other' } })).toBe('समायोजन: Goodwill');
    await i18n.changeLanguage('en');
    expect(ledgerInLanguage({ kind: 'adjustment', description: '', params })).toBe('Adjustment: Welcome bonus (demo data)');
  });

  it('names the web’s own toast and alert texts by key, not by their English, each in both languages', () => {
    const en = i18n.getResourceBundle('en', 'errors') as Record<string, string>;
    const hi = i18n.getResourceBundle('hi', 'errors') as Record<string, string>;
    // A key is a name (no spaces, no sentence): nothing finds a text by the English it shows.
    expect(Object.keys(en).filter((key) => !/^[a-z][A-Za-z]*$/.test(key))).toEqual([]);
    expect(Object.keys(hi).sort()).toEqual(Object.keys(en).sort());
    expect(Object.entries(hi).filter(([, text]) => !/[\u0900-\u097f]/.test(text))).toEqual([]);
  });
});

describe('a withdrawal destination', () => {
  it('reads in the reader’s language, the masked digits and the UPI ID as they came', async () => {
    await i18n.changeLanguage('hi');
    expect(destinationInLanguage('A/c XXXXXX4321 · HDFC0001234')).toBe('खाता XXXXXX4321 · HDFC0001234');
    expect(destinationInLanguage('UPI ra***@okhdfc')).toBe('UPI ra***@okhdfc');
    expect(notificationInLanguage({ title: '', message: '', key: 'withdrawal_paid', params: { amountPaise: 15000, destination: 'A/c XXXXXX9012 · HDFC0001234', reference: 'UTR1' } }).message).toContain('खाता XXXXXX9012 · HDFC0001234');
    await i18n.changeLanguage('en');
    expect(destinationInLanguage('A/c XXXXXX4321 · HDFC0001234')).toBe('A/c XXXXXX4321 · HDFC0001234');
  });
});
