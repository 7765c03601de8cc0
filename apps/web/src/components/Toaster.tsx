import * as ToastPrimitive from '@radix-ui/react-toast';
import { useLayoutEffect, useRef } from 'react';
import type { RefObject } from 'react';
import { useToastStore } from '../lib/toast.ts';
import { useTranslation } from 'react-i18next';
import { XIcon } from './icons.tsx';

/** 5000 ms on screen, swipe right past 50 px to dismiss, F8 focuses the region. */
const TOAST_DURATION_MS = 5000;
const SWIPE_THRESHOLD_PX = 50;

const variantClasses = {
  default: 'border-slate-200 bg-white text-slate-900',
  destructive: 'border-red-600 bg-red-600 text-white',
} as const;

/**
 * How much of the screen's bottom a toast takes (from the top of the toast region to the bottom
 * edge, in px; 0px when no toast shows), set on the root element for Dialog, which keeps its box
 * above it: a toast's height depends on its text and language, so it is measured, not assumed.
 */
const TOAST_SPACE_VARIABLE = '--toast-space';

/** Keeps TOAST_SPACE_VARIABLE in step with the toast region: a toast coming, going or reflowing, or the window resizing. */
function usePublishedToastSpace(viewport: RefObject<HTMLOListElement | null>) {
  useLayoutEffect(() => {
    const region = viewport.current;
    if (!region) return;
    const root = document.documentElement;
    const measure = () => {
      // Radix renders each toast as an <li> of the region, kept until its closing animation ends.
      const space = region.querySelector('li') ? Math.ceil(window.innerHeight - region.getBoundingClientRect().top) : 0;
      root.style.setProperty(TOAST_SPACE_VARIABLE, `${Math.max(0, space)}px`);
    };
    measure();
    // Called after layout and before paint, so a dialog never shows a frame under a new toast.
    const observer = new ResizeObserver(measure);
    observer.observe(region);
    window.addEventListener('resize', measure);
    return () => {
      observer.disconnect();
      window.removeEventListener('resize', measure);
      root.style.removeProperty(TOAST_SPACE_VARIABLE);
    };
  }, [viewport]);
}

/** Renders the one current toast of the toast store. Mount once, at the root. */
export function Toaster() {
  const current = useToastStore((state) => state.current);
  const dismiss = useToastStore((state) => state.dismiss);
  const { t } = useTranslation();
  const viewport = useRef<HTMLOListElement>(null);
  usePublishedToastSpace(viewport);

  return (
    <ToastPrimitive.Provider label={t('toasts.one')} duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={SWIPE_THRESHOLD_PX}>
      {current && (
        <ToastPrimitive.Root
          // A new id remounts the toast, so a replacement gets its own full display time.
          key={current.id}
          open={current.open}
          onOpenChange={(open) => {
            if (!open) dismiss(current.id);
          }}
          className={`toast pointer-events-auto relative flex w-full items-start gap-3 overflow-hidden rounded-xl border p-4 pr-12 shadow-lg ${variantClasses[current.variant]}`}
        >
          <div className="grid gap-1">
            <ToastPrimitive.Title className="text-sm font-semibold">{current.title}</ToastPrimitive.Title>
            {current.description && (
              <ToastPrimitive.Description className="text-sm opacity-90">{current.description}</ToastPrimitive.Description>
            )}
          </div>
          <ToastPrimitive.Close
            aria-label={t('close')}
            className="absolute top-0.5 right-0.5 grid size-11 place-items-center rounded-md opacity-80 hover:opacity-100 focus:opacity-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-current"
          >
            <XIcon className="size-4" />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      )}
      {/* Above the bottom navigation, never over a screen's header; an open dialog keeps above it (TOAST_SPACE_VARIABLE). */}
      <ToastPrimitive.Viewport
        ref={viewport}
        label={t('toasts.region')}
        className="fixed inset-x-0 bottom-[calc(4.5rem+env(safe-area-inset-bottom))] z-[100] mx-auto flex max-h-screen w-full max-w-sm flex-col p-4 outline-none sm:right-0 sm:left-auto sm:mx-0 md:max-w-[420px]"
      />
    </ToastPrimitive.Provider>
  );
}
