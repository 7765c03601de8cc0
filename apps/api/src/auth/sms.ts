import { PASSWORD_RESET_CODE_TTL_MS } from '@kamai/contracts';

/** One password-reset code for a mobile number, in the person's language. */
interface ResetCodeSms {
  /** 10 digits, without +91. */
  mobile: string;
  code: string;
  language: 'en' | 'hi';
}

/** A money alert (payout paid or failed, a balance's warning to finance) for a mobile number, already in the person's language. */
export interface AlertSms {
  /** 10 digits, without +91. */
  mobile: string;
  language: 'en' | 'hi';
  alert: 'payout_paid' | 'payout_failed' | 'payout_float_low' | 'tax_payable_high';
  /** The whole message (the console shows it). */
  text: string;
  /** The template's variables, for a gateway: the amount in rupees and the transfer reference (a warning: its threshold). */
  variables: { amount: string; reference: string } | { amount: string; threshold: string };
}

/** Where SMS leave the app: the console (development) or an Indian SMS gateway. */
export interface SmsPort {
  sendPasswordResetCode(message: ResetCodeSms): Promise<void>;
  sendAlert(message: AlertSms): Promise<void>;
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
    sendAlert: async ({ mobile, language, text }) => {
      log(`[sms] alert for ${maskMobile(mobile)} (${language}): ${text}`);
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
  /** The DLT template ids of the money alerts, per language; an alert without one is not sent by SMS. */
  alertTemplateIds: Record<AlertSms['alert'], { en: string | undefined; hi: string | undefined }>;
}

const GATEWAY_TIMEOUT_MS = 10_000;

/**
 * An Indian SMS gateway: one JSON POST per message naming the DLT template (Indian rules: only
 * registered templates reach a phone) with the code and the validity as the template's variables.
 * A non-2xx answer is an error.
 */
export function gatewaySms(config: GatewaySmsConfig, fetchImpl: typeof fetch = fetch): SmsPort {
  const send = async (templateId: string, recipient: Record<string, string>) => {
    const response = await fetchImpl(config.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', authkey: config.apiKey },
      body: JSON.stringify({ template_id: templateId, sender: config.senderId, pe_id: config.entityId, short_url: '0', recipients: [recipient] }),
      signal: AbortSignal.timeout(GATEWAY_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`SMS gateway answered ${response.status}`);
  };
  return {
    sendPasswordResetCode: ({ mobile, code, language }) => send(config.templateIds[language], { mobiles: `91${mobile}`, otp: code, minutes: MINUTES }),
    sendAlert: async ({ mobile, language, alert, variables }) => {
      const templateId = config.alertTemplateIds[alert][language];
      // Only registered templates reach a phone in India: without one the alert goes by push only.
      if (!templateId) return;
      await send(templateId, { mobiles: `91${mobile}`, ...variables });
    },
  };
}
