import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ShieldIcon } from '../../components/icons.tsx';

/** Where the device remembers that this notice was read and put away. */
const DISMISSED_KEY = 'kamai.neverPayDismissed';

const wasDismissed = () => {
  try {
    return globalThis.localStorage?.getItem(DISMISSED_KEY) === '1';
  } catch {
    return false;
  }
};

/**
 * "Kamai never asks you to pay": task scams in India start with a small paid task and then ask for a
 * deposit. Shown on Home until the person puts it away; the device remembers that.
 */
export function NeverPayNotice() {
  const { t } = useTranslation('home');
  const [dismissed, setDismissed] = useState(wasDismissed);
  if (dismissed) return null;
  const dismiss = () => {
    try {
      globalThis.localStorage?.setItem(DISMISSED_KEY, '1');
    } catch {
      // Storage refused (private mode): it still goes away for this visit.
    }
    setDismissed(true);
  };
  return (
    <section aria-labelledby="never-pay-heading" data-testid="never-pay" className="grid gap-2 rounded-2xl border border-amber-200 bg-amber-50 p-4">
      <h2 id="never-pay-heading" className="flex items-center gap-2 font-semibold text-amber-950">
        <ShieldIcon className="size-5 shrink-0" />
        {t('neverPay.title')}
      </h2>
      <p className="text-sm text-amber-900">{t('neverPay.body')}</p>
      <button
        type="button"
        onClick={dismiss}
        className="inline-flex min-h-11 items-center justify-self-start rounded-lg px-3 text-sm font-semibold text-amber-950 hover:bg-amber-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-amber-700"
      >
        {t('neverPay.dismiss')}
      </button>
    </section>
  );
}
