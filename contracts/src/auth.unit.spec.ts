import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { LoginRequest, MESSAGES, deviceLabel, deviceLabelParts, normalizeMobile } from './auth.ts';
import { refusalText } from './catalogue.ts';

describe('normalizeMobile', () => {
  it.each([
    ['9000000001', '9000000001'],
    ['+91 90000 00001', '9000000001'],
    ['+919000000001', '9000000001'],
    ['919000000001', '9000000001'],
    ['09000000001', '9000000001'],
    ['90000 00001', '9000000001'],
    ['900-000-0001', '9000000001'],
    [' (900) 000.0001 ', '9000000001'],
  ])('reads %j as %j', (input, expected) => {
    expect(normalizeMobile(input)).toBe(expected);
  });

  it('leaves what is not a 10-digit Indian number for the check to refuse', () => {
    for (const input of ['98765', '+1 555 000 0001', '98765abcde', '9000000001x', '00000000000001']) {
      const result = v.safeParse(LoginRequest, { mobile: input, password: 'secret1' });
      expect(result.success, input).toBe(false);
      if (!result.success) expect(refusalText(result.issues[0]!.message)).toBe(MESSAGES.mobile);
    }
  });

  it('is what the login schema stores', () => {
    expect(v.parse(LoginRequest, { mobile: '+91 98765-43210', password: 'secret1' }).mobile).toBe('9876543210');
  });
});

describe('deviceLabelParts', () => {
  it('names the browser and system of every label deviceLabel makes, so the web can say them in Hindi', () => {
    const android = 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Mobile Safari/537.36';
    expect(deviceLabelParts(deviceLabel(android))).toEqual({ browser: 'Chrome', system: 'Android' });
    expect(deviceLabelParts(deviceLabel('curl/8.0'))).toEqual({ browser: null, system: null });
    expect(deviceLabelParts(deviceLabel('Something (Windows NT 10.0)'))).toEqual({ browser: null, system: 'Windows' });
    expect(deviceLabelParts(deviceLabel('Firefox/120.0'))).toEqual({ browser: 'Firefox', system: null });
  });
});
