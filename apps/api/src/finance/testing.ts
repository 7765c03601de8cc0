// Helpers for the wallet, finance and notification API specs only; nothing in the app imports this.
import { parseCsv as parseCsvRows } from '@kamai/contracts';
import { expect } from 'vitest';
import type { TestClient } from '../testing/server.ts';

/** Credits (or debits) a user's wallet through the finance adjustments route, as staff would. */
export async function adjust(finance: TestClient, mobile: string, amount: number | string, direction: 'credit' | 'debit' = 'credit') {
  const res = await finance.post('/api/admin/adjustments', { mobile, amount, direction, reason: 'Test funding' });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { balance: string };
}

export async function balanceOf(client: TestClient): Promise<string> {
  const me = await client.get<{ totalRupees: string }>('/api/auth/user');
  expect(me.status).toBe(200);
  return me.body.totalRupees;
}

export const UPI = 'ravi.kumar@okhdfc';
export const BANK = { accountNumber: '0012 3456 7894 321', ifsc: 'hdfc0001234', holderName: 'Ravi Kumar' };

/** A CSV the routes write, as records by its header (the contracts' parser: BOM dropped, quotes kept apart). */
export function parseCsv(text: string): Record<string, string>[] {
  const [header, ...rows] = parseCsvRows(text);
  return rows.map(({ cells }) => Object.fromEntries((header?.cells ?? []).map((h, i) => [h, cells[i] ?? ''])));
}
