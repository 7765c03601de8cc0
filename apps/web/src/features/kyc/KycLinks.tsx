import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { KYC_BONUS_PAISE, type KycStatus, type UserBody, formatPaise } from '@kamai/contracts';
import { ShieldIcon } from '../../components/icons.tsx';
import { formatRupees } from '../../lib/format.ts';

/** The bonus as the spec's constant, from contracts: "₹200.00". */
export const kycBonusText = () => formatRupees(formatPaise(KYC_BONUS_PAISE));

/**
 * Home's banner while KYC is not complete: verify (pending) or claim the bonus (verified). Its texts
 * are Home's, so Home does not fetch the KYC screen's texts for four lines.
 */
export function KycBanner({ user }: { user: Pick<UserBody, 'kycStatus'> }) {
  const { t } = useTranslation('home');
  if (user.kycStatus === 'bonus_claimed') return null;
  const verified = user.kycStatus === 'verified';
  return (
    <Link
      to="/kyc"
      data-testid="kyc-banner"
      className="flex items-center gap-3 rounded-2xl border border-amber-200 bg-amber-50 p-4 text-amber-900 shadow-sm transition hover:bg-amber-100 focus:outline-none focus-visible:ring-4 focus-visible:ring-amber-700"
    >
      <ShieldIcon className="size-6 shrink-0" />
      <span className="grid flex-1 gap-0.5">
        <span className="text-sm font-semibold">{t(verified ? 'kycBanner.verified' : 'kycBanner.pending', { amount: kycBonusText() })}</span>
        <span className="text-xs font-medium underline">{t(verified ? 'kycBanner.claimAction' : 'kycBanner.action')}</span>
      </span>
    </Link>
  );
}

/** The short status shown at the end of the Profile row. */
export function KycStatusText({ status }: { status: KycStatus | undefined }) {
  const { t } = useTranslation('kyc');
  if (!status) return null;
  const tone = status === 'pending' ? 'bg-slate-100 text-slate-700' : 'bg-emerald-100 text-emerald-800';
  return (
    <span data-testid="kyc-profile-status" className={`rounded-full px-2 py-0.5 text-xs font-semibold ${tone}`}>
      {t(`profileStatus.${status}`)}
    </span>
  );
}
