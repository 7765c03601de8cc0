import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { FirstName } from './auth.ts';
import { RejectRequest, SubmitProofRequest } from './tasks.ts';
import { AdjustmentRequest, RejectWithdrawalRequest } from './withdrawals.ts';
import { refusalText } from './catalogue.ts';

const issues = (schema: v.GenericSchema, input: unknown) => (v.safeParse(schema, input).issues ?? []).map((i) => refusalText(i.message));

describe('texts people read refuse control characters', () => {
  it('in reasons, descriptions and names, with one message', () => {
    for (const bad of ['Late\u0000payment', 'Bell\u0007', 'Right\u202Eto left', 'C1\u0085x']) {
      expect(issues(RejectWithdrawalRequest, { reason: bad })).toContain('Remove control characters from this text');
      expect(issues(RejectRequest, { reason: bad })).toContain('Remove control characters from this text');
      expect(issues(FirstName, `Ra${bad}`)).toContain('Remove control characters from this text');
      expect(issues(SubmitProofRequest, { proofImageUrl: '/objects/x', proofDescription: bad })).toContain('Remove control characters from this text');
      expect(issues(AdjustmentRequest, { mobile: '9876543210', amount: 10, direction: 'credit', reason: bad })).toContain('Remove control characters from this text');
    }
  });

  it('keeps line breaks and tabs in descriptions, and every script', () => {
    expect(issues(SubmitProofRequest, { proofImageUrl: '/objects/x', proofDescription: 'Done.\nSee\tthe screenshot — धन्यवाद' })).toEqual([]);
    expect(issues(FirstName, 'अर्जुन')).toEqual([]);
  });
});
