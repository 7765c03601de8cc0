/** Class names the finance tabs share: their filter inputs and the buttons drawn as links (CSV, files). */
export const inputClass =
  'h-11 rounded-xl border border-slate-300 bg-white px-3 text-base focus:border-emerald-600 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600';
export const linkButton =
  'inline-flex h-11 items-center justify-center rounded-xl border border-emerald-700 px-4 text-sm font-semibold text-emerald-800 hover:bg-emerald-50 focus:outline-none focus-visible:ring-4 focus-visible:ring-emerald-600';
