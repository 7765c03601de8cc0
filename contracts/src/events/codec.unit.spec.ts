import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { ledgerText, notificationText } from '../recorded-texts.ts';
import { EVENT_SCHEMA_VERSIONS, EventContractError, SCHEMA_VERSION_KEY, createEventCodec, eventCodec } from './codec.ts';

const at = '2026-11-20T10:00:00.000Z';

describe('event codec', () => {
  it('reads a wave-one notification (no version recorded) as its literal text', () => {
    const event = eventCodec.decode({
      type: 'NotificationSent',
      data: { notificationId: 'n1', title: 'Task Approved', message: '₹25.00 has been added to your wallet', kind: 'success', sentAt: at },
    });
    expect(event).toEqual({
      type: 'NotificationSent',
      data: { notificationId: 'n1', title: 'Task Approved', message: '₹25.00 has been added to your wallet', kind: 'success', sentAt: at },
    });
    if (event?.type !== 'NotificationSent') throw new Error('wrong type');
    expect(notificationText(event.data)).toEqual({ title: 'Task Approved', message: '₹25.00 has been added to your wallet' });
  });

  it('reads a wave-one ledger entry with its literal description', () => {
    const event = eventCodec.decode({
      type: 'WalletCredited',
      data: { entryId: 'e1', amountPaise: 2500, kind: 'task_reward', description: 'Task completed: Rate PhonePe', creditedAt: at },
      metadata: {},
    });
    if (event?.type !== 'WalletCredited') throw new Error('wrong type');
    expect(ledgerText(event.data)).toBe('Task completed: Rate PhonePe');
  });

  it('reads current events at their recorded version unchanged', () => {
    const data = { notificationId: 'n2', key: 'task_approved', params: { amountPaise: 2500, taskTitle: 'T' }, kind: 'success', sentAt: at };
    expect(eventCodec.decode({ type: 'NotificationSent', data, metadata: { [SCHEMA_VERSION_KEY]: 2 } })).toEqual({ type: 'NotificationSent', data });
  });

  it('skips unknown types and refuses versions it cannot read', () => {
    expect(eventCodec.decode({ type: 'SomethingNewer', data: {} })).toBeNull();
    const data = { readAt: at };
    expect(() => eventCodec.decode({ type: 'AllNotificationsRead', data, metadata: { [SCHEMA_VERSION_KEY]: 9 } })).toThrow(EventContractError);
    expect(() => eventCodec.decode({ type: 'AllNotificationsRead', data, metadata: { [SCHEMA_VERSION_KEY]: 'x' } })).toThrow(/unreadable/);
    expect(() => eventCodec.decode({ type: 'AllNotificationsRead', data: { readAt: 'yesterday' } })).toThrow(/readAt/);
  });

  it('validates before an append and names the version to record', () => {
    expect(eventCodec.encode({ type: 'AllNotificationsRead', data: { readAt: at } })).toEqual({
      type: 'AllNotificationsRead',
      data: { readAt: at },
      schemaVersion: EVENT_SCHEMA_VERSIONS.AllNotificationsRead,
    });
    expect(eventCodec.encode({ type: 'WalletDebited', data: { entryId: 'e', amountPaise: 1, kind: 'withdrawal', debitedAt: at } }).schemaVersion).toBe(2);
    expect(() => eventCodec.encode({ type: 'WalletDebited', data: { entryId: 'e', amountPaise: -5, kind: 'withdrawal', debitedAt: at } })).toThrow(
      /amountPaise/,
    );
    expect(() => eventCodec.encode({ type: 'Nope', data: {} })).toThrow(EventContractError);
  });

  it('chains upcasters from the stored version to the current one', () => {
    // A test-only event that went: v1 { name } -> v2 { first, last } -> v3 { first, last, nick }.
    const codec = createEventCodec(
      { Named: v.object({ first: v.string(), last: v.string(), nick: v.nullable(v.string()) }) },
      { Named: 3 },
      {
        Named: {
          1: (d) => {
            const [first = '', ...rest] = String(d.name).split(' ');
            return { first, last: rest.join(' ') };
          },
          2: (d) => ({ ...d, nick: null }),
        },
      },
    );
    expect(codec.decode({ type: 'Named', data: { name: 'Asha Rao' } })?.data).toEqual({ first: 'Asha', last: 'Rao', nick: null });
    expect(codec.decode({ type: 'Named', data: { first: 'A', last: 'R' }, metadata: { schemaVersion: 2 } })?.data).toEqual({ first: 'A', last: 'R', nick: null });
    expect(codec.decode({ type: 'Named', data: { first: 'A', last: 'R', nick: 'ar' }, metadata: { schemaVersion: 3 } })?.data).toEqual({
      first: 'A',
      last: 'R',
      nick: 'ar',
    });
    // A chain with a hole is a bug, said out loud.
    const broken = createEventCodec({ Named: v.object({ first: v.string() }) }, { Named: 2 }, {});
    expect(() => broken.decode({ type: 'Named', data: { first: 'A' } })).toThrow(/no upcaster from schema version 1/);
  });
});
