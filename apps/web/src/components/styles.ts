/**
 * Class lists shared by the components and the sign-in form the server draws before the app runs
 * (first-screen/signInPage.ts): the two must look alike to the pixel, or the page jumps on takeover.
 */

/** The box around an input and what sits beside it inside (a prefix, the show/hide button). */
export const boxClasses = (error: string | undefined) =>
  `flex h-12 w-full items-center rounded-xl border bg-white text-base shadow-sm transition focus-within:ring-2 ${
    error ? 'border-red-500 focus-within:ring-red-600' : 'border-slate-300 focus-within:border-emerald-600 focus-within:ring-emerald-600'
  }`;

export const inputClasses = 'h-full min-w-0 flex-1 rounded-xl bg-transparent px-3 text-base outline-none placeholder:text-slate-500';

// One column of minmax(0, 1fr): an <input>'s own width (its `size`) must not widen the column past
// the card (it pushed the password field and its eye button out of the sign-in card).
export const fieldFrameClasses = 'grid min-w-0 grid-cols-1 gap-1.5';
export const labelClasses = 'text-sm font-medium text-slate-700';
export const prefixClasses = 'pl-3 text-slate-500';
export const eyeButtonClasses =
  'mr-1 grid size-11 place-items-center rounded-lg text-slate-500 hover:text-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600';

export const buttonClasses =
  'inline-flex h-12 w-full items-center justify-center gap-2 rounded-xl px-4 text-base font-semibold shadow-sm transition focus:outline-none focus-visible:ring-2 focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-60';

export const buttonVariantClasses = {
  primary: 'bg-emerald-700 text-white hover:bg-emerald-800 focus-visible:ring-emerald-600',
  secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 focus-visible:ring-emerald-600',
  danger: 'border border-red-200 bg-white text-red-600 hover:bg-red-50 focus-visible:ring-red-600',
} as const;

export const languageGroupClasses = 'inline-flex rounded-xl border border-slate-300 bg-white p-1';
export const languageButtonClasses =
  'min-h-11 min-w-11 rounded-lg px-3 text-sm font-semibold text-slate-700 transition hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600 focus-visible:ring-offset-2 aria-pressed:bg-emerald-700 aria-pressed:text-white';

export const guestMainClasses = 'mx-auto flex min-h-dvh w-full max-w-sm flex-col justify-center px-5 py-10';
export const cardClasses = 'rounded-2xl border border-slate-200 bg-white p-6 shadow-sm';
export const linkClasses = 'font-semibold text-emerald-700 hover:underline';
export const forgotLinkClasses = '-mt-2 inline-flex min-h-11 items-center justify-self-end text-sm font-semibold text-emerald-700 hover:underline';
