import { randomUUID } from 'node:crypto';
import type { TaskBody } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestClient, type TestServer, startTestServer } from '../testing/index.ts';
import { createTaskAs, taskInput } from './testing.ts';

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
      taskType: 'website',
      taskUrl: null,
      isActive: true,
      iconColor: '#3B82F6',
      requiresProof: true,
      proofInstructions: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
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
    ];
    for (const [body, field, message] of cases) {
      const res = await admin.post('/api/admin/tasks', body);
      expect(res.status, `${field}: ${JSON.stringify(body[field])}`).toBe(400);
      expect(res.body.error.code).toBe('validation_failed');
      expect(res.body.error.fields[field]).toMatch(message);
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
    const res = await admin.put<TaskBody>(`/api/admin/tasks/${task.id}`, taskInput({ title: 'Rate PhonePe again', rupeeReward: '30', isActive: false }));
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: task.id, title: 'Rate PhonePe again', rupeeReward: '30.00', isActive: false, createdAt: task.createdAt });
    const unchanged = await admin.put<TaskBody>(`/api/admin/tasks/${task.id}`, taskInput({ title: 'Rate PhonePe again', rupeeReward: '30.00', isActive: false }));
    expect(unchanged.status).toBe(200);
    expect(unchanged.body).toEqual(res.body);
    const listed = (await admin.get<TaskBody[]>('/api/admin/tasks')).body.find((t) => t.id === task.id);
    expect(listed).toEqual(res.body);
    const bad = await admin.put(`/api/admin/tasks/${task.id}`, taskInput({ rupeeReward: '0.001' }));
    expect(bad.status).toBe(400);
  });

  it('answers 404 for an unknown, malformed or deleted task id', async () => {
    for (const id of [randomUUID(), 'not-a-uuid', '1', '%27%20OR%201%3D1']) {
      expect((await admin.put(`/api/admin/tasks/${id}`, taskInput())).status).toBe(404);
      expect((await admin.delete(`/api/admin/tasks/${id}`)).status).toBe(404);
    }
  });

  it('deletes a task: gone from both lists, a second delete or an update is 404', async () => {
    const task = await createTaskAs(admin);
    const res = await admin.delete(`/api/admin/tasks/${task.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: task.id, deleted: true });
    expect((await admin.get<TaskBody[]>('/api/admin/tasks')).body.map((t) => t.id)).not.toContain(task.id);
    expect((await user.get<TaskBody[]>('/api/tasks')).body.map((t) => t.id)).not.toContain(task.id);
    expect((await admin.delete(`/api/admin/tasks/${task.id}`)).status).toBe(404);
    const update = await admin.put(`/api/admin/tasks/${task.id}`, taskInput());
    expect(update.status).toBe(404);
    expect(update.body.error.message).toBe('Task not found');
  });
});
