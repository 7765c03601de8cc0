import { describe, it } from 'vitest';
import { deciderSpec } from './testing/spec.ts';
import { decideEndSession, decideReleaseMobile, decideReserveMobile, decideSeeSession, mobileEvolver, sessionEvolver, decideStartSession } from './reservations.ts';
import { userDecider } from './user/decider.ts';

const now = '2026-11-21T10:00:00.000Z';

describe('mobile reservation', () => {
  const spec = deciderSpec(mobileEvolver, decideReserveMobile);
  it('reserves a free mobile number for a user, under a reservation of its own', () => {
    spec
      .given([])
      .when({ mobile: '9876543210', userId: 'u1', reservationId: 'r1', now })
      .then([{ type: 'MobileReserved', data: { mobile: '9876543210', userId: 'u1', reservedAt: now, reservationId: 'r1' } }]);
  });
  it('refuses a mobile number that is already reserved', () => {
    spec
      .given([{ type: 'MobileReserved', data: { mobile: '9876543210', userId: 'u1', reservedAt: now, reservationId: 'r1' } }])
      .when({ mobile: '9876543210', userId: 'u2', reservationId: 'r2', now })
      .thenFails('conflict', /already registered/);
  });
  const reserved = { type: 'MobileReserved' as const, data: { mobile: '9876543210', userId: 'u1', reservedAt: now, reservationId: 'r1' } };
  const released = { type: 'MobileReleased' as const, data: { userId: 'u1', releasedAt: now, reservationId: 'r1' } };
  it('frees the number of an erased holder, naming the reservation it ends, and it registers again', () => {
    deciderSpec(mobileEvolver, decideReleaseMobile).given([reserved]).when({ userId: 'u1', now }).then([released]);
    spec
      .given([reserved, released])
      .when({ mobile: '9876543210', userId: 'u2', reservationId: 'r2', now })
      .then([{ type: 'MobileReserved', data: { mobile: '9876543210', userId: 'u2', reservedAt: now, reservationId: 'r2' } }]);
  });
  it('frees a holder whose reservation key is gone already (the holder reads as erased): nothing to release', () => {
    deciderSpec(mobileEvolver, decideReleaseMobile)
      .given([{ ...reserved, data: { ...reserved.data, userId: '[erased]' } }])
      .when({ userId: 'u1', now })
      .then([]);
  });
  it('releasing a number someone else holds now changes nothing', () => {
    deciderSpec(mobileEvolver, decideReleaseMobile)
      .given([reserved, released, { ...reserved, data: { ...reserved.data, userId: 'u2', reservationId: 'r2' } }])
      .when({ userId: 'u1', now })
      .then([]);
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

describe('session last seen and reasons', () => {
  const started = { type: 'SessionStarted' as const, data: { sessionId: 's1', userId: 'u1', startedAt: '2026-11-21T10:00:00.000Z', expiresAt: '2026-12-21T10:00:00.000Z', device: 'Chrome on Android' } };
  const seen = deciderSpec(sessionEvolver, decideSeeSession);
  it('records a use at most every five minutes, and never for an ended session', () => {
    seen.given([started]).when({ sessionId: 's1', now: '2026-11-21T10:04:59.000Z' }).then([]);
    seen.given([started]).when({ sessionId: 's1', now: '2026-11-21T10:05:00.000Z' }).then([{ type: 'SessionSeen', data: { sessionId: 's1', seenAt: '2026-11-21T10:05:00.000Z' } }]);
    const later = { type: 'SessionSeen' as const, data: { sessionId: 's1', seenAt: '2026-11-21T11:00:00.000Z' } };
    seen.given([started, later]).when({ sessionId: 's1', now: '2026-11-21T11:01:00.000Z' }).then([]);
    seen.given([started, { type: 'SessionEnded', data: { sessionId: 's1', endedAt: '2026-11-21T10:01:00.000Z' } }]).when({ sessionId: 's1', now: '2026-11-21T12:00:00.000Z' }).then([]);
  });
  it('says why a session ended', () => {
    deciderSpec(sessionEvolver, decideEndSession)
      .given([started])
      .when({ sessionId: 's1', now: '2026-11-21T10:30:00.000Z', reason: 'password_changed' })
      .then([{ type: 'SessionEnded', data: { sessionId: 's1', endedAt: '2026-11-21T10:30:00.000Z', reason: 'password_changed' } }]);
  });
});

describe('password change', () => {
  it('records the new hash for a registered user only', () => {
    const spec = deciderSpec(userDecider, userDecider.decide);
    const registered = { type: 'UserRegistered' as const, data: { userId: 'u1', mobile: '9876543210', passwordHash: 'h', firstName: 'Asha', lastName: 'Rao', registeredAt: '2026-11-21T10:00:00.000Z' } };
    spec.given([registered]).when({ type: 'ChangePassword', data: { passwordHash: 'h2' }, now: '2026-11-21T11:00:00.000Z' }).then([{ type: 'PasswordChanged', data: { passwordHash: 'h2', changedAt: '2026-11-21T11:00:00.000Z' } }]);
    spec.given([]).when({ type: 'ChangePassword', data: { passwordHash: 'h2' }, now: '2026-11-21T11:00:00.000Z' }).thenFails('not_found');
  });
});
