import { INVITATION_STATUSES, type InvitationBody, type InvitationStatus } from '@kamai/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { StaffPage, StaffPageHeader } from '../../components/StaffPage.tsx';
import { getJson, serverErrorMessage } from '../../lib/api.ts';
import { formatDateTime, formatRupees } from '../../lib/format.ts';
import { oneOf } from '../../lib/searchParams.ts';

const route = getRouteApi('/_authed/admin/invitations');


/** Finance's list of invitations: `GET /api/admin/invitations?status=`. */
export const invitationsQuery = (status: InvitationStatus | null) =>
  queryOptions({
    queryKey: ['/api/admin/invitations', { status }],
    queryFn: async (context): Promise<InvitationBody[]> =>
      getJson<InvitationBody[]>()({ ...context, queryKey: [status ? `/api/admin/invitations?status=${status}` : '/api/admin/invitations'] }),
  });

const STATUS_CLASSES: Record<InvitationStatus, string> = {
  paid: 'bg-emerald-100 text-emerald-900',
  pending: 'bg-amber-100 text-amber-900',
  refused: 'bg-red-100 text-red-800',
};

/**
 * /admin/invitations, for finance: who invited whom (masked numbers and ids), each bonus's outcome,
 * and why a pair was refused (a shared device, UPI ID or bank account; a suspended person; the
 * monthly cap or the budget). docs/invitations.md.
 */
export function InvitationsScreen() {
  const { t } = useTranslation('finance');
  return (
    <StaffPage role="finance" what={t('invitations.what')}>
      <InvitationList />
    </StaffPage>
  );
}

function InvitationList() {
  const { t } = useTranslation('finance');
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const status = oneOf(search.status, INVITATION_STATUSES) ?? null;
  const setStatus = (next: InvitationStatus | null) => void navigate({ search: next ? { status: next } : {}, replace: true, resetScroll: false });
  const list = useQuery(invitationsQuery(status));
  const options: Array<InvitationStatus | null> = [null, ...INVITATION_STATUSES];

  return (
    <section className="grid gap-5">
      <StaffPageHeader title={t('invitations.title')} intro={t('invitations.intro')} />

      <div role="group" aria-label={t('invitations.filter')} className="flex flex-wrap gap-1 rounded-2xl bg-slate-100 p-1">
        {options.map((option) => (
          <button
            key={option ?? 'all'}
            type="button"
            aria-pressed={status === option}
            onClick={() => setStatus(option)}
            className="min-h-11 flex-1 rounded-xl px-3 text-sm font-semibold text-slate-700 hover:bg-white/60 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600 aria-pressed:bg-white aria-pressed:text-emerald-800 aria-pressed:shadow-sm"
          >
            {t(`invitations.status.${option ?? 'all'}`)}
          </button>
        ))}
      </div>

      {list.isPending ? (
        <div role="status" aria-label={t('invitations.loading')} className="h-32 animate-pulse rounded-2xl bg-white shadow-sm" />
      ) : list.isError ? (
        <LoadFailed message={serverErrorMessage(list.error, t('invitations.loadFailed'))} error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-5 text-center text-sm text-slate-600">{t('invitations.empty')}</p>
      ) : (
        <ul className="grid gap-4 lg:grid-cols-2">
          {list.data.map((invitation) => (
            <li key={invitation.inviteeId}>
              <InvitationCard invitation={invitation} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function InvitationCard({ invitation }: { invitation: InvitationBody }) {
  const { t } = useTranslation('finance');
  const titleId = `invitation-${invitation.inviteeId}`;
  const bonus = (b: InvitationBody['invitee']) =>
    b.status === 'paid' && b.amount ? formatRupees(b.amount) : b.refusal ? t(`invitations.refusal.${b.refusal}`) : t(`invitations.status.${b.status}`);
  return (
    <article aria-labelledby={titleId} data-testid="invitation" className="grid gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <header className="flex flex-wrap items-start justify-between gap-2">
        <h2 id={titleId} className="min-w-0 font-semibold text-slate-900">
          {t('invitations.pair', { invitee: invitation.inviteeMobile ?? invitation.inviteeId, inviter: invitation.inviterMobile ?? invitation.inviterId })}
        </h2>
        <span className={`rounded-full px-2.5 py-1 text-xs font-semibold ${STATUS_CLASSES[invitation.status]}`}>{t(`invitations.status.${invitation.status}`)}</span>
      </header>
      {invitation.refusal && (
        <p className="text-sm font-medium text-red-800" data-testid="invitation-refusal">
          {t(`invitations.refusal.${invitation.refusal}`)}
        </p>
      )}
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">{t('invitations.inviteeBonus')}</dt>
        <dd className="text-slate-900">{bonus(invitation.invitee)}</dd>
        <dt className="text-slate-600">{t('invitations.inviterBonus')}</dt>
        <dd className="text-slate-900">{bonus(invitation.inviter)}</dd>
        <dt className="text-slate-600">{t('invitations.acceptedAt')}</dt>
        <dd className="text-slate-900">{formatDateTime(invitation.acceptedAt)}</dd>
        <dt className="text-slate-600">{t('invitations.ids')}</dt>
        <dd className="text-xs break-all text-slate-600">
          {invitation.inviteeId} ← {invitation.inviterId}
        </dd>
      </dl>
    </article>
  );
}
