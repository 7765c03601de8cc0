import { streams } from '@kamai/contracts';
import { afterAll, describe, expect, it } from 'vitest';
import { grantRole } from '../auth/accounts.ts';
import { TINY_PNG } from '../object-storage/testing.ts';
import { CrashableApi, INLINE_COMMITS, registerAt } from '../testing/crash.ts';
import { TestClient, freshMobile } from '../testing/server.ts';
import { bonusWorkflowId } from './award.ts';

// The invited person's bonus, its workflow killed after the approval's append and after each of its
// own (testing/crash-main.ts), until a run goes through: the next process's start-up sweep resumes
// it. Afterwards the bonus was counted, recorded and credited once, and the books balance.

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.each(INLINE_COMMITS)('an invitation bonus killed after every append ($name)', ({ env }) => {
  it('is resumed by the next process and paid once', async () => {
    const { api, store } = await CrashableApi.inFreshDataDir('kamai-crash-invitations-', env, cleanups);
    const as = (client: TestClient) => client.clone(api.url);
    const admin = await registerAt(api.url, 'Kavya');
    const reviewer = await registerAt(api.url, 'Rohan');
    const finance = await registerAt(api.url, 'Neha');
    await grantRole(store, admin.userId, 'admin', 'test', new Date());
    await grantRole(store, reviewer.userId, 'reviewer', 'test', new Date());
    await grantRole(store, finance.userId, 'finance', 'test', new Date());
    const task = await as(admin).post('/api/admin/tasks', {
      title: 'Rate the crash shop', description: 'Rate it.', rupeeReward: '150', estimatedTime: '3 min', taskType: 'rating', requiresProof: true, isActive: true, iconColor: '#3B82F6',
    });
    expect(task.status).toBe(201);
    const events = (streamId: string) => store.readStream(streamId);
    const completed = async (inviteeId: string) => (await events(streams.workflow(bonusWorkflowId(inviteeId, 'invitee')))).some((e) => e.type === 'WorkflowCompleted');
    const until = async (done: () => Promise<boolean>) => {
      const deadline = Date.now() + 20_000;
      while (!(await done())) {
        if (Date.now() > deadline) throw new Error('timed out');
        await new Promise((wait) => setTimeout(wait, 50));
      }
    };

    let kills = 0;
    for (let n = 1; n < 20; n++) {
      const inviter = await registerAt(api.url, 'Kiran');
      const code = (await as(inviter).get('/api/profile/invite')).body.code as string;
      const invitee = new TestClient(api.url);
      const registered = await invitee.post('/api/auth/register', { mobile: freshMobile(), password: 'secret123', firstName: 'Farah', lastName: 'Test', consent: true, inviteCode: code });
      expect(registered.status).toBe(201);
      const inviteeId = registered.body.id as string;
      const slot = await as(invitee).post('/api/objects/upload');
      expect((await fetch(new URL(slot.body.uploadURL, api.url), { method: 'PUT', body: TINY_PNG, headers: { 'content-type': 'image/png' } })).status).toBe(201);
      const sent = await as(invitee).post(`/api/tasks/${task.body.id}/submit-proof`, { proofImageUrl: slot.body.objectURL, proofDescription: 'Rated' });
      expect(sent.status).toBe(201);

      // Armed, then approved: the approval is the 1st append, the bonus's workflow the ones after.
      const { died } = await api.killedAfter(
        n,
        () => as(reviewer).post(`/api/admin/submissions/${sent.body.submissionId}/approve`),
        (stillArmed) => until(async () => !stillArmed() || (await completed(inviteeId))),
      );
      if (died) {
        kills++;
        await until(() => completed(inviteeId));
      }

      const credits = (await events(streams.user(inviteeId))).filter((e) => e.type === 'WalletCredited').map((e) => (e.data as { kind: string }).kind);
      expect(credits.sort(), `after ${n}`).toEqual(['referral_bonus', 'task_reward']);
      const counted = (await events(streams.invitationProgramme())).filter((e) => (e.data as { inviteeId?: string }).inviteeId === inviteeId);
      expect(counted, `after ${n}`).toHaveLength(1);
      expect((await events(streams.invitation(inviteeId))).map((e) => e.type), `after ${n}`).toEqual(['InvitationAccepted', 'InvitationBonusAwarded']);
      if (!died) break;
    }
    expect(kills).toBeGreaterThanOrEqual(8);
    expect((await as(finance).get('/api/admin/ledger/reconciliation')).body.difference).toBe('0.00');
    expect((await as(finance).get('/api/admin/ledger/verify')).body.ok).toBe(true);
  }, 300_000);
});
