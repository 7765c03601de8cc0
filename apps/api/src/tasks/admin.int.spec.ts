import { randomUUID } from 'node:crypto';
import { type MessageRef, SERVER_MESSAGES, type TaskBody, serverText } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/index.ts';
import { createTaskAs, etagAs, taskInput, updateTaskAs } from './testing.ts';

describe('admin task catalogue over HTTP', () => {
  let server: TestServer;
  let admin: TestClient;
  let user: TestClient;
  let reviewer: TestClient;

  beforeAll(async () => {
    server = await startTestServer();
    admin = await server.signUp({ roles: ['admin'] });
    user = await server.signUp();
    reviewer = await server.signUp({ roles: ['reviewer'] });
  });
  afterAll(() => server.close());

  it('answers 401 when signed out and 403 without the admin role, before looking at the body', async () => {
    const anonymous = server.client();
    const id = randomUUID();
    const calls = (client: TestClient) => [
      client.get('/api/admin/tasks'),
      client.post('/api/admin/tasks', { title: 5 }),
      client.put(`/api/admin/tasks/${id}`, taskInput()),
      client.delete(`/api/admin/tasks/${id}`),
    ];
    for (const res of await Promise.all(calls(anonymous))) {
      expect(res.status).toBe(401);
      expect(res.body.error.code).toBe('unauthenticated');
    }
    for (const client of [user, reviewer]) {
      for (const res of await Promise.all(calls(client))) {
        expect(res.status).toBe(403);
        expect(res.body.error.code).toBe('forbidden');
      }
    }
  });

  it('creates a task with the form defaults for what is not sent', async () => {
    const res = await admin.post<TaskBody>('/api/admin/tasks', { title: '  Visit DigiLocker ', description: 'Open the site' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      title: 'Visit DigiLocker',
      description: 'Open the site',
      rupeeReward: '10.00',
      estimatedTime: '5 min',
      estimatedMinutes: 5,
      taskType: 'website',
      taskUrl: null,
      isActive: true,
      iconColor: '#3B82F6',
      requiresProof: true,
      proofInstructions: null,
      hi: null,
      maxCompletions: null,
      expiresAt: null,
      slotsUsed: 0,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
  });

  it('takes Hindi texts beside the English, and answers them on every read; a text left out is null (English shows)', async () => {
    const hi = { title: '  PhonePe को रेटिंग दें ', description: 'ईमानदार रेटिंग दें', proofInstructions: '' };
    const task = await createTaskAs(admin, { hi, estimatedMinutes: 4 });
    const expected = { title: 'PhonePe को रेटिंग दें', description: 'ईमानदार रेटिंग दें', proofInstructions: null };
    expect(task).toMatchObject({ title: 'Rate PhonePe on Google Play', hi: expected, estimatedMinutes: 4, estimatedTime: '4 min' });
    expect((await admin.get<TaskBody>(`/api/admin/tasks/${task.id}`)).body.hi).toEqual(expected);
    const listed = (await admin.get<TaskBody[]>('/api/tasks')).body.find((t) => t.id === task.id);
    expect(listed).toMatchObject({ hi: expected, estimatedMinutes: 4, estimatedTime: '4 min' });

    // An edit that leaves Hindi out makes the task English only; empty Hindi texts are none at all.
    const edited = await updateTaskAs(admin, task.id, { ...taskInput(), hi: { title: ' ', description: '', proofInstructions: null } });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ hi: null, estimatedTime: '3 min', estimatedMinutes: 3 });
  });

  it('reads the minutes of an estimated time sent as text; a text of no single number has none', async () => {
    expect(await createTaskAs(admin, { estimatedTime: '1 hour' })).toMatchObject({ estimatedTime: '1 hour', estimatedMinutes: 60 });
    expect(await createTaskAs(admin, { estimatedTime: '2-5 min' })).toMatchObject({ estimatedTime: '2-5 min', estimatedMinutes: null });
  });

  it('takes a completion limit and a last day (IST, included): the task ends at the start of the next IST day', async () => {
    const task = await createTaskAs(admin, { maxCompletions: 25, expiresOn: '2026-12-31' });
    expect(task).toMatchObject({ maxCompletions: 25, expiresAt: '2026-12-31T18:30:00.000Z', slotsUsed: 0 });
    const bad = await admin.post('/api/admin/tasks', { title: 't', description: 'd', maxCompletions: 0, expiresOn: '2026-02-30' });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.error.fields).sort()).toEqual(['expiresOn', 'maxCompletions']);
  });

  it('creates a task with every field of the spec body, reward as a two-place decimal string', async () => {
    const task = await createTaskAs(admin, { rupeeReward: '25.5', taskType: 'game', proofInstructions: '', taskUrl: '' });
    expect(task).toMatchObject({ rupeeReward: '25.50', taskType: 'game', proofInstructions: null, taskUrl: null });
    const numeric = await createTaskAs(admin, { rupeeReward: 12.75 });
    expect(numeric.rupeeReward).toBe('12.75');
  });

  it('refuses bad input with 400 and a message per field', async () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ ...taskInput(), title: '' }, 'title', /Title is required/],
      [{ ...taskInput(), title: undefined }, 'title', /Title is required/],
      [{ ...taskInput(), description: '   ' }, 'description', /Description is required/],
      [{ ...taskInput(), title: 42 }, 'title', /Title is required/],
      [{ ...taskInput(), rupeeReward: '' }, 'rupeeReward', /Reward is required/],
      [{ ...taskInput(), rupeeReward: '1.234' }, 'rupeeReward', /at most two decimals/],
      [{ ...taskInput(), rupeeReward: '-5' }, 'rupeeReward', /positive rupee amount/],
      [{ ...taskInput(), rupeeReward: 0 }, 'rupeeReward', /positive rupee amount/],
      [{ ...taskInput(), rupeeReward: 'ten' }, 'rupeeReward', /positive rupee amount/],
      [{ ...taskInput(), rupeeReward: '1e3' }, 'rupeeReward', /positive rupee amount/],
      [{ ...taskInput(), rupeeReward: true }, 'rupeeReward', /positive rupee amount/],
      [{ ...taskInput(), estimatedTime: ' ' }, 'estimatedTime', /Estimated time is required/],
      [{ ...taskInput(), taskUrl: 'not a url' }, 'taskUrl', /valid URL/],
      [{ ...taskInput(), taskUrl: 'javascript:alert(1)' }, 'taskUrl', /valid URL/],
      [{ ...taskInput(), taskType: 'video' }, 'taskType', /rating, website or game/],
      [{ ...taskInput(), isActive: 'yes' }, 'isActive', /true or false/],
      [{ ...taskInput(), requiresProof: 1 }, 'requiresProof', /true or false/],
      [{ ...taskInput(), iconColor: 'blue' }, 'iconColor', /hex colour/],
      [{ ...taskInput(), title: 'x'.repeat(121) }, 'title', /at most 120/],
      [{ ...taskInput(), estimatedMinutes: 2.5 }, 'estimatedMinutes', /whole number of minutes/],
      [{ ...taskInput(), estimatedMinutes: 0 }, 'estimatedMinutes', /whole number of minutes/],
      [{ ...taskInput(), hi: { title: 'क'.repeat(121) } }, 'hi.title', /at most 120/],
    ];
    for (const [body, field, message] of cases) {
      const res = await admin.post('/api/admin/tasks', body);
      expect(res.status, `${field}: ${JSON.stringify(body[field])}`).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.fields[field]).toMatch(message);
      // Each field's message is a catalogue key (the schema's own), its English text beside it.
      for (const [name, ref] of Object.entries(res.body.error.fieldKeys as Record<string, MessageRef>)) {
        expect(Object.hasOwn(SERVER_MESSAGES, ref.key), `${name}: ${ref.key}`).toBe(true);
        expect(res.body.error.fields[name]).toBe(serverText(ref));
      }
    }
  });

  it('refuses a body that is not JSON, or not an object', async () => {
    const malformed = await admin.request('POST', '/api/admin/tasks', '{"title":', { 'content-type': 'application/json' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.code).toBe('validation_failed');
    const array = await admin.post('/api/admin/tasks', [1, 2]);
    expect(array.status).toBe(400);
    const text = await admin.request('POST', '/api/admin/tasks', 'title=x', { 'content-type': 'text/plain' });
    expect(text.status).toBe(400);
  });

  it('lists every task for the admin, only active ones for users', async () => {
    const active = await createTaskAs(admin, { title: 'Active one' });
    const inactive = await createTaskAs(admin, { title: 'Inactive one', isActive: false });
    const adminList = (await admin.get<TaskBody[]>('/api/admin/tasks')).body.map((t) => t.id);
    expect(adminList).toEqual(expect.arrayContaining([active.id, inactive.id]));
    const userList = await user.get<TaskBody[]>('/api/tasks');
    expect(userList.status).toBe(200);
    expect(userList.body.map((t) => t.id)).toContain(active.id);
    expect(userList.body.map((t) => t.id)).not.toContain(inactive.id);
  });

  it('updates a task with the same body, and a read right after sees it', async () => {
    const task = await createTaskAs(admin);
    const res = await updateTaskAs(admin, task.id, taskInput({ title: 'Rate PhonePe again', rupeeReward: '30', isActive: false }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: task.id, title: 'Rate PhonePe again', rupeeReward: '30.00', isActive: false, createdAt: task.createdAt });
    expect(res.headers.get('etag')).toBe('"1"');
    const unchanged = await updateTaskAs(admin, task.id, taskInput({ title: 'Rate PhonePe again', rupeeReward: '30.00', isActive: false }));
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toEqual(res.body);
    // Nothing changed, so nothing was appended: the revision stays.
    expect(unchanged.headers.get('etag')).toBe('"1"');
    // An edit that changes nothing, sent on an older copy: refused as any edit on it would be (the
    // revision is checked before deciding), so the admin learns their copy is old.
    const again = await admin.request<any>('PUT', `/api/admin/tasks/${task.id}`, taskInput({ title: 'Rate PhonePe again', rupeeReward: '30', isActive: false }), {
      'if-match': '"0"',
    });
    expect(again.status).toBe(412);
    expect(again.body.error.code).toBe('precondition_failed');
    const listed = (await admin.get<TaskBody[]>('/api/admin/tasks')).body.find((t) => t.id === task.id);
    expect(listed).toEqual(res.body);
    const one = await admin.get<TaskBody>(`/api/admin/tasks/${task.id}`);
    expect(one.body).toEqual(res.body);
    expect(one.headers.get('etag')).toBe('"1"');
    const bad = await updateTaskAs(admin, task.id, taskInput({ rupeeReward: '0.001' }));
    expect(bad.status).toBe(400);
  });

  it('answers 404 for an unknown, malformed or deleted task id', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', '1', '%27%20OR%201%3D1']) {
      const ifMatch = { 'if-match': '"0"' };
      expect((await admin.request('PUT', `/api/admin/tasks/${id}`, taskInput(), ifMatch)).status).toBe(404);
      expect((await admin.request('DELETE', `/api/admin/tasks/${id}`, undefined, ifMatch)).status).toBe(404);
      expect((await admin.get(`/api/admin/tasks/${id}`)).status).toBe(404);
    }
  });

  it('deletes a task: gone from both lists, a second delete or an update is 404', async () => {
    const task = await createTaskAs(admin);
    const etag = await etagAs(admin, task.id);
    const res = await admin.request<any>('DELETE', `/api/admin/tasks/${task.id}`, undefined, { 'if-match': etag });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: task.id, deleted: true });
    expect((await admin.get<TaskBody[]>('/api/admin/tasks')).body.map((t) => t.id)).not.toContain(task.id);
    expect((await user.get<TaskBody[]>('/api/tasks')).body.map((t) => t.id)).not.toContain(task.id);
    expect((await admin.get(`/api/admin/tasks/${task.id}`)).status).toBe(404);
    expect((await admin.request('DELETE', `/api/admin/tasks/${task.id}`, undefined, { 'if-match': '"1"' })).status).toBe(404);
    const update = await admin.request<any>('PUT', `/api/admin/tasks/${task.id}`, taskInput(), { 'if-match': '"1"' });
    expect(update.status).toBe(404);
    expect(update.body.error.message).toBe('Task not found');
  });

  it('two admins edit one task: the second, working on the older copy, gets 412 and overwrites nothing', async () => {
    const second = await server.signUp({ roles: ['admin'] });
    const task = await createTaskAs(admin, { title: 'Original title' });
    // Both open the edit form on the same revision.
    const first = await etagAs(admin, task.id);
    const stale = await etagAs(second, task.id);
    expect(stale).toBe(first);

    const saved = await admin.request<TaskBody>('PUT', `/api/admin/tasks/${task.id}`, taskInput({ title: 'First admin wins' }), { 'if-match': first });
    expect(saved.status).toBe(200);
    const lost = await second.request<any>('PUT', `/api/admin/tasks/${task.id}`, taskInput({ title: 'Second admin overwrites' }), { 'if-match': stale });
    expect(lost.status).toBe(412);
    expect(lost.body.error).toMatchObject({ code: 'precondition_failed', message: 'This task was changed by someone else' });
    const gone = await second.request<any>('DELETE', `/api/admin/tasks/${task.id}`, undefined, { 'if-match': stale });
    expect(gone.status).toBe(412);

    const now = await admin.get<TaskBody>(`/api/admin/tasks/${task.id}`);
    expect(now.body.title).toBe('First admin wins');
    expect(now.headers.get('etag')).toBe(saved.headers.get('etag'));
    expect((await user.get<TaskBody[]>('/api/tasks')).body.find((t) => t.id === task.id)?.title).toBe('First admin wins');
    // Reloaded, the second admin's edit goes through.
    const retried = await updateTaskAs(second, task.id, taskInput({ title: 'Second admin, after reloading' }));
    expect(retried.status).toBe(200);
    expect(retried.body.title).toBe('Second admin, after reloading');
  });

  it('two edits racing on one revision: exactly one is saved', async () => {
    const task = await createTaskAs(admin);
    const etag = await etagAs(admin, task.id);
    const titles = ['Racer one', 'Racer two', 'Racer three', 'Racer four'];
    const answers = await Promise.all(
      titles.map((title) => admin.request<TaskBody>('PUT', `/api/admin/tasks/${task.id}`, taskInput({ title }), { 'if-match': etag })),
    );
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([200, 412, 412, 412]);
    const winner = answers.find((a) => a.status === 200)!.body.title;
    expect((await admin.get<TaskBody>(`/api/admin/tasks/${task.id}`)).body.title).toBe(winner);
  });

  it('refuses an edit or delete without If-Match (428) or with an ETag that is not one of ours (412)', async () => {
    const task = await createTaskAs(admin, { title: 'Kept as it is' });
    const missing = await admin.put(`/api/admin/tasks/${task.id}`, taskInput({ title: 'No If-Match' }));
    expect(missing.status).toBe(428);
    expect(missing.body.error.code).toBe('precondition_required');
    expect((await admin.delete(`/api/admin/tasks/${task.id}`)).status).toBe(428);
    for (const etag of ['*', 'W/"0"', '0', '"abc"', '"-1"', '"99"']) {
      const res = await admin.request<any>('PUT', `/api/admin/tasks/${task.id}`, taskInput({ title: 'Wrong ETag' }), { 'if-match': etag });
      expect(res.status, etag).toBe(412);
    }
    expect((await admin.get<TaskBody>(`/api/admin/tasks/${task.id}`)).body.title).toBe('Kept as it is');
  });
});
