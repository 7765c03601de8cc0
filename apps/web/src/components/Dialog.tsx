import * as DialogPrimitive from '@radix-ui/react-dialog';
import { useRouter } from '@tanstack/react-router';
import { useLayoutEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { stepBack } from '../lib/historyStep.ts';
import { XIcon } from './icons.tsx';

interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The dialog's accessible name, shown as its heading. */
  title: ReactNode;
  /** Shown beside the title, e.g. a status or unread-count badge. */
  titleAside?: ReactNode;
  /** A line of text under the title; also the dialog's accessible description. */
  description?: ReactNode;
  children: ReactNode;
  /** A send is waiting for its answer (useSendOnce's `busy`): nothing closes the dialog meanwhile. */
  busy?: boolean;
}

/** The mark an open dialog leaves in the state of the history entry it pushed. */
const dialogMark = (state: object): unknown => (state as { dialog?: unknown }).dialog;

/** The text fields a user may have typed into (inputs that are not choices or buttons, text areas). */
function typedFields(root: HTMLElement | null): (HTMLInputElement | HTMLTextAreaElement)[] {
  if (!root) return [];
  return [...root.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')].filter(
    (field) => !(field instanceof HTMLInputElement) || !['radio', 'checkbox', 'hidden', 'button', 'submit', 'reset'].includes(field.type),
  );
}

/**
 * Back closes an open dialog rather than leaving the page: opening pushes a history entry (the same
 * URL, marked in its state), Back pops it and the dialog closes. Every other close takes the entry
 * off again before anything else may navigate: the close button, Escape and the backdrop go back
 * first and the dialog closes when the browser has done it (returned `requestClose`); a dialog closed
 * by its screen (after a send) steps back as it closes (stepBack counts the step until it lands). A
 * navigation from inside the dialog leaves the entry behind, harmlessly. Layout effects, so the step
 * starts in the same commit that removes the dialog (Preact runs plain effects after the paint).
 */
function useBackCloses(open: boolean, close: () => void, mayLeave: () => boolean): () => void {
  const router = useRouter();
  const closeRef = useRef(close);
  closeRef.current = close;
  const mayLeaveRef = useRef(mayLeave);
  mayLeaveRef.current = mayLeave;
  const requestClose = useRef<() => void>(() => closeRef.current());
  useLayoutEffect(() => {
    if (!open) return;
    const history = router.history;
    const marker = crypto.randomUUID();
    const current = () => dialogMark(history.location.state) === marker;
    // Our entry has become the current one (the push may wait for an earlier dialog's step back).
    let entered = false;
    let left = false;
    const unsubscribe = history.subscribe(() => {
      if (current()) {
        entered = true;
        return;
      }
      if (!entered || left) return;
      left = true;
      closeRef.current();
    });
    // Back (the browser's, Android's) from our entry asks first, as Escape and the backdrop do: a
    // "no" makes the history put the entry back (the blocker's pop is undone) and the dialog stays.
    const unblock = history.block({
      blockerFn: ({ currentLocation, action }) => action !== 'PUSH' && action !== 'REPLACE' && dialogMark(currentLocation.state) === marker && !mayLeaveRef.current(),
      enableBeforeUnload: false,
    });
    const pushed = router.navigate({ to: '.', search: true, hash: true, state: (prev) => ({ ...prev, dialog: marker }) as typeof prev, resetScroll: false });
    if (current()) entered = true;
    requestClose.current = () => {
      if (entered && !left && current()) stepBack(history);
      else closeRef.current();
    };
    return () => {
      unsubscribe();
      unblock();
      requestClose.current = () => closeRef.current();
      if (left) return;
      if (current()) stepBack(history);
      else if (!entered) void pushed.then(() => current() && stepBack(history));
    };
  }, [open, router]);
  return () => requestClose.current();
}

/**
 * A modal dialog on Radix Dialog: focus trapped, Escape and the overlay close it, and on a phone it
 * fits the screen with its own scroll. The heading row carries a close button. Its content unmounts
 * when it closes, so a form inside starts empty each time it opens. Back closes it too. A tap on the
 * backdrop (or Escape) while it holds typed input asks before closing, so a stray second tap does
 * not lose a form; while `busy`, nothing closes it.
 */
export function Dialog({ open, onOpenChange, title, titleAside, description, children, busy = false }: DialogProps) {
  const { t } = useTranslation();
  const content = useRef<HTMLDivElement>(null);
  // What the fields held when the dialog opened: a prefilled value is not typed input.
  const initial = useRef(new Map<Element, string>());
  const busyRef = useRef(busy);
  busyRef.current = busy;
  // Whether what was typed may go: nothing typed, or the person said so.
  const mayDiscard = () => {
    const typed = typedFields(content.current).some((field) => field.value !== (initial.current.get(field) ?? ''));
    return !typed || window.confirm(t('discardTyped'));
  };
  const requestClose = useBackCloses(open, () => onOpenChange(false), () => !busyRef.current && mayDiscard());
  const change = (next: boolean) => {
    if (next) onOpenChange(true);
    else if (!busyRef.current) requestClose();
  };
  const guardClose = (event: Event) => {
    if (busyRef.current || !mayDiscard()) event.preventDefault();
  };
  // Radix returns focus to a Dialog.Trigger; these dialogs open from ordinary buttons (state), so the
  // element that had focus when it opened gets it back on close.
  // Read while rendering the opening, before Radix moves focus into the dialog.
  const opener = useRef<HTMLElement | null>(null);
  const wasOpen = useRef(false);
  if (open && !wasOpen.current && typeof document !== 'undefined' && document.activeElement instanceof HTMLElement) {
    opener.current = document.activeElement === document.body ? null : document.activeElement;
  }
  wasOpen.current = open;
  return (
    <DialogPrimitive.Root open={open} onOpenChange={change}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <DialogPrimitive.Content
          // The box keeps 1rem below the offline banner (--offline-space, set by OfflineBanner, 0px
          // without it) and stays above a toast: --toast-space (set by Toaster, the toast's measured
          // height from the bottom edge, 0px without one) or 1rem, whichever is more. On a phone it
          // hangs from the top; on larger screens it is centred in the room left.
          className="fixed top-[calc(1rem_+_var(--offline-space,0px))] left-1/2 z-50 grid max-h-[calc(100dvh_-_1rem_-_var(--offline-space,0px)_-_max(1rem,var(--toast-space,0px)))] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 gap-4 overflow-y-auto rounded-2xl bg-white p-5 shadow-xl focus:outline-none sm:top-[calc(50%_+_(1rem_+_var(--offline-space,0px)_-_max(1rem,var(--toast-space,0px)))/2)] sm:-translate-y-1/2"
          ref={content}
          {...(description ? {} : { 'aria-describedby': undefined })}
          onOpenAutoFocus={(event) => {
            const fields = typedFields(content.current);
            initial.current = new Map(fields.map((field) => [field, field.value]));
            // Focus on a text field opens a phone's keyboard over the dialog before it is read: when
            // the first control is one, the dialog itself takes focus (Tab goes on to the field).
            const first = content.current?.querySelector('input:not([type=hidden]), textarea, select, button, [href], [tabindex]:not([tabindex="-1"])');
            if (first && fields.includes(first as HTMLInputElement)) {
              event.preventDefault();
              content.current?.focus();
            }
          }}
          onPointerDownOutside={guardClose}
          onEscapeKeyDown={guardClose}
          onCloseAutoFocus={(event) => {
            if (opener.current?.isConnected) {
              event.preventDefault();
              opener.current.focus();
            }
          }}
        >
          <div className="grid gap-1 pr-10">
            <div className="flex flex-wrap items-center gap-2">
              <DialogPrimitive.Title className="text-lg leading-snug font-bold text-slate-900">{title}</DialogPrimitive.Title>
              {titleAside}
            </div>
            {description && <DialogPrimitive.Description className="text-sm text-slate-600">{description}</DialogPrimitive.Description>}
          </div>
          {children}
          <DialogPrimitive.Close
            aria-label={t('close')}
            className="absolute top-3 right-3 grid size-11 place-items-center rounded-lg text-slate-600 hover:bg-slate-100 hover:text-slate-800 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-600"
          >
            <XIcon className="size-5" />
          </DialogPrimitive.Close>
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
