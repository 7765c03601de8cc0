import { useTranslation } from 'react-i18next';
import type { ButtonHTMLAttributes } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'danger';

const variantClasses: Record<ButtonVariant, string> = {
  primary: 'bg-emerald-700 text-white hover:bg-emerald-800 focus-visible:ring-emerald-600',
  secondary: 'border border-slate-300 bg-white text-slate-800 hover:bg-slate-50 focus-visible:ring-emerald-600',
  danger: 'border border-red-200 bg-white text-red-600 hover:bg-red-50 focus-visible:ring-red-600',
};

export function Button({
  variant = 'primary',
  className = '',
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return (
    <button
      type={type}
      className={`inline-flex h-12 w-full items-center justify-center gap-2 rounded-xl px-4 text-base font-semibold shadow-sm transition focus:outline-none focus-visible:ring-2 focus-visible:ring-offset-2 disabled:cursor-not-allowed disabled:opacity-60 ${variantClasses[variant]} ${className}`}
      {...props}
    />
  );
}

/**
 * A form's stacked buttons: submit, naming what it does while `pending` (and disabled then), and
 * Cancel under it.
 */
export function FormActions({
  submitLabel,
  pendingLabel,
  pending,
  onCancel,
  variant = 'primary',
  className = '',
}: {
  submitLabel: string;
  pendingLabel: string;
  pending: boolean;
  onCancel: () => void;
  variant?: ButtonVariant;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <div className={`grid gap-2 ${className}`}>
      <Button type="submit" variant={variant} disabled={pending}>
        {pending ? pendingLabel : submitLabel}
      </Button>
      <Button variant="secondary" onClick={onCancel}>
        {t('cancel')}
      </Button>
    </div>
  );
}

/**
 * A button that shows only an icon: `label` is its accessible name. Its size and colours come with
 * `className` (e.g. 'size-10 text-slate-600 hover:bg-slate-100 focus-visible:ring-emerald-600').
 */
export function IconButton({
  label,
  className = '',
  type = 'button',
  ...props
}: Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'aria-label'> & { label: string }) {
  return (
    <button
      type={type}
      aria-label={label}
      className={`grid place-items-center rounded-lg focus:outline-none focus-visible:ring-2 ${className}`}
      {...props}
    />
  );
}
