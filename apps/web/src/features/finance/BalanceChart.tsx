import { CartesianGrid, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';

/** The running available balance of a statement; loaded lazily so recharts stays out of the first bundle. */
export default function BalanceChart({ points, label }: { points: { time: string; balance: number }[]; label: string }) {
  return (
    <figure aria-label={label} data-testid="balance-chart" className="h-56 w-full rounded-2xl border border-slate-200 bg-white p-2">
      <ResponsiveContainer width="100%" height="100%">
        <LineChart data={points} margin={{ top: 8, right: 12, bottom: 4, left: 4 }}>
          <CartesianGrid stroke="#e2e8f0" strokeDasharray="3 3" />
          <XAxis dataKey="time" tickFormatter={(t: string) => t.slice(5, 10)} fontSize={11} />
          <YAxis fontSize={11} width={56} />
          <Tooltip formatter={(value) => `₹${Number(value).toFixed(2)}`} labelFormatter={(t) => new Date(String(t)).toLocaleString()} />
          <Line type="stepAfter" dataKey="balance" stroke="#059669" strokeWidth={2} dot={false} isAnimationActive={false} />
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}
