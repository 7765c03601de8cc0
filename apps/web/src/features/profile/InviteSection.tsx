import type { InviteBody } from '@kamai/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button.tsx';
import { formatRupees } from '../../lib/format.ts';
import { getJson } from '../../lib/http.ts';
import { toast } from '../../lib/toast.ts';
import { settingsQuery } from '../../lib/queries.ts';

export const inviteQuery = () => queryOptions({ queryKey: ['/api/profile/invite'], queryFn: getJson<InviteBody>(), staleTime: Infinity });

/**
 * Profile's "Invite friends": the person's link, shared through the phone's share sheet where the
 * browser has one (Web Share API), else copied. The bonuses are the settings in force (docs/invitations.md).
 */
export function InviteSection() {
  const { t } = useTranslation('profile');
  const { data } = useQuery(inviteQuery());
  const { data: settings } = useQuery(settingsQuery());
  const canShare = typeof navigator !== 'undefined' && typeof navigator.share === 'function';

  const share = async () => {
    if (!data) return;
    try {
      if (canShare) await navigator.share({ title: t('invite.shareTitle'), text: t('invite.shareText'), url: data.link });
      else {
        await navigator.clipboard.writeText(data.link);
        toast({ title: t('invite.copied') });
      }
    } catch (error) {
      // Closing the share sheet is no failure.
      if (error instanceof DOMException && error.name === 'AbortError') return;
      toast({ variant: 'destructive', title: t('invite.failed') });
    }
  };

  return (
    <section aria-labelledby="invite-heading" className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm" data-testid="invite-section">
      <h2 id="invite-heading" className="text-sm font-semibold text-slate-800">
        {t('invite.heading')}
      </h2>
      {settings && (
        <p className="text-sm text-slate-600">
          {t('invite.explain', { friend: formatRupees(settings.inviteeBonus), you: formatRupees(settings.inviterBonus) })}
        </p>
      )}
      {data && (
        <>
          <p className="text-sm text-slate-700">
            {t('invite.code')} <strong className="font-mono tracking-wider" data-testid="invite-code">{data.code}</strong>
          </p>
          <p className="break-all rounded-xl bg-slate-50 p-3 font-mono text-xs text-slate-700" data-testid="invite-link">
            {data.link}
          </p>
          <Button onClick={() => void share()}>{canShare ? t('invite.share') : t('invite.copy')}</Button>
        </>
      )}
    </section>
  );
}
