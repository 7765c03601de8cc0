import { SettingsUpdateRequest, streams } from '@kamai/contracts';
import { settingsDecider } from '@kamai/domain';
import { getSettings } from '@kamai/projections';
import { Hono } from 'hono';
import { requireUser } from '../auth/sessions.ts';
import { handleCommand } from '../commands/handle.ts';
import type { AppEnv } from '../deps.ts';
import { withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';

export const settingsRoutes = new Hono<AppEnv>()
  // Public: the privacy and delete-account pages read the support address signed out.
  .get('/api/settings', async (c) => c.json(await getSettings(c.var.deps.db)))
  .put('/api/admin/settings', withRole('admin'), validate('json', SettingsUpdateRequest), async (c) => {
    const deps = c.var.deps;
    const admin = requireUser(c);
    const {
      supportEmail, homepageUrl, maxTaskReward, adjustmentApprovalThreshold, sessionIdleDays, uploadsPerDay, uploadMegabytesPerDay,
      payoutBatchApprovalThreshold, latePayoutDays, deletionCoolingOffHours,
      autoApproveAfterHours,
    } = c.req.valid('json');
    const limits = {
      ...(maxTaskReward !== undefined && { maxTaskRewardPaise: maxTaskReward }),
      ...(adjustmentApprovalThreshold !== undefined && { adjustmentApprovalThresholdPaise: adjustmentApprovalThreshold }),
      ...(sessionIdleDays !== undefined && { sessionIdleDays }),
      ...(uploadsPerDay !== undefined && { uploadsPerDay }),
      ...(uploadMegabytesPerDay !== undefined && { uploadBytesPerDay: uploadMegabytesPerDay * 1024 * 1024 }),
      ...(payoutBatchApprovalThreshold !== undefined && { payoutBatchApprovalThresholdPaise: payoutBatchApprovalThreshold }),
      ...(latePayoutDays !== undefined && { latePayoutDays }),
      ...(deletionCoolingOffHours !== undefined && { deletionCoolingOffHours }),
      ...(autoApproveAfterHours !== undefined && { autoApproveAfterHours }),
    };
    const now = deps.now().toISOString();
    const { position } = await handleCommand(
      deps.store,
      streams.settings(),
      settingsDecider,
      { type: 'UpdateSettings', data: { supportEmail, homepageUrl, ...limits, by: admin.id }, now },
      { actor: admin.id },
    );
    if (position > 0) await deps.runner.waitFor(position);
    return c.json(await getSettings(deps.db));
  });
