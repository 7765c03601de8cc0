import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { BANK_FILE_TEMPLATES, CANNED_REASONS_MAX, CONTROL_SETTINGS, type CannedReason, type SettingsBody, type SettingsChangeRequestBody, type TaxRuleBody } from '@kamai/contracts';
import { Button } from '../../components/Button.tsx';
import { DialogActions, RefusalBox } from '../../components/DialogParts.tsx';
import { Dialog } from '../../components/Dialog.tsx';
import { LoadFailed } from '../../components/LoadFailed.tsx';
import { StaffPage, StaffPageHeader } from '../../components/StaffPage.tsx';
import { SelectField, TextField } from '../../components/fields.tsx';
import { LockIcon } from '../../components/icons.tsx';
import { serverErrorMessage, serverFieldErrors } from '../../lib/api.ts';
import { formatDateTime, formatRupees } from '../../lib/format.ts';
import { currentUserQuery, settingsQuery } from '../../lib/queries.ts';
import { useSendOnce } from '../../lib/sendOnce.ts';
import { toast } from '../../lib/toast.ts';
import { settingsRequestsQuery, useDecideRequest, useSaveSettings } from './settingsQueries.ts';
import { TaxRulesEditor } from './TaxRulesEditor.tsx';

/** Every setting of PUT /api/admin/settings but the canned reasons, by its wire name, and how it is typed. */
const FIELDS = [
  ['maxTaskReward', 'money'],
  ['adjustmentApprovalThreshold', 'money'],
  ['memberDailyAdjustmentLimit', 'money'],
  ['payoutBatchApprovalThreshold', 'money'],
  ['autoApproveAfterHours', 'number'],
  ['sessionIdleDays', 'number'],
  ['uploadsPerDay', 'number'],
  ['uploadMegabytesPerDay', 'number'],
  ['latePayoutDays', 'number'],
  ['deletionCoolingOffHours', 'number'],
  ['supportEmail', 'email'],
  ['homepageUrl', 'text'],
  ['inviteeBonus', 'money'],
  ['inviterBonus', 'money'],
  ['inviterMonthlyCap', 'money'],
  ['invitationBudget', 'money'],
  ['statementMatchTolerance', 'money'],
  ['payoutFloatWarnBelow', 'money'],
  ['taxPayableWarnAbove', 'money'],
  ['bankFileTemplate', 'template'],
  ['bankDebitAccount', 'text'],
  ['bankPayerName', 'text'],
  ['bankPayerIfsc', 'text'],
  ['taxDeductorTan', 'text'],
  ['taxDeductorName', 'text'],
  ['taxDeductorAddress', 'text'],
] as const satisfies ReadonlyArray<readonly [keyof SettingsBody, 'money' | 'number' | 'email' | 'text' | 'template']>;
type FieldName = (typeof FIELDS)[number][0];
const KIND: Record<string, string> = Object.fromEntries(FIELDS);
const isControl = (name: string) => Object.hasOwn(CONTROL_SETTINGS, name);

/**
 * /admin/settings, for admins: every setting with the value in force. A plain setting changes when
 * saved; a control setting (reward cap, thresholds, auto-approval) becomes a request another admin
 * approves or rejects below, and nothing changes until then.
 */
export function SettingsScreen() {
  const { t } = useTranslation('settings');
  const { data: user } = useQuery(currentUserQuery());
  return (
    <StaffPage role="admin" what={t('what')}>
      <SettingsPage userId={user?.id ?? ''} />
    </StaffPage>
  );
}

function SettingsPage({ userId }: { userId: string }) {
  const { t } = useTranslation('settings');
  const settings = useQuery(settingsQuery());
  const [saves, setSaves] = useState(0);
  return (
    <section className="grid gap-6">
      <StaffPageHeader title={t('title')} intro={t('intro')} />
      <PendingRequests userId={userId} />
      {settings.isPending ? (
        <div role="status" aria-label={t('loading')} className="h-96 animate-pulse rounded-2xl bg-white shadow-sm" />
      ) : settings.isError ? (
        <LoadFailed message={serverErrorMessage(settings.error, t('loadFailed'))} error={settings.error} onRetry={() => void settings.refetch()} />
      ) : (
        // A fresh form after each save, and whenever the values in force change (another admin's
        // approval), starts from the values then in force.
        <SettingsForm key={`${saves}:${JSON.stringify(settings.data)}`} settings={settings.data} onSaved={() => setSaves((n) => n + 1)} />
      )}
    </section>
  );
}

// A setting not set yet (the tax deductor's) is an empty field.
const initialValues = (settings: SettingsBody) => Object.fromEntries(FIELDS.map(([name]) => [name, String(settings[name] ?? '')])) as Record<FieldName, string>;

function SettingsForm({ settings, onSaved }: { settings: SettingsBody; onSaved: () => void }) {
  const { t } = useTranslation('settings');
  const save = useSaveSettings();
  const once = useSendOnce();
  const [values, setValues] = useState(() => initialValues(settings));
  const [reasons, setReasons] = useState<CannedReason[]>(() => settings.cannedReasons.map((r) => ({ ...r })));
  const [taxRules, setTaxRules] = useState<TaxRuleBody[]>(() => settings.taxRules.map((r) => ({ ...r, appliesTo: [...r.appliesTo] })));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string | null>(null);

  const body = () => {
    const initial = initialValues(settings);
    const changed: Record<string, unknown> = {};
    for (const [name, kind] of FIELDS) {
      const value = values[name].trim();
      if (value === initial[name]) continue;
      // A number that does not parse goes as typed: the server's message says what it wants.
      changed[name] = kind === 'number' && value !== '' && Number.isFinite(Number(value)) ? Number(value) : value;
    }
    if (JSON.stringify(reasons) !== JSON.stringify(settings.cannedReasons)) changed.cannedReasons = reasons;
    // The whole list goes, as typed: it replaces the rules in force once a second admin approves.
    if (JSON.stringify(taxRules) !== JSON.stringify(settings.taxRules)) changed.taxRules = taxRules;
    return changed;
  };

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const changed = body();
    if (Object.keys(changed).length === 0) {
      toast({ title: t('nothingChanged') });
      return;
    }
    let sent;
    try {
      sent = await once.send(() => save.mutateAsync(changed));
    } catch (error) {
      setErrors(serverFieldErrors(error));
      setFailure(serverErrorMessage(error, t('saveFailed')));
      return;
    }
    if (!sent) return;
    toast(sent.value.request ? { title: t('requested'), description: t('requestedText') } : { title: t('saved') });
    onSaved();
  };

  const reasonError = Object.entries(errors).find(([name]) => name.startsWith('cannedReasons'))?.[1];
  return (
    <form onSubmit={(event) => void onSubmit(event)} noValidate className="grid gap-5 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 className="text-lg font-semibold">{t('inForce')}</h2>
      <div className="grid gap-4 sm:grid-cols-2">
        {FIELDS.map(([name, kind]) => (
          <div key={name} className="grid content-start gap-1">
            {kind === 'template' ? (
              // The bank file's layout: one of the layouts the server writes.
              <SelectField
                label={t(`fields.${name}`)}
                value={values[name]}
                onValueChange={(value) => setValues((current) => ({ ...current, [name]: value }))}
                error={errors[name]}
                hint={t(`hints.${name}`)}
              >
                {BANK_FILE_TEMPLATES.map((template) => (
                  <option key={template} value={template}>
                    {t(`bankTemplates.${template}`)}
                  </option>
                ))}
              </SelectField>
            ) : (
              <TextField
                label={t(`fields.${name}`)}
                value={values[name]}
                onValueChange={(value) => setValues((current) => ({ ...current, [name]: value }))}
                error={errors[name]}
                hint={isControl(name) ? t('needsSecondAdmin') : t(`hints.${name}`, { defaultValue: '' })}
                prefix={kind === 'money' ? '₹' : undefined}
                type={kind === 'email' ? 'email' : 'text'}
                inputMode={kind === 'money' ? 'decimal' : kind === 'number' ? 'numeric' : undefined}
              />
            )}
            {isControl(name) && (
              <span className="inline-flex items-center gap-1 text-xs font-semibold text-amber-900">
                <LockIcon aria-hidden="true" className="size-3.5" />
                {t('controlBadge')}
              </span>
            )}
          </div>
        ))}
      </div>

      <fieldset className="grid gap-3">
        <legend className="text-lg font-semibold">{t('reasons.title')}</legend>
        <p className="text-sm text-slate-600">{t('reasons.intro', { max: CANNED_REASONS_MAX })}</p>
        <ol className="grid gap-3">
          {reasons.map((reason, index) => (
            <li key={index} className="grid gap-2 rounded-xl border border-slate-200 p-3">
              <TextField
                label={t('reasons.english', { number: index + 1 })}
                value={reason.en}
                onValueChange={(en) => setReasons((list) => list.map((r, i) => (i === index ? { ...r, en } : r)))}
              />
              <TextField
                label={t('reasons.hindi', { number: index + 1 })}
                value={reason.hi}
                lang="hi"
                onValueChange={(hi) => setReasons((list) => list.map((r, i) => (i === index ? { ...r, hi } : r)))}
              />
              <Button type="button" variant="secondary" onClick={() => setReasons((list) => list.filter((_, i) => i !== index))}>
                {t('reasons.remove', { number: index + 1 })}
              </Button>
            </li>
          ))}
        </ol>
        {reasonError && (
          <p role="alert" className="text-sm font-medium text-red-700">
            {reasonError}
          </p>
        )}
        {reasons.length < CANNED_REASONS_MAX && (
          <Button type="button" variant="secondary" onClick={() => setReasons((list) => [...list, { en: '', hi: '' }])}>
            {t('reasons.add')}
          </Button>
        )}
      </fieldset>

      <TaxRulesEditor rules={taxRules} onChange={setTaxRules} errors={errors} />

      {failure && (
        <RefusalBox>{failure}</RefusalBox>
      )}
      <Button type="submit" disabled={once.busy}>
        {once.busy ? t('saving') : t('save')}
      </Button>
    </form>
  );
}

/** One value of a request as the screen shows it: rupees for money, the number for the rest, tax rules by code and rates. */
function shown(name: string, value: SettingsChangeRequestBody['changes'][string] | undefined): string {
  if (value === undefined) return '';
  if (Array.isArray(value)) return value.map((rule) => `${rule.code} ${rule.rateWithPan} % / ${rule.rateWithoutPan} %`).join('; ') || '—';
  return KIND[name] === 'money' ? formatRupees(value) : String(value);
}

function PendingRequests({ userId }: { userId: string }) {
  const { t } = useTranslation('settings');
  const list = useQuery(settingsRequestsQuery());
  const [deciding, setDeciding] = useState<{ request: SettingsChangeRequestBody; decision: 'approve' | 'reject' } | null>(null);
  return (
    <section aria-labelledby="requests-heading" className="grid gap-3">
      <h2 id="requests-heading" className="text-lg font-semibold">
        {t('requests.title')}
      </h2>
      {list.isPending ? (
        <div role="status" aria-label={t('loading')} className="h-24 animate-pulse rounded-2xl bg-white shadow-sm" />
      ) : list.isError ? (
        <LoadFailed message={serverErrorMessage(list.error, t('loadFailed'))} error={list.error} onRetry={() => void list.refetch()} />
      ) : list.data.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-slate-300 bg-white p-4 text-center text-sm text-slate-600">{t('requests.none')}</p>
      ) : (
        <ul className="grid gap-3">
          {list.data.map((request) => {
            const own = request.requestedBy.id === userId;
            const titleId = `settings-request-${request.id}`;
            return (
              <li key={request.id}>
                <article aria-labelledby={titleId} data-testid="settings-request" className="grid gap-3 rounded-2xl border border-amber-200 bg-amber-50 p-4">
                  <h3 id={titleId} className="font-semibold text-slate-900">
                    {t('requests.by', { name: request.requestedBy.name ?? request.requestedBy.id, when: formatDateTime(request.requestedAt) })}
                  </h3>
                  <ul className="grid gap-1 text-sm text-slate-900">
                    {Object.entries(request.changes).map(([name, value]) => (
                      <li key={name}>
                        {t('requests.change', { setting: t(`fields.${name}`), from: shown(name, request.current[name]), to: shown(name, value) })}
                      </li>
                    ))}
                  </ul>
                  {own ? (
                    <>
                      <p className="text-sm text-slate-700">{t('requests.ownNote')}</p>
                      <Button variant="secondary" onClick={() => setDeciding({ request, decision: 'reject' })} aria-describedby={titleId}>
                        {t('requests.cancel')}
                      </Button>
                    </>
                  ) : (
                    <div className="grid grid-cols-2 gap-2">
                      <Button onClick={() => setDeciding({ request, decision: 'approve' })} aria-describedby={titleId}>
                        {t('requests.approve')}
                      </Button>
                      <Button variant="secondary" onClick={() => setDeciding({ request, decision: 'reject' })} aria-describedby={titleId}>
                        {t('requests.reject')}
                      </Button>
                    </div>
                  )}
                </article>
              </li>
            );
          })}
        </ul>
      )}
      <DecideDialog deciding={deciding} own={deciding?.request.requestedBy.id === userId} onClose={() => setDeciding(null)} />
    </section>
  );
}

/** Approving puts the values in force at once, so the admin confirms first; a refusal stays in the dialog. */
function DecideDialog({
  deciding,
  own,
  onClose,
}: {
  deciding: { request: SettingsChangeRequestBody; decision: 'approve' | 'reject' } | null;
  own: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('settings');
  const decide = useDecideRequest();
  const once = useSendOnce(deciding !== null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const close = () => {
    setRefusal(null);
    onClose();
  };
  const verb = deciding?.decision === 'approve' ? 'approve' : own ? 'cancel' : 'reject';
  const onConfirm = async () => {
    if (!deciding) return;
    let sent;
    try {
      sent = await once.send(() => decide.mutateAsync({ id: deciding.request.id, decision: deciding.decision }));
    } catch (error) {
      setRefusal(serverErrorMessage(error, t('saveFailed')));
      return;
    }
    if (!sent) return;
    toast({ title: t(`requests.done.${verb}`) });
    close();
  };
  return (
    <Dialog
      open={deciding !== null}
      onOpenChange={(open) => !open && close()}
      busy={once.busy}
      title={t(`requests.confirmTitle.${verb}`)}
      description={t(`requests.confirmText.${verb}`)}
    >
      {deciding && (
        <ul className="grid list-disc gap-1 pl-5 text-sm text-slate-700">
          {Object.entries(deciding.request.changes).map(([name, value]) => (
            <li key={name}>
              {t('requests.change', { setting: t(`fields.${name}`), from: shown(name, deciding.request.current[name]), to: shown(name, value) })}
            </li>
          ))}
        </ul>
      )}
      {refusal && (
        <RefusalBox>{refusal}</RefusalBox>
      )}
      <DialogActions cancelLabel={t('requests.back')} onCancel={close} busy={once.busy} onConfirm={() => void onConfirm()} variant={verb === 'approve' ? 'primary' : 'danger'}>
        {once.busy ? t('saving') : t(`requests.${verb}`)}
      </DialogActions>
    </Dialog>
  );
}
