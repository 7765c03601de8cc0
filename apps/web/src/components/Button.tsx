import { useTranslation } from 'react-i18next';
import type { ButtonHTMLAttributes } from 'react';
import { buttonVariantClasses, buttonClasses } from './styles.ts';

export type ButtonVariant = keyof typeof buttonVariantClasses;

export function Button({
  variant = 'primary',
  className = '',
  type = 'button',
  ...props
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant }) {
  return (
    <button
      type={type}
      className={`${buttonClasses} ${buttonVariantClasses[variant]} ${className}`}
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
