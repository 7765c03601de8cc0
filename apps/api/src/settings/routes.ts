import { SettingsRequestsQuery, SettingsUpdateRequest, msg, streams } from '@kamai/contracts';
import { settingsDecider } from '@kamai/domain';
import { getSettings, listSettingsRequests } from '@kamai/projections';
import { type Context, Hono } from 'hono';
import { requireUser } from '../auth/sessions.ts';
import { handleCommand } from '../commands/handle.ts';
import { commandId } from '../commands/keyed.ts';
import type { AppEnv } from '../deps.ts';
import { notFound } from '../http/errors.ts';
import { UUID_PATTERN, idParam, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';

const adminOnly = withRole('admin');
const requestId = idParam('id', UUID_PATTERN, msg('controls.settingsRequestNotFound'));

export const settingsRoutes = new Hono<AppEnv>()
  // Public: the privacy and delete-account pages read the support address signed out.
  .get('/api/settings', async (c) => {
    const settings = await getSettings(c.var.deps.db);
    // The company's payout account is for its staff: anyone else sees its last four digits.
    const roles = JSON.parse(c.get('user')?.roles ?? '[]') as string[];
    const staff = roles.includes('admin') || roles.includes('finance');
    return c.json(staff ? settings : { ...settings, bankDebitAccount: settings.bankDebitAccount.replace(/\d(?=\d{4})/g, '•') });
  })
  /**
   * Plain settings change at once (200 with the settings). A change to a control setting becomes a
   * request a different admin approves: 202 with `{ settings, request }`, the settings in force
   * (with this body's plain changes) and the pending request.
   */
  .put('/api/admin/settings', adminOnly, validate('json', SettingsUpdateRequest), async (c) => {
    const deps = c.var.deps;
    const admin = requireUser(c);
    const {
      supportEmail, homepageUrl, maxTaskReward, adjustmentApprovalThreshold, memberDailyAdjustmentLimit, sessionIdleDays, uploadsPerDay, uploadMegabytesPerDay,
      payoutBatchApprovalThreshold, latePayoutDays, deletionCoolingOffHours, autoApproveAfterHours, cannedReasons, taxRules,
      inviteeBonus, inviterBonus, inviterMonthlyCap, invitationBudget, statementMatchTolerance, taxDeductorTan, taxDeductorName, taxDeductorAddress, payoutFloatWarnBelow, taxPayableWarnAbove,
      bankFileTemplate, bankDebitAccount, bankPayerName, bankPayerIfsc,
    } = c.req.valid('json');
    const limits = {
      ...(maxTaskReward !== undefined && { maxTaskRewardPaise: maxTaskReward }),
      ...(adjustmentApprovalThreshold !== undefined && { adjustmentApprovalThresholdPaise: adjustmentApprovalThreshold }),
      ...(memberDailyAdjustmentLimit !== undefined && { memberDailyAdjustmentLimitPaise: memberDailyAdjustmentLimit }),
      ...(sessionIdleDays !== undefined && { sessionIdleDays }),
      ...(uploadsPerDay !== undefined && { uploadsPerDay }),
      ...(uploadMegabytesPerDay !== undefined && { uploadBytesPerDay: uploadMegabytesPerDay * 1024 * 1024 }),
      ...(payoutBatchApprovalThreshold !== undefined && { payoutBatchApprovalThresholdPaise: payoutBatchApprovalThreshold }),
      ...(latePayoutDays !== undefined && { latePayoutDays }),
      ...(deletionCoolingOffHours !== undefined && { deletionCoolingOffHours }),
      ...(autoApproveAfterHours !== undefined && { autoApproveAfterHours }),
      ...(inviteeBonus !== undefined && { inviteeBonusPaise: inviteeBonus }),
      ...(inviterBonus !== undefined && { inviterBonusPaise: inviterBonus }),
      ...(inviterMonthlyCap !== undefined && { inviterMonthlyCapPaise: inviterMonthlyCap }),
      ...(invitationBudget !== undefined && { invitationBudgetPaise: invitationBudget }),
      ...(statementMatchTolerance !== undefined && { statementMatchTolerancePaise: statementMatchTolerance }),
      ...(payoutFloatWarnBelow !== undefined && { payoutFloatWarnBelowPaise: payoutFloatWarnBelow }),
      ...(taxPayableWarnAbove !== undefined && { taxPayableWarnAbovePaise: taxPayableWarnAbove }),
    };
    const deductor = {
      ...(taxDeductorTan !== undefined && { taxDeductorTan }),
      ...(taxDeductorName !== undefined && { taxDeductorName }),
      ...(taxDeductorAddress !== undefined && { taxDeductorAddress }),
    };
    const now = deps.now().toISOString();
    const id = commandId();
    const { events, position } = await handleCommand(
      deps.store,
      streams.settings(),
      settingsDecider,
      {
        type: 'UpdateSettings',
        data: { supportEmail, homepageUrl, cannedReasons, taxRules, ...limits, ...deductor, bankFileTemplate, bankDebitAccount, bankPayerName, bankPayerIfsc, by: admin.id, requestId: id },
        now,
      },
      { actor: admin.id },
    );
    if (position > 0) await deps.runner.waitFor(position);
    const settings = await getSettings(deps.db);
    if (!events.some((event) => event.type === 'SettingsChangeRequested')) return c.json(settings);
    const [request] = await listSettingsRequests(deps.db, { id });
    return c.json({ settings, request }, 202);
  })
  .get('/api/admin/settings/requests', adminOnly, validate('query', SettingsRequestsQuery), async (c) => {
    const { status } = c.req.valid('query');
    return c.json(await listSettingsRequests(c.var.deps.db, status === 'all' ? {} : { status }));
  })
  .post('/api/admin/settings/requests/:id/approve', adminOnly, requestId, (c) => decide(c, 'ApproveSettingsChange'))
  .post('/api/admin/settings/requests/:id/reject', adminOnly, requestId, (c) => decide(c, 'RejectSettingsChange'));

/** A different admin approves a pending request, or any admin (its requester too) drops it: 200 with the request. */
async function decide(c: Context<AppEnv>, type: 'ApproveSettingsChange' | 'RejectSettingsChange') {
  const deps = c.var.deps;
  const by = requireUser(c).id;
  const id = c.req.param('id')?.toLowerCase() ?? '';
  const { position } = await handleCommand(deps.store, streams.settings(), settingsDecider, { type, data: { requestId: id, by }, now: deps.now().toISOString() }, { actor: by });
  await deps.runner.waitFor(position);
  const [request] = await listSettingsRequests(deps.db, { id });
  if (!request) throw notFound(msg('controls.settingsRequestNotFound'));
  return c.json({ request, settings: await getSettings(deps.db) });
}
