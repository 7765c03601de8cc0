import { describe, it } from 'vitest';
import { projectionSpec } from '../testing.ts';
import { notificationsProjection } from './projection.ts';
import { listNotifications } from './queries.ts';

const at = (minute: number) => `2026-11-21T10:${String(minute).padStart(2, '0')}:00.000Z`;

describe('notifications read model', () => {
  // recordEvents stores no schema version, as events appended before versions were recorded: each
  // is read as version 1 and lifted by the upcasters before apply sees it, live and in the rebuild.
  const olderShapes = [
    {
      stream: 'user-u1',
      event: { type: 'NotificationSent', data: { notificationId: 'n1', title: 'Task Approved', message: '₹25.00 added', params: { amountPaise: 2500 }, kind: 'success', sentAt: at(1) } },
    },
    { stream: 'user-u1', event: { type: 'NotificationSent', data: { notificationId: 'n2', title: 'Hello', message: 'Welcome', kind: 'info', sentAt: at(2) } } },
    { stream: 'user-u1', event: { type: 'AllNotificationsRead', data: { readAt: at(3) } } },
    { stream: 'user-u1', event: { type: 'NotificationSent', data: { notificationId: 'n3', key: 'kyc_pan_approved', kind: 'success', sentAt: at(4) } } },
  ] as const;

  it('given a notification stored in its version-1 shape (literal text, no key), then the upcast row: no text kept (it stays in its event), no parameters', () =>
    projectionSpec(notificationsProjection)
      .given(olderShapes)
      .then({
        notifications: [
          { id: 'n1', user_id: 'u1', title: null, message: null, message_key: null, params: null, is_read: 1, position: 1 },
          { id: 'n2', title: null, message: null, message_key: null, params: null, is_read: 1, position: 2 },
          { id: 'n3', title: 'Document Approved', message: 'Your PAN Card has been approved.', message_key: 'kyc_pan_approved', is_read: 0, position: 4 },
        ],
      }));

  it('lists an older notification with the literal texts of its event', () =>
    projectionSpec(notificationsProjection)
      .given(olderShapes)
      .thenQuery(
        async (db) => (await listNotifications(db, 'u1')).map((n) => [n.id, n.title, n.message, n.key ?? null]),
        [
          ['n3', 'Document Approved', 'Your PAN Card has been approved.', 'kyc_pan_approved'],
          ['n2', 'Hello', 'Welcome', null],
          ['n1', 'Task Approved', '₹25.00 added', null],
        ],
      ));

  // An older notification's literal texts are not here to erase: they read as erased from its event (apps/api privacy specs).
  it('on UserErased: a reason in the parameters reads as erased', () =>
    projectionSpec(notificationsProjection)
      .given([
        { stream: 'user-u1', event: { type: 'NotificationSent', data: { notificationId: 'n1', title: 'Wallet Credited', message: 'Added: goodwill for Asha', kind: 'success', sentAt: at(1) } } },
        {
          stream: 'user-u1',
          event: { type: 'NotificationSent', data: { notificationId: 'n2', key: 'wallet_credited', params: { amountPaise: 2500, reason: 'goodwill for Asha' }, kind: 'success', sentAt: at(2) } },
        },
        { stream: 'user-u1', event: { type: 'UserErased', data: { requestId: 'r1', erasedBy: 'admin', erasedAt: at(3) } } },
      ])
      .then({
        notifications: [
          { id: 'n1', title: null, message: null, message_key: null },
          { id: 'n2', title: 'Wallet Credited', message: '₹25.00 was added to your wallet: [erased]', params: JSON.stringify({ amountPaise: 2500, reason: '[erased]' }) },
        ],
      }));
});
