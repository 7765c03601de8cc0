import { KYC_BONUS_PAISE, KycDocumentRequest, formatPaise, streams } from '@kamai/contracts';
import { assertKycDocumentOpen, userEvolver } from '@kamai/domain';
import { findKycDocument, listKycDocuments, toKycDocumentBody } from '@kamai/projections';
import { Hono } from 'hono';
import { requireUser } from '../auth/sessions.ts';
import { loadStream } from '../commands/handle.ts';
import type { AppEnv } from '../deps.ts';
import { notYetVisible } from '../http/errors.ts';
import { signedIn } from '../http/guards.ts';
import { consented } from '../profile/consent.ts';
import { validate } from '../http/validate.ts';
import { type ObjectStorage, acceptUploadedImage, withAcceptedImages } from '../object-storage/index.ts';
import { claimKycBonus, submitKycDocument } from './commands.ts';

/**
 * The signed-in user's KYC routes: their documents, submitting one (front and back
 * images uploaded with purpose `kyc`), and claiming the bonus once both are approved.
 */
export function kycRoutes(deps: { objects: ObjectStorage }) {
  return new Hono<AppEnv>()
    .get('/api/kyc/documents', signedIn, async (c) => c.json(await listKycDocuments(c.var.deps.db, requireUser(c).id)))
    .post('/api/kyc/documents', consented, validate('json', KycDocumentRequest), async (c) => {
      const { store, db, runner, now } = c.var.deps;
      const user = requireUser(c);
      const { documentType, frontImageUrl, backImageUrl, panNumber } = c.req.valid('json');

      // A locked document is refused before any work on its images; the decider checks it again.
      const { state } = await loadStream(store, streams.user(user.id), userEvolver);
      assertKycDocumentOpen(state.kyc, documentType);

      const front = await acceptUploadedImage(deps.objects, frontImageUrl, user.id, { field: 'frontImageUrl', purpose: 'kyc' });
      let back;
      try {
        back = await acceptUploadedImage(deps.objects, backImageUrl, user.id, { field: 'backImageUrl', purpose: 'kyc' });
      } catch (err) {
        await front.abandon().catch(() => undefined);
        throw err;
      }
      const images = [front, back];
      const { events, position } = await withAcceptedImages(images, () =>
        submitKycDocument(
          store,
          user.id,
          { documentType, front: { url: front.objectURL, sha256: front.sha256 }, back: { url: back.objectURL, sha256: back.sha256 }, panNumber },
          now(),
        ),
      );
      await runner.waitFor(position);
      const submitted = events.find((e) => e.type === 'KycDocumentSubmitted');
      const row = submitted?.type === 'KycDocumentSubmitted' ? await findKycDocument(db, submitted.data.documentId) : undefined;
      if (!row) throw notYetVisible();
      return c.json(toKycDocumentBody(row), 201);
    })
    .post('/api/kyc/complete', consented, async (c) => {
      const { store, runner, now } = c.var.deps;
      const user = requireUser(c);
      const { view: balance, position } = await claimKycBonus(store, user.id, now());
      // Answer once the wallet read model shows the credit, so the client's next read sees it.
      await runner.waitFor(position);
      return c.json({ rupees: formatPaise(KYC_BONUS_PAISE), balance: formatPaise(balance) }, 200);
    });
}
