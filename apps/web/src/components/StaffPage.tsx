import type { Role } from '@kamai/contracts';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { currentUserQuery } from '../lib/queries.ts';
import { hasRole } from '../lib/roles.ts';
import { usePageTitle } from '../lib/usePageTitle.ts';
import { NotAllowedScreen } from './NotAllowedScreen.tsx';

/**
 * A staff screen: its content only for a user holding `role`, else the not-allowed page naming
 * `what`. The content is rendered (and so fetches) only when allowed; the server enforces the role
 * anyway.
 */
export function StaffPage({ role, what, children }: { role: Role | readonly Role[]; what: string; children: ReactNode }) {
  const { data: user } = useQuery(currentUserQuery());
  if (!hasRole(user, ...(typeof role === 'string' ? [role] : role))) return <NotAllowedScreen what={what} />;
  return children;
}

/** A staff screen's heading: the page's title (the document's too), a line under it, and any extras. */
export function StaffPageHeader({ title, intro, children }: { title: string; intro: ReactNode; children?: ReactNode }) {
  usePageTitle(title);
  return (
    <header className="grid gap-1">
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <p className="text-sm text-slate-600">{intro}</p>
      {children}
    </header>
  );
}
