import { describe, it } from 'vitest';
import { projectionSpec } from '../testing.ts';
import { notificationsProjection } from './projection.ts';

const at = (minute: number) => `2026-11-21T10:${String(minute).padStart(2, '0')}:00.000Z`;

describe('notifications read model', () => {
  // recordEvents stores no schema version, as events appended before versions were recorded: each
  // is read as version 1 and lifted by the upcasters before apply sees it, live and in the rebuild.
  it('given a notification stored in its version-1 shape (literal text, no key), then the upcast row: its text, no parameters', () =>
    projectionSpec(notificationsProjection)
      .given([
        {
          stream: 'user-u1',
          event: { type: 'NotificationSent', data: { notificationId: 'n1', title: 'Task Approved', message: '₹25.00 added', params: { amountPaise: 2500 }, kind: 'success', sentAt: at(1) } },
        },
        { stream: 'user-u1', event: { type: 'NotificationSent', data: { notificationId: 'n2', title: 'Hello', message: 'Welcome', kind: 'info', sentAt: at(2) } } },
        { stream: 'user-u1', event: { type: 'AllNotificationsRead', data: { readAt: at(3) } } },
        { stream: 'user-u1', event: { type: 'NotificationSent', data: { notificationId: 'n3', key: 'kyc_pan_approved', kind: 'success', sentAt: at(4) } } },
      ])
      .then({
        notifications: [
          { id: 'n1', user_id: 'u1', title: 'Task Approved', message: '₹25.00 added', message_key: null, params: null, is_read: 1, position: 1 },
          { id: 'n2', title: 'Hello', message: 'Welcome', message_key: null, params: null, is_read: 1, position: 2 },
          { id: 'n3', title: 'Document Approved', message: 'Your PAN Card has been approved.', message_key: 'kyc_pan_approved', is_read: 0, position: 4 },
        ],
      }));

  it('on UserErased: a reason in the parameters and an older notification\'s literal texts (they may quote it) read as erased', () =>
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
          { id: 'n1', title: '[erased]', message: '[erased]', message_key: null },
          { id: 'n2', title: 'Wallet Credited', message: '₹25.00 was added to your wallet: [erased]', params: JSON.stringify({ amountPaise: 2500, reason: '[erased]' }) },
        ],
      }));
});
