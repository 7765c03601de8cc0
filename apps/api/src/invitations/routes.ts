import { type InvitationBody, InvitationsQuery, formatPaise, isInvitationRefusal } from '@kamai/contracts';
import { accountHolders, listInvitations } from '@kamai/projections';
import { Hono } from 'hono';
import { isHttps, requireUser } from '../auth/sessions.ts';
import type { AppEnv } from '../deps.ts';
import { signedIn, withRole } from '../http/guards.ts';
import { validate } from '../http/validate.ts';
import { caughtUp } from '../finance/ledger-routes.ts';
import { inviteCodeOf } from './codes.ts';

const refusalOf = (code: string | null) => (code !== null && isInvitationRefusal(code) ? code : null);
const statusOf = (status: string) => (status === 'paid' || status === 'refused' ? status : 'pending');

export const invitationRoutes = new Hono<AppEnv>()
  /** The caller's invite code and the link that carries it (the register screen reads `?invite=`). */
  .get('/api/profile/invite', signedIn, async (c) => {
    const user = requireUser(c);
    const code = await inviteCodeOf(c.var.deps, user.id);
    const host = c.req.header('host') ?? new URL(c.req.url).host;
    const link = `${isHttps(c) ? 'https' : 'http'}://${host}/register?invite=${code}`;
    return c.json({ code, link });
  })
  /** Finance: invitations, with each bonus's outcome and the refusal's reason code; ids and masked numbers only. */
  .get('/api/admin/invitations', withRole('finance'), validate('query', InvitationsQuery), async (c) => {
    const deps = c.var.deps;
    const { status } = c.req.valid('query');
    await caughtUp(deps);
    const rows = await listInvitations(deps.db, status);
    const holders = await accountHolders(deps.db, rows.flatMap((r) => [r.invitee_id, r.inviter_id]));
    const body: InvitationBody[] = rows.map((r) => ({
      inviteeId: r.invitee_id,
      inviterId: r.inviter_id,
      inviteeMobile: holders.get(r.invitee_id)?.mobile ?? null,
      inviterMobile: holders.get(r.inviter_id)?.mobile ?? null,
      status: statusOf(r.status),
      refusal: refusalOf(r.refusal),
      invitee: { status: statusOf(r.invitee_status), amount: r.invitee_status === 'paid' ? formatPaise(r.invitee_amount_paise) : null, refusal: refusalOf(r.invitee_refusal) },
      inviter: { status: statusOf(r.inviter_status), amount: r.inviter_status === 'paid' ? formatPaise(r.inviter_amount_paise) : null, refusal: refusalOf(r.inviter_refusal) },
      acceptedAt: r.accepted_at,
    }));
    return c.json(body);
  });
