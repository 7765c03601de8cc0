import type { ReactNode } from 'react';

/** A finance section's heading and the line under it that says what the section is for; `children` follow them. */
export function SectionHeader({ id, title, intro, children }: { id: string; title: ReactNode; intro: ReactNode; children?: ReactNode }) {
  return (
    <div className="grid gap-1">
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <p className="text-sm text-slate-600">{intro}</p>
      {children}
    </div>
  );
}
