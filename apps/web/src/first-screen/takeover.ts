import { FIRST_SCREEN_ID } from '@kamai/contracts';

/**
 * The app taking over the sign-in form the server drew into `/login` (signInPage.ts): what the
 * reader typed there moves into the app's form, the caret with it, and the server's form goes, all
 * before the next frame (index.css keeps the app's root hidden while the server's form is in the page).
 */

type Field = 'mobile' | 'password';

const drawn = () => document.getElementById(FIRST_SCREEN_ID);
const drawnInput = (name: Field) => drawn()?.querySelector<HTMLInputElement>(`input[name="${name}"]`) ?? null;

/** What the reader typed into the server's form, if it is in the page. */
export function typedBeforeTheApp(): Record<Field, string> | undefined {
  if (!drawn()) return undefined;
  return { mobile: drawnInput('mobile')?.value ?? '', password: drawnInput('password')?.value ?? '' };
}

/**
 * Removes the server's form; the app's field matching the one that had the focus (found in `form` by
 * `selectorOf`) gets it, with the same selection. `setValue` takes anything typed since the first read.
 */
export function takeOverDrawnForm(form: HTMLFormElement | null, selectorOf: Record<Field, string>, setValue: (field: Field, value: string) => void): void {
  const page = drawn();
  if (!page || !form) return;
  const focused = (['mobile', 'password'] as const).find((name) => drawnInput(name) === document.activeElement);
  const typed = typedBeforeTheApp();
  const caret = focused ? drawnInput(focused) : null;
  const selection = caret ? ([caret.selectionStart, caret.selectionEnd] as const) : null;
  page.remove();
  for (const name of ['mobile', 'password'] as const) {
    const input = form.querySelector<HTMLInputElement>(selectorOf[name]);
    if (typed && input && input.value !== typed[name]) setValue(name, typed[name]);
  }
  if (!focused) return;
  const input = form.querySelector<HTMLInputElement>(selectorOf[focused]);
  input?.focus();
  if (input && selection) input.setSelectionRange(selection[0], selection[1]);
}

/** The server's form on a page the app did not draw as the sign-in screen (a redirect elsewhere): it goes. */
export function dropDrawnForm(): void {
  drawn()?.remove();
}
