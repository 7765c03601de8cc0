import * as ToastPrimitive from '@radix-ui/react-toast';
import { useToastStore } from '../lib/toast.ts';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../i18n/messages.ts';
import { XIcon } from './icons.tsx';

/** Spec section 9: 5000 ms on screen, swipe right past 50 px to dismiss, F8 focuses the region. */
const TOAST_DURATION_MS = 5000;
const SWIPE_THRESHOLD_PX = 50;

const variantClasses = {
  default: 'border-slate-200 bg-white text-slate-900',
  destructive: 'border-red-600 bg-red-600 text-white',
} as const;

/** Renders the one current toast of the toast store. Mount once, at the root. */
export function Toaster() {
  const current = useToastStore((state) => state.current);
  const dismiss = useToastStore((state) => state.dismiss);
  const { t } = useTranslation();

  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={SWIPE_THRESHOLD_PX}>
      {current && (
        <ToastPrimitive.Root
          // A new id remounts the toast, so a replacement gets its own full display time.
          key={current.id}
          open={current.open}
          onOpenChange={(open) => {
            if (!open) dismiss(current.id);
          }}
          className={`toast pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-xl border p-4 pr-10 shadow-lg ${variantClasses[current.variant]}`}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{translateMessage(current.title)}</ToastPrimitive.Title>
            {current.description && (
              <ToastPrimitive.Description className="text-sm opacity-90">{translateMessage(current.description)}</ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label={t('close')}
            className="absolute right-2 top-2 rounded-md p-1 opacity-70 hover:opacity-100 focus:opacity-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-current"
          >
            <XIcon className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      )}
      <ToastPrimitive.Viewport className="fixed top-0 z-[100] flex max-h-screen w-full flex-col-reverse p-4 outline-none sm:bottom-0 sm:right-0 sm:top-auto sm:flex-col md:max-w-[420px]" />
    </ToastPrimitive.Provider>
  );
}
