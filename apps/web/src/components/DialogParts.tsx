import type { ReactNode } from 'react';
import { Button, type ButtonVariant } from './Button.tsx';
import { AlertTriangleIcon } from './icons.tsx';

/**
 * Why the server refused what a dialog sent, said in the dialog itself (a toast would leave with the
 * dialog's context): an alert, so a screen reader says it at once. `title` heads it when the refusal
 * needs naming as one.
 */
export function RefusalBox({ children, title, testId }: { children: ReactNode; title?: ReactNode; testId?: string }) {
  return (
    <p role="alert" data-testid={testId} className="flex items-start gap-2 rounded-xl border border-red-200 bg-red-50 px-3 py-2 text-sm font-medium text-red-800">
      <AlertTriangleIcon className="mt-0.5 size-4 shrink-0" />
      {title ? (
        <span>
          <span className="block font-semibold">{title}</span>
          {children}
        </span>
      ) : (
        children
      )}
    </p>
  );
}

/**
 * A dialog's footer: Cancel, then the action (`children`, its label) side by side. While `busy` (a
 * send waiting for its answer) neither is pressed; `disabled` holds the action back for reasons of
 * its own. Without `onConfirm` the action submits the dialog's form.
 */
export function DialogActions({
  cancelLabel,
  onCancel,
  busy,
  onConfirm,
  variant = 'primary',
  disabled = false,
  children,
}: {
  cancelLabel: string;
  onCancel: () => void;
  busy: boolean;
  onConfirm?: () => void;
  variant?: ButtonVariant;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <div className="flex gap-2">
      <Button variant="secondary" onClick={onCancel} disabled={busy}>
        {cancelLabel}
      </Button>
      <Button type={onConfirm ? 'button' : 'submit'} variant={variant} onClick={onConfirm} disabled={busy || disabled}>
        {children}
      </Button>
    </div>
  );
}
