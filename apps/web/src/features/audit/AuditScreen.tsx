import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { getRouteApi } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { AUDIT_ACTIONS, type AuditAction, type AuditEntryBody, DELETED_USER, type Role, SYSTEM_ACTOR, maskMobile } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { StaffPage, StaffPageHeader } from '../../components/StaffPage.tsx';
import { serverErrorMessage } from '../../lib/api.ts';
import { formatDateTime, formatRupees } from '../../lib/format.ts';
import { type AuditFilters, NO_FILTERS, auditActorsQuery, auditListQuery } from './auditQueries.ts';
import type { AuditSearch } from './auditSearch.ts';
import { compact, oneOf } from '../../lib/searchParams.ts';

const route = getRouteApi('/_authed/admin/audit');
/** Admins oversee; finance reads it at month end (the server allows the same two). */
const AUDIT_READERS = ['admin', 'finance'] as const;

/**
 * /admin/audit: who did what to whose money or roles, newest first, for the admin and finance roles. Filters by
 * actor, action and IST days go to the server, which pages the filtered list; "Load more" asks for
 * the next page, so nothing is left out without the admin seeing there is more.
 */
export function AuditScreen() {
  const { t } = useTranslation('audit');
  return (
    <StaffPage role={AUDIT_READERS} what={t('what')}>
      <AuditList />
    </StaffPage>
  );
}

const controlClass =
  'h-12 w-full rounded-xl border border-slate-300 bg-white px-3 text-base shadow-sm outline-none transition focus:border-emerald-600 focus:ring-2 focus:ring-emerald-600';

function AuditList() {
  const { t } = useTranslation('audit');
  // The filters live in the address (replace: Back leaves the screen, not each filter picked).
  const search = route.useSearch();
  const navigate = route.useNavigate();
  const filters: AuditFilters = {
    actor: search.actor ?? '',
    action: oneOf(search.action, AUDIT_ACTIONS) ?? '',
    from: search.from ?? '',
    to: search.to ?? '',
  };
  const setFilters = (next: AuditFilters) => void navigate({ search: compact<AuditSearch>(next), replace: true, resetScroll: false });
  const set = (name: keyof AuditFilters) => (event: { target: { value: string } }) => setFilters({ ...filters, [name]: event.target.value });
  const list = useInfiniteQuery(auditListQuery(filters));
  const actors = useQuery(auditActorsQuery());
  const rows = list.data?.pages.flatMap((page) => page.rows) ?? [];
  const filtered = Object.values(filters).some(Boolean);

  return (
    <section className="grid gap-5">
      <StaffPageHeader title={t('title')} intro={t('intro')} />

      <form role="search" aria-label={t('filters.label')} onSubmit={(event) => event.preventDefault()} className="grid gap-3 sm:grid-cols-4">
        <Filter
          label={t('filters.actor')}
          value={filters.actor}
          onChange={set('actor')}
          options={[{ value: '', label: t('filters.anyone') }, ...(actors.data ?? []).map((actor) => ({ value: actor.id, label: actorText(t, actor) }))]}
        />
        <Filter
          label={t('filters.action')}
          value={filters.action}
          onChange={set('action')}
          options={[{ value: '', label: t('filters.anything') }, ...AUDIT_ACTIONS.map((action) => ({ value: action, label: t(`action.${action}`) }))]}
        />
        {/* Whole days in India time, the last day included (the server reads them so); a date field cannot shrink to half of 360 px, so they stack on a phone. */}
        <Filter label={t('filters.from')} value={filters.from} onChange={set('from')} />
        <Filter label={t('filters.to')} value={filters.to} onChange={set('to')} />
        {filtered && (
          <div className="sm:col-span-4">
            <Button variant="secondary" onClick={() => setFilters(NO_FILTERS)}>
              {t('filters.clear')}
            </Button>
          </div>
        )}
      </form>

      {list.isPending ? (
        <div role="status" aria-label={t('loading')} className="grid gap-3">
          {[0, 1, 2].map((index) => (
            <div key={index} className="h-28 animate-pulse rounded-2xl bg-white shadow-sm" />
          ))}
        </div>
      ) : list.isError ? (
        <LoadFailed message={serverErrorMessage(list.error, t('loadFailed'))} error={list.error} onRetry={() => void list.refetch()} />
      ) : rows.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-5 text-center text-sm text-slate-600">
          {filtered ? t('empty.filtered') : t('empty.all')}
        </p>
      ) : (
        <>
          <p aria-live="polite" className="text-sm text-slate-600">
            {list.hasNextPage ? t('shownMore', { count: rows.length }) : t('shownAll', { count: rows.length })}
          </p>
          <ul aria-label={t('title')} className="grid gap-3 lg:grid-cols-2">
            {rows.map((entry) => (
              <li key={entry.id}>
                <AuditCard entry={entry} />
              </li>
            ))}
          </ul>
          {list.hasNextPage && (
            <Button variant="secondary" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
              {list.isFetchingNextPage ? t('loadingMore') : t('loadMore')}
            </Button>
          )}
          {list.isFetchNextPageError && (
            <p role="alert" className="text-sm font-medium text-red-700">
              {t('loadFailed')}
            </p>
          )}
        </>
      )}
    </section>
  );
}

/** One filter of the list: a drop-down when it has options, else an IST day. */
function Filter({
  label,
  value,
  onChange,
  options,
}: {
  label: string;
  value: string;
  onChange: (event: { target: { value: string } }) => void;
  options?: Array<{ value: string; label: string }>;
}) {
  const id = useId();
  return (
    <div className="grid min-w-0 gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      {options ? (
        <select id={id} className={controlClass} value={value} onChange={onChange}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : (
        <input id={id} type="date" className={controlClass} value={value} onChange={onChange} />
      )}
    </div>
  );
}

type T = ReturnType<typeof useTranslation<'audit'>>['t'];

/** An erased person's name is the contracts' placeholder: shown in the reader's language. */
const personName = (t: T, name: string) => (name === DELETED_USER ? t('deletedUser') : name);

/** "Rohan Gupta · Finance", "System", or the actor's id when it has no name (an operator's CLI, an erased account). */
function actorText(t: T, actor: { id: string; name: string | null; roles: readonly Role[] }): string {
  if (actor.id === SYSTEM_ACTOR) return t('system');
  const roles = actor.roles.map((role) => t(`role.${role}`)).join(', ');
  const name = actor.name === null ? actor.id : personName(t, actor.name);
  return roles ? `${name} · ${roles}` : name;
}

const ROLE_REFERENCES: readonly AuditAction[] = ['role_granted', 'role_revoked'];

function AuditCard({ entry }: { entry: AuditEntryBody }) {
  const { t } = useTranslation('audit');
  const titleId = `audit-${entry.id}`;
  const reference = entry.reference === null ? null : ROLE_REFERENCES.includes(entry.action) ? t(`role.${entry.reference}`, entry.reference) : entry.reference;
  return (
    <article aria-labelledby={titleId} data-testid="audit-entry" className="grid gap-2 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <header className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h2 id={titleId} className="font-semibold text-slate-900">
          {t(`action.${entry.action}`, entry.action)}
        </h2>
        {entry.amount !== null && <span className="font-semibold text-slate-900 tabular-nums">{formatRupees(entry.amount)}</span>}
      </header>
      <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-3 gap-y-1 text-sm">
        <dt className="text-slate-600">{t('when')}</dt>
        <dd className="text-slate-900">
          <time dateTime={entry.at}>{t('inIst', { time: formatDateTime(entry.at, 'IST') })}</time>
        </dd>
        <dt className="text-slate-600">{t('who')}</dt>
        <dd className="text-slate-900">{actorText(t, entry.actor)}</dd>
        {entry.subject && (
          <>
            <dt className="text-slate-600">{t('onWhom')}</dt>
            <dd className="text-slate-900">
              {[entry.subject.name && personName(t, entry.subject.name), entry.subject.mobile && maskMobile(entry.subject.mobile)].filter(Boolean).join(' · ') || entry.subject.id}
            </dd>
          </>
        )}
        {reference && (
          <>
            <dt className="text-slate-600">{t('reference')}</dt>
            <dd className="break-all text-slate-700">{reference}</dd>
          </>
        )}
      </dl>
    </article>
  );
}
