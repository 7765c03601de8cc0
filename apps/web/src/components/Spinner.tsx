/** The spinner shown while the signed-in state (or a screen's data) loads. */
export function Spinner({ label = 'Loading' }: { label?: string }) {
  return (
    <div role="status" aria-label={label} className="flex min-h-dvh items-center justify-center">
      <span
        aria-hidden="true"
        className="size-10 animate-spin rounded-full border-4 border-emerald-100 border-t-emerald-600"
      />
    </div>
  );
}
