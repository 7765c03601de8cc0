// Tests only (nothing in the app imports it): a person as the code before consent was asked registered them.
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { streams } from '@kamai/contracts';
import { type EventStore, mobileDecider, userDecider } from '@kamai/domain';
import type { MobileStreams } from '../auth/accounts.ts';
import { hashPassword } from '../auth/passwords.ts';
import { handleCommand } from '../commands/handle.ts';
import { loadConfig } from '../config.ts';
import { openEventStore } from '../server.ts';

export interface PreConsentAccount {
  mobile: string;
  password: string;
  firstName: string;
  lastName: string;
}

/**
 * Reserves the mobile and registers the person with no consentPolicyVersion, as registrations were
 * written before consent was asked. Answers the user id and the position to wait for.
 */
export async function writePreConsentPerson(store: EventStore, mobiles: MobileStreams, account: PreConsentAccount): Promise<{ userId: string; position: number }> {
  const userId = randomUUID();
  const now = new Date().toISOString();
  const { mobile, firstName, lastName } = account;
  await handleCommand(store, mobiles.mobileStreamId(mobile), mobileDecider, { type: 'ReserveMobile', mobile, userId, reservationId: randomUUID(), now }, { actor: 'registration' });
  const passwordHash = await hashPassword(account.password);
  const { position } = await handleCommand(store, streams.user(userId), userDecider, {
    type: 'RegisterUser',
    data: { userId, mobile, passwordHash, firstName, lastName },
    now,
  });
  return { userId, position };
}

// `tsx apps/api/src/testing/pre-consent.ts <mobile> <password> <first name> <last name>` with DATA_DIR
// set: the same into a running server's data directory (the browser tests' way in).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [mobile = '', password = '', firstName = '', lastName = ''] = process.argv.slice(2);
  const store = await openEventStore(loadConfig());
  try {
    console.log((await writePreConsentPerson(store, store.personal, { mobile, password, firstName, lastName })).userId);
  } finally {
    await store.close();
  }
}
