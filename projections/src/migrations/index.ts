import type { Migration } from 'kysely';
import * as accounts from './0001_accounts.ts';
import * as ledger from './0002_ledger.ts';
import * as tasks from './0003_tasks.ts';
import * as withdrawals from './0004_withdrawals.ts';
import * as messageKeys from './0005_message_keys.ts';
import * as kyc from './0006_kyc.ts';
import * as journal from './0008_journal.ts';
import * as language from './0009_language.ts';

/**
 * Read-model migrations, applied in name order at start-up. A migration only shapes tables; the rows
 * come from events. Changing what a projection writes for past events needs a rebuild
 * (`npm run cli -- rebuild-read-models`), not a data migration.
 */
export const migrations: Record<string, Migration> = {
  '0001_accounts': accounts,
  '0002_ledger': ledger,
  '0003_tasks': tasks,
  '0004_withdrawals': withdrawals,
  '0005_message_keys': messageKeys,
  '0006_kyc': kyc,
  '0008_journal': journal,
  '0009_language': language,
};
