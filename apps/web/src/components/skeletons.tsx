import { useTranslation } from 'react-i18next';

/** The screens a first load can show a skeleton of, by path. */
export type SkeletonKind = 'home' | 'wallet' | 'tasks' | 'staff' | 'page';

export function skeletonKindOf(pathname: string): SkeletonKind {
  if (pathname === '/') return 'home';
  if (pathname === '/wallet') return 'wallet';
  if (pathname.startsWith('/tasks')) return 'tasks';
  if (pathname.startsWith('/admin')) return 'staff';
  return 'page';
}

const bar = 'rounded bg-slate-200';
const card = 'rounded-2xl border border-slate-200 bg-white p-4 shadow-sm';

/**
 * The shape of a screen while its code or first data is on the way: the same blocks where the
 * screen's own will be, so a slow first load looks like the screen arriving, not a bare spinner.
 * One status for assistive technology ("Loading..."); the blocks themselves are decoration.
 */
export function ScreenSkeleton({ kind }: { kind: SkeletonKind }) {
  // A Suspense fallback must not suspend itself: without its text yet, it goes unlabelled a moment.
  const { t, ready } = useTranslation(undefined, { useSuspense: false });
  return (
    <div role="status" aria-label={ready ? t('loading') : undefined} data-testid="screen-skeleton" data-screen={kind} className="grid animate-pulse gap-6">
      <div aria-hidden="true" className="grid gap-2">
        <span className={`h-4 w-28 ${bar}`} />
        <span className={`h-7 w-48 ${bar}`} />
      </div>
      <div aria-hidden="true" className="grid gap-3">
        {kind === 'home' && <HomeBlocks />}
        {kind === 'wallet' && <WalletBlocks />}
        {kind === 'tasks' && <CardBlocks count={3} height="h-40" />}
        {kind === 'staff' && <StaffBlocks />}
        {kind === 'page' && <CardBlocks count={3} height="h-16" />}
      </div>
    </div>
  );
}

function CardBlocks({ count, height }: { count: number; height: string }) {
  return Array.from({ length: count }, (_, index) => <span key={index} className={`${card} ${height}`} />);
}

function HomeBlocks() {
  return (
    <>
      <span className="h-32 rounded-2xl bg-emerald-100" />
      <span className={`mt-3 h-5 w-36 ${bar}`} />
      <CardBlocks count={3} height="h-24" />
    </>
  );
}

function WalletBlocks() {
  return (
    <>
      <span className="h-40 rounded-2xl bg-emerald-100" />
      <span className={`mt-3 h-5 w-36 ${bar}`} />
      <span className="grid divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
        {[0, 1, 2, 3].map((row) => (
          <span key={row} className="flex items-center gap-3 px-4 py-3.5">
            <span className="size-10 shrink-0 rounded-full bg-slate-200" />
            <span className="grid flex-1 gap-2">
              <span className={`h-3.5 w-3/4 ${bar}`} />
              <span className="h-3 w-1/4 rounded bg-slate-100" />
            </span>
          </span>
        ))}
      </span>
    </>
  );
}

function StaffBlocks() {
  return (
    <>
      <span className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        <CardBlocks count={4} height="h-20" />
      </span>
      <CardBlocks count={3} height="h-28" />
    </>
  );
}
