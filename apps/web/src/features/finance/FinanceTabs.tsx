import { type KeyboardEvent, type ReactNode, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { BatchesTab } from './BatchesTab.tsx';
import { MonthCloseTab } from './MonthClose.tsx';
import { TaxTab } from './TaxTab.tsx';
import { HistoryTab, ReconciliationTab, UserLedgerTab } from './LedgerTabs.tsx';
import { FINANCE_TABS as TABS, type FinanceTab as Tab } from './financeSearch.ts';
import { useFinanceSearch } from './useFinanceSearch.ts';

/** The finance screen's sections as WAI-ARIA tabs: arrow keys move between them. The tab is in the address. */
export function FinanceTabs({ queue }: { queue: ReactNode }) {
  const { t } = useTranslation('finance');
  const [search, setSearch] = useFinanceSearch();
  const active: Tab = search.tab ?? 'queue';
  const setActive = (tab: Tab) => setSearch({ tab: tab === 'queue' ? undefined : tab });
  const refs = useRef<Partial<Record<Tab, HTMLButtonElement | null>>>({});
  const onKey = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (!step) return;
    const next = TABS[(TABS.indexOf(active) + step + TABS.length) % TABS.length] ?? 'queue';
    setActive(next);
    refs.current[next]?.focus();
  };
  return (
    <div className="grid gap-6">
      <div role="tablist" aria-label={t('tabs.label')} className="flex flex-wrap gap-1 rounded-2xl bg-slate-100 p-1" onKeyDown={onKey}>
        {TABS.map((tab) => (
          <button
            key={tab}
            ref={(el) => {
              refs.current[tab] = el;
            }}
            type="button"
            role="tab"
            id={`finance-tab-${tab}`}
            aria-selected={active === tab}
            aria-controls={`finance-panel-${tab}`}
            tabIndex={active === tab ? 0 : -1}
            onClick={() => setActive(tab)}
            className={`min-h-11 grow rounded-xl px-4 text-sm font-semibold focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600 ${
              active === tab ? 'bg-white text-emerald-800 shadow-sm' : 'text-slate-700 hover:bg-white/60'
            }`}
          >
            {t(`tabs.${tab}`)}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`finance-panel-${active}`} aria-labelledby={`finance-tab-${active}`} className="grid gap-8">
        {active === 'queue' ? queue : active === 'batches' ? <BatchesTab /> : active === 'history' ? <HistoryTab /> : active === 'ledger' ? <UserLedgerTab /> : active === 'months' ? <MonthCloseTab /> : active === 'tax' ? <TaxTab /> : <ReconciliationTab />}
      </div>
    </div>
  );
}
