import { useQuery } from '@tanstack/react-query';
import { Suspense, lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type FinanceWithdrawalBody, type LedgerVerifyBody, type ReconciliationBody, type StatementBody, UUID_PATTERN } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { errorStatus } from '../../lib/api.ts';
import { getAllPages, getJson } from '../../lib/api.ts';
import { formatDateTime, formatRupees } from '../../lib/format.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';

import { BankStatements } from './BankStatements.tsx';
import { Funding } from './Funding.tsx';
import { inputClass, linkButton } from './styles.ts';
import { ReasonForm } from './WithdrawalForms.tsx';
import { useFinanceSearch } from './useFinanceSearch.ts';
import { lookUpLedgerUser } from './ledgerPerson.ts';
import { HISTORY_STATUSES, type HistoryStatus } from './financeSearch.ts';

const BalanceChart = lazy(() => import('./BalanceChart.tsx'));

const cell = 'px-3 py-2 text-left align-top';

function query(params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `?${text}` : '';
}


/**
 * History: settled withdrawals (paid, failed, returned, rejected) with UTR, staff and reason,
 * filtered by status and by days (India time, the end day included); the CSV is the same selection.
 * A paid one the bank sent back is marked returned here, with the bank's reason.
 */
export function HistoryTab() {
  const { t } = useTranslation('finance');
  // Status and days are in the address (useFinanceSearch): a refresh or a shared link keeps them.
  const [search, setSearch] = useFinanceSearch();
  const status: HistoryStatus = search.status ?? 'settled';
  const from = search.from ?? '';
  const to = search.to ?? '';
  const [returning, setReturning] = useState<FinanceWithdrawalBody | null>(null);
  // One key per opening of the return dialog.
  const once = useSendOnce(returning !== null);
  // The server reads a date as the whole day in India time; the table and its CSV ask the same.
  const filters = { status, from: from || undefined, to: to || undefined };
  const history = useQuery({
    queryKey: ['/api/admin/withdrawals', 'history', status, from, to],
    queryFn: async (context) => {
      const rows = await getAllPages<FinanceWithdrawalBody>(`/api/admin/withdrawals${query({ ...filters, limit: '1000' })}`, context.signal);
      return rows.sort((a, b) => (b.processedAt ?? '').localeCompare(a.processedAt ?? ''));
    },
  });

  return (
    <section aria-labelledby="history-heading" className="grid gap-4">
      <h2 id="history-heading" className="text-lg font-semibold">
        {t('history.heading')}
      </h2>
      <div className="flex flex-wrap items-end gap-3">
        <label className="grid gap-1 text-sm font-medium">
          {t('history.status')}
          <select className={inputClass} value={status} onChange={(e) => setSearch({ status: e.target.value === 'settled' ? undefined : (e.target.value as HistoryStatus) })}>
            {HISTORY_STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(`history.statuses.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="grid gap-1 text-sm font-medium">
          {t('common.from')}
          <input type="date" className={inputClass} value={from} onChange={(e) => setSearch({ from: e.target.value })} />
        </label>
        <label className="grid gap-1 text-sm font-medium">
          {t('common.to')}
          <input type="date" className={inputClass} value={to} onChange={(e) => setSearch({ to: e.target.value })} />
        </label>
        <a className={linkButton} href={`/api/admin/withdrawals${query({ ...filters, format: 'csv' })}`} download>
          {t('common.downloadCsv')}
        </a>
      </div>
      {history.isPending ? (
        <p role="status">{t('common.loading')}</p>
      ) : history.isError ? (
        <LoadFailed message={t('common.loadFailed')} error={history.error} onRetry={() => void history.refetch()} />
      ) : history.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">{t('history.empty')}</p>
      ) : (
        // A table wider than a phone scrolls sideways: the region takes focus so keyboards can scroll it too.
        <div
          role="region"
          aria-label={t('history.heading')}
          tabIndex={0}
          className="overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600"
        >
          <table className="w-full min-w-[44rem] text-sm">
            <thead className="bg-slate-50 text-xs uppercase text-slate-500">
              <tr>
                {/* The action first: on a phone the table scrolls sideways, and its button stays in view. */}
                {(['actions', 'when', 'user', 'amount', 'status', 'utr', 'staff', 'reason'] as const).map((c) => (
                  <th key={c} scope="col" className={cell}>
                    {t(`history.columns.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {history.data.map((w) => (
                <tr key={w.id}>
                  <td className={cell}>
                    {w.status === 'paid' && (
                      <Button
                        variant="secondary"
                        onClick={() => setReturning(w)}
                        aria-label={t('reverse.actionFor', { amount: formatRupees(w.amount), name: w.user.name })}
                        className="h-11 whitespace-nowrap text-sm"
                      >
                        {t('reverse.action')}
                      </Button>
                    )}
                  </td>
                  <td className={cell}>{w.processedAt ? formatDateTime(w.processedAt) : t('common.none')}</td>
                  <td className={cell}>
                    {w.user.name}
                    <span className="block text-xs text-slate-500">{w.user.mobile}</span>
                  </td>
                  <td className={`${cell} tabular-nums`}>{formatRupees(w.amount)}</td>
                  <td className={cell}>{t(`history.statuses.${w.status}`, { defaultValue: w.status })}</td>
                  <td className={`${cell} font-mono`}>{w.reference ?? t('common.none')}</td>
                  <td className={cell}>{w.processedByName ?? w.processedBy ?? t('common.none')}</td>
                  <td className={cell}>{w.reason ?? t('common.none')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Dialog
        open={returning !== null}
        onOpenChange={(open) => !open && setReturning(null)}
        busy={once.busy}
        title={t('reverse.title')}
        description={t('reverse.description')}
      >
        {returning && <ReasonForm decision="reverse" withdrawal={returning} once={once} onDone={() => setReturning(null)} />}
      </Dialog>
    </section>
  );
}

const statementUrl = (userId: string) => `/api/admin/ledger/users/${encodeURIComponent(userId)}/statement`;

/** User ledger: a user's statement by mobile (or user id), as of a date, with its running balance, chart and CSV. */
export function UserLedgerTab() {
  const { t } = useTranslation('finance');
  const [mobile, setMobile] = useState('');
  const [asOf, setAsOf] = useState('');
  const [shown, setShown] = useState<{ mobile: string; asOf: string } | null>(null);
  // An "as of" date is the end of that day in India time, as the server reads a date.
  const params = shown ? query({ to: shown.asOf || undefined }) : '';
  // The number is looked up in a POST body; only the user id goes in the statement's address.
  const statement = useQuery({
    queryKey: ['ledger-statement', shown?.mobile, params],
    queryFn: async (context) => {
      const given = shown?.mobile ?? '';
      const id = UUID_PATTERN.test(given) ? given : (await lookUpLedgerUser(given)).id;
      return getJson<StatementBody>()({ ...context, queryKey: [`${statementUrl(id)}${params}`] });
    },
    enabled: shown !== null,
    retry: false,
  });

  return (
    <section aria-labelledby="ledger-heading" className="grid gap-4">
      <h2 id="ledger-heading" className="text-lg font-semibold">
        {t('ledger.heading')}
      </h2>
      <form
        className="flex flex-wrap items-end gap-3"
        onSubmit={(e) => {
          e.preventDefault();
          setShown({ mobile: mobile.trim(), asOf });
        }}
      >
        <label className="grid gap-1 text-sm font-medium">
          {t('ledger.mobile')}
          <input className={inputClass} inputMode="numeric" autoComplete="off" value={mobile} onChange={(e) => setMobile(e.target.value)} />
        </label>
        <label className="grid gap-1 text-sm font-medium">
          {t('ledger.asOf')}
          <input type="date" className={inputClass} value={asOf} onChange={(e) => setAsOf(e.target.value)} />
        </label>
        <button type="submit" className="inline-flex h-11 items-center rounded-xl bg-emerald-700 px-4 text-sm font-semibold text-white hover:bg-emerald-800">
          {t('ledger.find')}
        </button>
      </form>
      {shown === null ? null : statement.isPending ? (
        <p role="status">{t('common.loading')}</p>
      ) : statement.isError ? (
        <LoadFailed message={errorStatus(statement.error) === 404 ? t('ledger.notFound') : t('common.loadFailed')} error={statement.error} onRetry={() => void statement.refetch()} />
      ) : (
        <Statement body={statement.data} csvHref={`${statementUrl(statement.data.user.id)}${query({ to: shown.asOf || undefined, format: 'csv' })}`} />
      )}
    </section>
  );
}

function Statement({ body, csvHref }: { body: StatementBody; csvHref: string }) {
  const { t } = useTranslation('finance');
  const points = body.entries.map((e) => ({ time: e.time, balance: Number(e.balance) }));
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-base font-semibold">
          {body.user.name} <span className="text-sm font-normal text-slate-500">{body.user.mobile}</span>
        </p>
        <a className={linkButton} href={csvHref} download>
          {t('common.downloadCsv')}
        </a>
      </div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        <Figure label={t('ledger.opening')} value={formatRupees(body.opening.available)} testId="ledger-opening" />
        <Figure label={t('ledger.closing')} value={formatRupees(body.closing.available)} testId="ledger-closing" />
        <Figure label={t('ledger.pendingPayout')} value={formatRupees(body.closing.pendingPayout)} testId="ledger-pending" />
      </dl>
      {points.length > 0 && (
        <Suspense fallback={<div className="h-56 animate-pulse rounded-2xl bg-slate-200/70" />}>
          <BalanceChart points={points} label={t('ledger.chartLabel')} />
        </Suspense>
      )}
      {body.entries.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center text-sm text-slate-600">{t('ledger.empty')}</p>
      ) : (
        <div
          role="region"
          aria-label={t('ledger.heading')}
          tabIndex={0}
          className="overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600"
        >
          <table className="w-full min-w-[48rem] text-sm" aria-label={t('ledger.heading')}>
            <thead className="bg-slate-50 text-xs uppercase text-slate-500">
              <tr>
                {(['position', 'time', 'what', 'amount', 'balance', 'staff', 'references'] as const).map((c) => (
                  <th key={c} scope="col" className={cell}>
                    {t(`ledger.columns.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {body.entries.map((e) => (
                <tr key={`${e.position}-${e.kind}`}>
                  <td className={`${cell} tabular-nums`}>{e.position}</td>
                  <td className={cell}>{formatDateTime(e.time)}</td>
                  <td className={cell}>{e.description}</td>
                  <td className={`${cell} tabular-nums ${Number(e.amount) < 0 ? 'text-rose-700' : 'text-emerald-700'}`}>{e.amount}</td>
                  <td className={`${cell} tabular-nums`}>{e.balance}</td>
                  <td className={cell}>{e.actor ? `${e.actor.name}${e.actor.mobile ? ` (${e.actor.mobile})` : ''}` : t('common.none')}</td>
                  <td className={`${cell} font-mono text-xs`}>
                    {[e.references.utr, e.references.withdrawalId, e.references.submissionId].filter(Boolean).join(' · ') || t('common.none')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function Figure({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="rounded-2xl border border-slate-200 bg-white p-4">
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="mt-1 text-xl font-semibold tabular-nums" data-testid={testId}>
        {value}
      </dd>
    </div>
  );
}

/** Reconciliation: the four totals, their difference, and whether the event log verifies. */
export function ReconciliationTab() {
  const { t } = useTranslation('finance');
  const totals = useQuery({ queryKey: ['/api/admin/ledger/reconciliation'], queryFn: getJson<ReconciliationBody>() });
  const verify = useQuery({ queryKey: ['/api/admin/ledger/verify'], queryFn: getJson<LedgerVerifyBody>() });
  return (
    <section aria-labelledby="recon-heading" className="grid gap-4">
      <h2 id="recon-heading" className="text-lg font-semibold">
        {t('reconciliation.heading')}
      </h2>
      {totals.isPending ? (
        <p role="status">{t('common.loading')}</p>
      ) : totals.isError ? (
        <LoadFailed message={t('common.loadFailed')} error={totals.error} onRetry={() => void totals.refetch()} />
      ) : (
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5">
          <Figure label={t('reconciliation.available')} value={formatRupees(totals.data.available)} testId="recon-available" />
          <Figure label={t('reconciliation.pendingPayout')} value={formatRupees(totals.data.pendingPayout)} testId="recon-pending" />
          <Figure label={t('reconciliation.funded')} value={formatRupees(totals.data.funded)} testId="recon-funded" />
          <Figure label={t('reconciliation.paid')} value={formatRupees(totals.data.paid)} testId="recon-paid" />
          <Figure label={t('reconciliation.difference')} value={formatRupees(totals.data.difference)} testId="recon-difference" />
          <Figure label={t('reconciliation.head')} value={String(totals.data.headPosition)} testId="recon-head" />
        </dl>
      )}
      <BankStatements />
      <Funding />
      <div className="rounded-2xl border border-slate-200 bg-white p-4" data-testid="recon-verification">
        <p className="text-xs text-slate-500">{t('reconciliation.verification')}</p>
        <p className="mt-1 break-all text-sm font-medium">
          {verify.isPending
            ? t('reconciliation.checking')
            : verify.isError
              ? t('common.loadFailed')
              : verify.data.ok
                ? t('reconciliation.verified', { count: verify.data.events, hash: verify.data.headHash ?? '' })
                : t('reconciliation.tampered', { problem: verify.data.failure?.problem, stream: verify.data.failure?.streamId, position: verify.data.failure?.position })}
        </p>
      </div>
    </section>
  );
}
