import { create } from 'zustand';

/**
 * The app's toasts: one visible at a time, so a new toast replaces the current one.
 * `toast()` works anywhere, in components and in plain callbacks; the <Toaster /> renders it.
 */

type ToastVariant = 'default' | 'destructive';

/**
 * Texts already in the reader's language, each written from its catalogue key where the toast is raised
 * (`t(key, params)`, or the server's key through serverErrorMessage): the Toaster looks nothing up.
 */
export interface ToastInput {
  title: string;
  description?: string;
  variant?: ToastVariant;
}

interface ToastItem extends Required<Omit<ToastInput, 'description'>> {
  /** A fresh id per toast, so a replacement restarts the display timer. */
  id: number;
  description: string | undefined;
  /** False while the toast plays its closing animation. */
  open: boolean;
}

interface ToastState {
  current: ToastItem | null;
  show: (input: ToastInput) => void;
  dismiss: (id: number) => void;
}

let nextToastId = 1;

export const useToastStore = create<ToastState>()((set) => ({
  current: null,
  show: ({ title, description, variant = 'default' }) =>
    set({ current: { id: nextToastId++, title, description, variant, open: true } }),
  dismiss: (id) =>
    set((state) => (state.current?.id === id ? { current: { ...state.current, open: false } } : state)),
}));

/** Shows a toast, replacing any toast on screen. */
export function toast(input: ToastInput): void {
  useToastStore.getState().show(input);
}
