import { describe, it } from 'vitest';
import { deciderSpec } from '../testing/spec.ts';
import { idempotencyDecider } from './idempotency.ts';

const now = '2026-11-21T10:00:00.000Z';
const dayLater = '2026-11-22T10:00:00.000Z';
const key = { caller: 'u1', requestHash: 'h1', method: 'POST', path: '/api/withdrawals' };
const reserved = { type: 'IdempotencyKeyReserved' as const, data: { ...key, token: 't1', reservedAt: now } };
const spec = deciderSpec(idempotencyDecider, idempotencyDecider.decide);

describe('idempotency keys', () => {
  it('reserves a new key with its token', () => {
    spec.given([]).when({ type: 'ReserveIdempotencyKey', data: { ...key, token: 't1' }, now }).then([reserved]);
  });
  it('decides nothing for the same request again within the retention: the retry goes on with the first token', () => {
    spec.given([reserved]).when({ type: 'ReserveIdempotencyKey', data: { ...key, token: 't2' }, now: '2026-11-22T09:59:59.000Z' }).then([]);
  });
  it('refuses another request under a live key', () => {
    spec
      .given([reserved])
      .when({ type: 'ReserveIdempotencyKey', data: { ...key, requestHash: 'h2', token: 't2' }, now })
      .thenFails('conflict', /different request/);
  });
  it('forgets a key after 24 hours: the same key is a new request, whatever its body', () => {
    spec
      .given([reserved])
      .when({ type: 'ReserveIdempotencyKey', data: { ...key, requestHash: 'h2', token: 't2' }, now: dayLater })
      .then([{ type: 'IdempotencyKeyReserved', data: { ...key, requestHash: 'h2', token: 't2', reservedAt: dayLater } }]);
  });
  it('reserves afresh a key reserved by older code that never answered (no token to find its events by)', () => {
    spec
      .given([{ type: 'IdempotencyKeyReserved', data: { ...key, token: '', reservedAt: now } }])
      .when({ type: 'ReserveIdempotencyKey', data: { ...key, token: 't2' }, now })
      .then([{ type: 'IdempotencyKeyReserved', data: { ...key, token: 't2', reservedAt: now } }]);
  });
  it('records the end of the reserved command once, and nothing for another token', () => {
    const completed = { type: 'IdempotentCommandCompleted' as const, data: { token: 't1', status: 201, error: null, completedAt: now } };
    spec.given([reserved]).when({ type: 'CompleteIdempotentCommand', data: { token: 't1', status: 201, error: null }, now }).then([completed]);
    spec.given([reserved, completed]).when({ type: 'CompleteIdempotentCommand', data: { token: 't1', status: 201, error: null }, now }).then([]);
    spec.given([reserved]).when({ type: 'CompleteIdempotentCommand', data: { token: 't0', status: 201, error: null }, now }).then([]);
  });
});
