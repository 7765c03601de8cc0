import { useId, useState } from 'react';
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { useServerTexts } from '../i18n/serverTexts.ts';
import { EyeIcon, EyeOffIcon } from './icons.tsx';
import { boxClasses, eyeButtonClasses, fieldFrameClasses, inputClasses, labelClasses, prefixClasses } from './styles.ts';

/**
 * The app's form fields. Every one is a label, the control, an optional hint and the inline error
 * under it; the control is described by the hint and the error and marked invalid with the error, so
 * a field looks and behaves the same on every screen. `useSchemaForm(...).field(name)` gives the
 * `value`, `onValueChange` and `error` of one field.
 */
interface FieldBinding {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** The field's validation message, shown under the control. */
  error?: string | undefined;
  /** Guidance shown under the control, e.g. 'Minimum 6 characters'. */
  hint?: string;
}

/** What the caller may not set on the native control: the field owns its id, value and handler. */
type Owned = 'id' | 'value' | 'onChange';

type InputFieldProps = FieldBinding & Omit<InputHTMLAttributes<HTMLInputElement>, Owned | 'type' | 'prefix'>;

interface FieldFrameProps {
  inputId: string;
  label: string;
  error: string | undefined;
  hint: string | undefined;
  children: ReactNode;
}

function FieldFrame({ inputId, label, error, hint, children }: FieldFrameProps) {
  // A form's first error may come before the translations (they are not in the first download):
  // its line stays empty for that moment rather than show the English text.
  const texts = useServerTexts(Boolean(error));
  return (
    <div className={fieldFrameClasses}>
      <label htmlFor={inputId} className={labelClasses}>
        {label}
      </label>
      {children}
      {hint && (
        <p id={`${inputId}-hint`} className="text-xs text-slate-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${inputId}-error`} className="text-sm font-medium text-red-600">
          {texts?.refusalInLanguage(error)}
        </p>
      )}
    </div>
  );
}

/** The control's accessibility attributes and change handler, the same for every kind of field. */
function controlProps(inputId: string, { onValueChange, error, hint }: Omit<FieldBinding, 'label' | 'value'>) {
  const describedBy = [hint ? `${inputId}-hint` : null, error ? `${inputId}-error` : null].filter(Boolean).join(' ');
  return {
    id: inputId,
    onChange: (event: { target: { value: string } }) => onValueChange(event.target.value),
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
  };
}

/** The border and focus ring of a control drawn by itself (textarea, select). */
const controlBorder = (error: string | undefined) =>
  error ? 'border-red-500 focus:ring-red-600' : 'border-slate-300 focus:border-emerald-600 focus:ring-emerald-600';

/** A labelled text (or number, phone, e-mail) input with its hint and inline error. */
export function TextField({
  label,
  value,
  onValueChange,
  error,
  hint,
  prefix,
  type = 'text',
  ...inputProps
}: InputFieldProps & {
  type?: 'text' | 'tel' | 'email' | 'number' | 'date';
  /** Fixed text inside the input's left edge, e.g. '+91'. */
  prefix?: string;
}) {
  const inputId = useId();
  return (
    <FieldFrame inputId={inputId} label={label} error={error} hint={hint}>
      <div className={boxClasses(error)}>
        {prefix && (
          <span aria-hidden="true" className={prefixClasses}>
            {prefix}
          </span>
        )}
        <input
          {...inputProps}
          {...controlProps(inputId, { onValueChange, error, hint })}
          type={type}
          value={value}
          className={inputClasses}
        />
      </div>
    </FieldFrame>
  );
}

/** An Indian mobile number: ten digits after a fixed '+91', with the phone keypad. */
export function MobileField({ onValueChange, ...props }: Omit<InputFieldProps, 'inputMode'>) {
  const { t } = useTranslation();
  // Digits, and what people and autofill put around them (+91, spaces, dashes, brackets); no letters.
  // The contracts' normalizeMobile makes it the 10 digits, here and on the server.
  return (
    <TextField
      type="tel"
      inputMode="numeric"
      autoComplete="tel-national"
      prefix="+91"
      placeholder={t('fields.mobilePlaceholder')}
      {...props}
      onValueChange={(value) => onValueChange(value.replace(/[^\d+\-\s().]/g, ''))}
    />
  );
}

type NameBinding = Omit<FieldBinding, 'label' | 'hint'>;

/** First and last name, as sign-up and the profile ask for them. */
export function NameFields({ firstName, lastName }: { firstName: NameBinding; lastName: NameBinding }) {
  const { t } = useTranslation();
  return (
    <>
      <TextField label={t('fields.firstName')} autoComplete="given-name" autoCapitalize="words" {...firstName} />
      <TextField label={t('fields.lastName')} autoComplete="family-name" autoCapitalize="words" {...lastName} />
    </>
  );
}

/** A labelled password input with a show/hide toggle, its hint and inline error. */
export function PasswordField({ label, value, onValueChange, error, hint, ...inputProps }: InputFieldProps) {
  const inputId = useId();
  const [visible, setVisible] = useState(false);
  const { t } = useTranslation();
  return (
    <FieldFrame inputId={inputId} label={label} error={error} hint={hint}>
      <div className={boxClasses(error)}>
        <input
          {...inputProps}
          {...controlProps(inputId, { onValueChange, error, hint })}
          type={visible ? 'text' : 'password'}
          value={value}
          className={inputClasses}
        />
        <button
          type="button"
          onClick={() => setVisible((shown) => !shown)}
          aria-label={visible ? t('fields.hidePassword') : t('fields.showPassword')}
          aria-controls={inputId}
          className={eyeButtonClasses}
        >
          {visible ? <EyeOffIcon className="size-5" /> : <EyeIcon className="size-5" />}
        </button>
      </div>
    </FieldFrame>
  );
}

/** A labelled multi-line input with its hint and inline error. */
export function TextAreaField({
  label,
  value,
  onValueChange,
  error,
  hint,
  rows = 3,
  ...textareaProps
}: FieldBinding & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, Owned>) {
  const inputId = useId();
  return (
    <FieldFrame inputId={inputId} label={label} error={error} hint={hint}>
      <textarea
        {...textareaProps}
        {...controlProps(inputId, { onValueChange, error, hint })}
        rows={rows}
        value={value}
        className={`w-full resize-y rounded-xl border bg-white px-3 py-2 text-base shadow-sm outline-none transition placeholder:text-slate-500 focus:ring-2 ${controlBorder(error)}`}
      />
    </FieldFrame>
  );
}

/** A labelled drop-down; its options are the `<option>` children. */
export function SelectField({
  label,
  value,
  onValueChange,
  error,
  hint,
  children,
  ...selectProps
}: FieldBinding & Omit<SelectHTMLAttributes<HTMLSelectElement>, Owned>) {
  const inputId = useId();
  return (
    <FieldFrame inputId={inputId} label={label} error={error} hint={hint}>
      <select
        {...selectProps}
        {...controlProps(inputId, { onValueChange, error, hint })}
        value={value}
        className={`h-12 w-full rounded-xl border bg-white px-3 text-base shadow-sm outline-none transition focus:ring-2 ${controlBorder(error)}`}
      >
        {children}
      </select>
    </FieldFrame>
  );
}
