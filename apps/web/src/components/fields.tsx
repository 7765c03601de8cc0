import { useId, useState } from 'react';
import type { InputHTMLAttributes, ReactNode } from 'react';
import { EyeIcon, EyeOffIcon } from './icons.tsx';

type NativeInputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'value' | 'onChange' | 'type'>;

interface FieldProps extends NativeInputProps {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** The field's validation message, shown under the input. */
  error?: string | undefined;
  /** Guidance shown under the input, e.g. 'Minimum 6 characters'. */
  hint?: string;
  /** Fixed text inside the input's left edge, e.g. '+91'. */
  prefix?: string;
}

interface FieldFrameProps {
  inputId: string;
  label: string;
  error: string | undefined;
  hint: string | undefined;
  children: ReactNode;
}

function describedBy(inputId: string, hint: string | undefined, error: string | undefined): string | undefined {
  const ids = [hint ? `${inputId}-hint` : null, error ? `${inputId}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

function FieldFrame({ inputId, label, error, hint, children }: FieldFrameProps) {
  return (
    <div className="grid min-w-0 gap-1.5">
      <label htmlFor={inputId} className="text-sm font-medium text-slate-700">
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
          {error}
        </p>
      )}
    </div>
  );
}

const boxClasses = (error: string | undefined) =>
  `flex h-12 w-full items-center rounded-xl border bg-white text-base shadow-sm transition focus-within:ring-2 ${
    error ? 'border-red-500 focus-within:ring-red-200' : 'border-slate-300 focus-within:border-emerald-600 focus-within:ring-emerald-100'
  }`;

const inputClasses = 'h-full min-w-0 flex-1 rounded-xl bg-transparent px-3 text-base outline-none placeholder:text-slate-400';

/** A labelled text input with its hint and inline error. */
export function TextField({ label, value, onValueChange, error, hint, prefix, type = 'text', ...inputProps }: FieldProps & { type?: 'text' | 'tel' | 'email' | 'number' }) {
  const inputId = useId();
  return (
    <FieldFrame inputId={inputId} label={label} error={error} hint={hint}>
      <div className={boxClasses(error)}>
        {prefix && (
          <span aria-hidden="true" className="pl-3 text-slate-500">
            {prefix}
          </span>
        )}
        <input
          {...inputProps}
          id={inputId}
          type={type}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(inputId, hint, error)}
          className={inputClasses}
        />
      </div>
    </FieldFrame>
  );
}

/** A labelled password input with a show/hide toggle, its hint and inline error. */
export function PasswordField({ label, value, onValueChange, error, hint, ...inputProps }: Omit<FieldProps, 'prefix'>) {
  const inputId = useId();
  const [visible, setVisible] = useState(false);
  return (
    <FieldFrame inputId={inputId} label={label} error={error} hint={hint}>
      <div className={boxClasses(error)}>
        <input
          {...inputProps}
          id={inputId}
          type={visible ? 'text' : 'password'}
          value={value}
          onChange={(event) => onValueChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(inputId, hint, error)}
          className={inputClasses}
        />
        <button
          type="button"
          onClick={() => setVisible((shown) => !shown)}
          aria-label={visible ? 'Hide password' : 'Show password'}
          aria-controls={inputId}
          className="mr-1 grid size-10 place-items-center rounded-lg text-slate-500 hover:text-slate-700 focus:outline-none focus-visible:ring-2 focus-visible:ring-emerald-500"
        >
          {visible ? <EyeOffIcon className="size-5" /> : <EyeIcon className="size-5" />}
        </button>
      </div>
    </FieldFrame>
  );
}
