import { describe, expect, it } from 'vitest';
import { renderText, rupeeText } from './messages.ts';
import { ledgerText, notificationText } from './recorded-texts.ts';

describe('recorded texts: keys and parameters rendered for the reader', () => {
  it('writes rupees with Indian grouping', () => {
    expect(rupeeText(10_000)).toBe('₹100.00');
    expect(rupeeText(1_234_567_89)).toBe('₹12,34,567.89');
    expect(rupeeText(5)).toBe('₹0.05');
  });

  it('renders a notification key with its facts, money as rupees', () => {
    expect(notificationText({ key: 'withdrawal_rejected', params: { amountPaise: 10_000, reason: 'Bank account closed' } })).toEqual({
      title: 'Withdrawal Rejected',
      message: 'Your withdrawal of ₹100.00 was not processed: Bank account closed. The amount is back in your wallet.',
    });
    expect(notificationText({ key: 'task_approved', params: { amountPaise: 2500, taskTitle: 'Rate PhonePe' } }).message).toBe(
      '₹25.00 has been added to your wallet for "Rate PhonePe"',
    );
  });

  it('shows the literal text of an event recorded before texts became keys', () => {
    expect(notificationText({ title: 'Task Approved', message: '₹25.00 has been added' })).toEqual({ title: 'Task Approved', message: '₹25.00 has been added' });
    expect(ledgerText({ kind: 'task_reward', description: 'Task completed: Old title' })).toBe('Task completed: Old title');
  });

  it('renders a ledger description from the entry kind', () => {
    expect(ledgerText({ kind: 'withdrawal', params: { destination: 'UPI ra***@okaxis' } })).toBe('Withdrawal to UPI ra***@okaxis');
    expect(ledgerText({ kind: 'adjustment', params: { reason: 'Goodwill' } })).toBe('Adjustment: Goodwill');
  });

  it('leaves a placeholder whose parameter is missing, and never reads inherited keys', () => {
    expect(renderText('Hello {name} {constructor}', {})).toBe('Hello {name} {constructor}');
  });
});
