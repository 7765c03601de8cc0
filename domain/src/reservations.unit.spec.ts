import { describe, it } from 'vitest';
import { deciderSpec } from './testing/spec.ts';
import { decideEndSession, decideReserveMobile, mobileEvolver, sessionEvolver, decideStartSession } from './reservations.ts';

const now = '2026-11-21T10:00:00.000Z';

describe('mobile reservation', () => {
  const spec = deciderSpec(mobileEvolver, decideReserveMobile);
  it('reserves a free mobile number for a user', () => {
    spec
      .given([])
      .when({ mobile: '9876543210', userId: 'u1', now })
      .then([{ type: 'MobileReserved', data: { mobile: '9876543210', userId: 'u1', reservedAt: now } }]);
  });
  it('refuses a mobile number that is already reserved', () => {
    spec
      .given([{ type: 'MobileReserved', data: { mobile: '9876543210', userId: 'u1', reservedAt: now } }])
      .when({ mobile: '9876543210', userId: 'u2', now })
      .thenFails('conflict', /already registered/);
  });
});

describe('sessions', () => {
  const started = {
    type: 'SessionStarted' as const,
    data: { sessionId: 's1', userId: 'u1', startedAt: now, expiresAt: '2026-12-21T10:00:00.000Z' },
  };
  it('starts a session once', () => {
    deciderSpec(sessionEvolver, decideStartSession)
      .given([])
      .when({ sessionId: 's1', userId: 'u1', now, expiresAt: '2026-12-21T10:00:00.000Z' })
      .then([started]);
    deciderSpec(sessionEvolver, decideStartSession)
      .given([started])
      .when({ sessionId: 's1', userId: 'u1', now, expiresAt: '2026-12-21T10:00:00.000Z' })
      .thenFails('conflict');
  });
  it('ends a session once and ignores unknown ones', () => {
    const spec = deciderSpec(sessionEvolver, decideEndSession);
    spec.given([started]).when({ sessionId: 's1', now }).then([{ type: 'SessionEnded', data: { sessionId: 's1', endedAt: now } }]);
    spec.given([started, { type: 'SessionEnded', data: { sessionId: 's1', endedAt: now } }]).when({ sessionId: 's1', now }).then([]);
    spec.given([]).when({ sessionId: 's1', now }).then([]);
  });
});
