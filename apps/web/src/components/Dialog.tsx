import * as DialogPrimitive from '@radix-ui/react-dialog';
import { useRef } from 'react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
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
}

/**
 * A modal dialog on Radix Dialog: focus trapped, Escape and the overlay close it, and on a phone it
 * fits the screen with its own scroll. The heading row carries a close button. Its content unmounts
 * when it closes, so a form inside starts empty each time it opens.
 */
export function Dialog({ open, onOpenChange, title, titleAside, description, children }: DialogProps) {
  const { t } = useTranslation();
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
    <DialogPrimitive.Root open={open} onOpenChange={onOpenChange}>
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-50 bg-slate-900/50" />
        <DialogPrimitive.Content
          // The box keeps 1rem from the top and stays above a toast: --toast-space (set by Toaster, the
          // toast's measured height from the bottom edge, 0px without one) or 1rem, whichever is more.
          // On a phone it hangs from the top; on larger screens it is centred in the room left.
          className="fixed top-4 left-1/2 z-50 grid max-h-[calc(100dvh_-_1rem_-_max(1rem,var(--toast-space,0px)))] w-[calc(100%-2rem)] max-w-md -translate-x-1/2 gap-4 overflow-y-auto rounded-2xl bg-white p-5 shadow-xl focus:outline-none sm:top-[calc(50%_+_(1rem_-_max(1rem,var(--toast-space,0px)))/2)] sm:-translate-y-1/2"
          {...(description ? {} : { 'aria-describedby': undefined })}
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
