import { type AppealOpenedBody, AppealRequest, AppealsQuery, DecideAppealRequest, msg, streams } from '@kamai/contracts';
import { type UserTaskCommand, userDecider } from '@kamai/domain';
import { appealOwner, findAppeal, listAppeals, submissionOwner } from '@kamai/projections';
import { Hono } from 'hono';
import { readWithCatchUp, requireRole, requireUser } from '../auth/sessions.ts';
import { handleCommand } from '../commands/handle.ts';
import { commandId } from '../commands/keyed.ts';
import type { AppEnv } from '../deps.ts';
import { notFound, notYetVisible } from '../http/errors.ts';
import { UUID_PATTERN, idParam, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { type ObjectStorage, acceptUploadedImage, withAcceptedImages } from '../object-storage/index.ts';
import { consented } from '../profile/consent.ts';

/**
 * Appeals of rejections (docs/appeals.md): the person opens one on their own stream; a reviewer other
 * than the one who rejected decides it there too, so an overturn's credit is in the same append as
 * the decision and a retry or a race finds the appeal decided.
 */
export function appealRoutes(uploads: { objects: ObjectStorage }) {
  return new Hono<AppEnv>()
    .post('/api/submissions/:id/appeal', consented, idParam('id', UUID_PATTERN, msg('api.submissionNotFound')), validate('json', AppealRequest), async (c) => {
      const deps = c.var.deps;
      const user = requireUser(c);
      const submissionId = c.req.param('id').toLowerCase();
      // Only one's own submission: someone else's is as unknown as a missing one.
      const owner = await readWithCatchUp(deps, () => submissionOwner(deps.db, submissionId));
      if (owner !== user.id) throw notFound(msg('api.submissionNotFound'));
      const { note, proofImageUrl } = c.req.valid('json');
      const appealId = commandId();
      const decide = (image: string | null) => {
        const command: UserTaskCommand = { type: 'AppealRejection', data: { submissionId, appealId, note, proofImageUrl: image }, now: deps.now().toISOString() };
        return handleCommand(deps.store, streams.user(user.id), userDecider, command, { actor: user.id });
      };
      let position: number;
      if (proofImageUrl) {
        // A new picture is accepted like a proof's: this person's upload, re-encoded, under its lasting address.
        const image = await acceptUploadedImage(uploads.objects, proofImageUrl, user.id, { field: 'proofImageUrl', purpose: 'proof' });
        ({ position } = await withAcceptedImages([image], () => decide(image.objectURL)));
      } else ({ position } = await decide(null));
      await deps.runner.waitFor(position);
      return c.json({ id: appealId, status: 'open' } satisfies AppealOpenedBody, 201);
    })
    .get('/api/admin/appeals', withRole('reviewer'), validate('query', AppealsQuery), async (c) => c.json(await listAppeals(c.var.deps.db, c.req.valid('query').status)))
    .post('/api/admin/appeals/:id/decide', withRole('reviewer'), idParam('id', UUID_PATTERN, msg('appeal.notFound')), validate('json', DecideAppealRequest), async (c) => {
      const deps = c.var.deps;
      const reviewer = requireRole(c, 'reviewer');
      const appealId = c.req.param('id').toLowerCase();
      const owner = await readWithCatchUp(deps, () => appealOwner(deps.db, appealId));
      if (!owner) throw notFound(msg('appeal.notFound'));
      const { decision, reason } = c.req.valid('json');
      const command: UserTaskCommand = {
        type: 'DecideAppeal',
        data: { appealId, reviewerId: reviewer.id, decision, reason, entryId: commandId(), notificationId: commandId() },
        now: deps.now().toISOString(),
      };
      const { position } = await handleCommand(deps.store, streams.user(owner), userDecider, command, { actor: reviewer.id });
      await deps.runner.waitFor(position);
      const decided = await findAppeal(deps.db, appealId);
      if (!decided) throw notYetVisible();
      return c.json(decided, 200);
    });
}
