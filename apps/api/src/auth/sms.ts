import { PASSWORD_RESET_CODE_TTL_MS } from '@kamai/contracts';

/** One password-reset code for a mobile number, in the person's language. */
export interface ResetCodeSms {
  /** 10 digits, without +91. */
  mobile: string;
  code: string;
  language: 'en' | 'hi';
}

/** Where SMS leave the app: the console (development) or an Indian SMS gateway. */
export interface SmsPort {
  sendPasswordResetCode(message: ResetCodeSms): Promise<void>;
}

/** A mobile number as logs may show it: the last four digits only. */
export const maskMobile = (mobile: string): string => `+91 ${'X'.repeat(Math.max(0, mobile.length - 4))}${mobile.slice(-4)}`;

const MINUTES = String(PASSWORD_RESET_CODE_TTL_MS / 60_000);

/** The default: the code goes to the server log, for development. The number is masked there. */
export function consoleSms(log: (line: string) => void): SmsPort {
  return {
    sendPasswordResetCode: async ({ mobile, code }) => {
      log(`[sms] password reset code for ${maskMobile(mobile)}: ${code} (valid ${MINUTES} minutes)`);
    },
  };
}

export interface GatewaySmsConfig {
  /** The gateway's send endpoint (MSG91's flow API shape, which most Indian gateways accept). */
  url: string;
  apiKey: string;
  /** The 6-character DLT header (sender id) registered for the app. */
  senderId: string;
  /** The DLT principal entity id. */
  entityId: string;
  /** The DLT content template id of the reset-code message, per language. */
  templateIds: { en: string; hi: string };
}

const GATEWAY_TIMEOUT_MS = 10_000;

/**
 * An Indian SMS gateway: one JSON POST per message naming the DLT template (Indian rules: only
 * registered templates reach a phone) with the code and the validity as the template's variables.
 * A non-2xx answer is an error.
 */
export function gatewaySms(config: GatewaySmsConfig, fetchImpl: typeof fetch = fetch): SmsPort {
  return {
    sendPasswordResetCode: async ({ mobile, code, language }) => {
      const response = await fetchImpl(config.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'application/json', authkey: config.apiKey },
        body: JSON.stringify({
          template_id: config.templateIds[language],
          sender: config.senderId,
          pe_id: config.entityId,
          short_url: '0',
          recipients: [{ mobiles: `91${mobile}`, otp: code, minutes: MINUTES }],
        }),
        signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
      });
      if (!response.ok) throw new Error(`SMS gateway answered ${response.status}`);
    },
  };
}
