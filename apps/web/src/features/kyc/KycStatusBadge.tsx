import type { KycDocumentStatus } from '@kamai/contracts';
import { useTranslation } from 'react-i18next';

const tones: Record<KycDocumentStatus | 'none', string> = {
  none: 'bg-slate-100 text-slate-700',
  pending: 'bg-amber-100 text-amber-800',
  approved: 'bg-emerald-100 text-emerald-800',
  rejected: 'bg-red-100 text-red-700',
};

/** A KYC document's badge: Not uploaded, Pending review, Approved or Rejected (the task badge's look). */
export function KycStatusBadge({ status }: { status: KycDocumentStatus | 'none' }) {
  const { t } = useTranslation('kyc');
  return (
    <span
      data-testid="kyc-status"
      className={`inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ${tones[status]}`}
    >
      {t(`status.${status}`)}
    </span>
  );
}
