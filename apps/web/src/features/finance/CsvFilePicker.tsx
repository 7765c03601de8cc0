import { type ChangeEvent, useId } from 'react';
import { linkButton } from './styles.ts';

/**
 * A CSV file chosen from the phone or computer, on a button-styled label: hands over the file's text.
 * The input is cleared, so the same file can be chosen again (a re-import changes nothing, and says so).
 */
export function CsvFilePicker({ label, busy = false, onCsv }: { label: string; busy?: boolean; onCsv: (csv: string) => void }) {
  const inputId = useId();
  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    onCsv(await file.text());
  };
  return (
    <label htmlFor={inputId} className={`${linkButton} cursor-pointer focus-within:ring-4 focus-within:ring-emerald-600`} aria-busy={busy}>
      {label}
      <input id={inputId} type="file" accept=".csv,text/csv" className="sr-only" disabled={busy} onChange={(event) => void onChange(event)} />
    </label>
  );
}
