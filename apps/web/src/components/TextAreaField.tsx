import { useId } from 'react';
import type { TextareaHTMLAttributes } from 'react';

type NativeTextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'value' | 'onChange'>;

interface TextAreaFieldProps extends NativeTextAreaProps {
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  /** The field's validation message, shown under the input. */
  error?: string | undefined;
  /** Guidance shown under the input. */
  hint?: string;
}

/** A labelled multi-line input with its hint and inline error, styled like the text fields. */
export function TextAreaField({ label, value, onValueChange, error, hint, rows = 3, ...props }: TextAreaFieldProps) {
  const inputId = useId();
  const describedBy = [hint ? `${inputId}-hint` : null, error ? `${inputId}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <div className="grid min-w-0 gap-1.5">
      <label htmlFor={inputId} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      <textarea
        {...props}
        id={inputId}
        rows={rows}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy}
        className={`w-full resize-y rounded-xl border bg-white px-3 py-2 text-base shadow-sm outline-none transition placeholder:text-slate-400 focus:ring-2 ${
          error ? 'border-red-500 focus:ring-red-200' : 'border-slate-300 focus:border-emerald-600 focus:ring-emerald-100'
        }`}
      />
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
