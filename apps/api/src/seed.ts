import type { Role } from '@kamai/contracts';
import type { EventStore } from '@kamai/domain';
import { type MobileStreams, grantRole, registerUser } from './auth/accounts.ts';
import { ApiError } from './http/errors.ts';

export interface DemoAccount {
  label: string;
  mobile: string;
  password: string;
  firstName: string;
  lastName: string;
  roles: Role[];
}

/** Demo accounts seeded on the first start of the embedded default; printed at start. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { label: 'user', mobile: '9000000001', password: 'demo1234', firstName: 'Priya', lastName: 'Sharma', roles: [] },
  { label: 'admin', mobile: '9000000002', password: 'admin1234', firstName: 'Arjun', lastName: 'Mehta', roles: ['admin'] },
  { label: 'reviewer', mobile: '9000000003', password: 'review1234', firstName: 'Kavya', lastName: 'Nair', roles: ['reviewer'] },
  { label: 'finance', mobile: '9000000004', password: 'finance1234', firstName: 'Rohan', lastName: 'Gupta', roles: ['finance'] },
  // A second admin: a change to a control setting waits for a different admin's approval.
  { label: 'admin2', mobile: '9000000005', password: 'admin21234', firstName: 'Sunita', lastName: 'Iyer', roles: ['admin'] },
];

/** A step of the demo data beyond accounts (tasks, ...), given the seeded accounts' ids by label. */
export type SeedStep = (store: EventStore, accounts: Record<string, string>, now: Date) => Promise<void>;
const seedSteps: SeedStep[] = [];

/** Later features register their demo data here. */
export function addSeedStep(step: SeedStep): void {
  seedSteps.push(step);
}

/**
 * Writes the demo data through the same commands the API uses. Idempotent enough for two processes
 * starting at once on an empty store: an account whose mobile is already taken is skipped.
 */
export async function seedDemoData(store: EventStore, mobiles: MobileStreams, now: Date): Promise<DemoAccount[]> {
  const created: DemoAccount[] = [];
  const ids: Record<string, string> = {};
  for (const account of DEMO_ACCOUNTS) {
    try {
      const { userId } = await registerUser(store, mobiles, { ...account, consent: true }, now);
      for (const role of account.roles) await grantRole(store, userId, role, 'seed', now);
      ids[account.label] = userId;
      created.push(account);
    } catch (err) {
      if (err instanceof ApiError && err.code === 'mobile_taken') continue;
      throw err;
    }
  }
  if (created.length === DEMO_ACCOUNTS.length) for (const step of seedSteps) await step(store, ids, now);
  return created;
}
