import { type TaskBody, parseRupees } from '@kamai/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../seed.ts';
import { TestClient, type TestServer, startTestServer } from '../testing/index.ts';

describe('demo task catalogue', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ SEED_DEMO: 'true' });
  });
  afterAll(() => server.close());

  it('seeds active tasks of every type within the spec ranges, in English and Hindi, created by the demo admin', async () => {
    const user = new TestClient(server.url);
    const demo = DEMO_ACCOUNTS.find((a) => a.label === 'user')!;
    expect((await user.post('/api/auth/login', { mobile: demo.mobile, password: demo.password })).status).toBe(200);
    const tasks = (await user.get<TaskBody[]>('/api/tasks')).body;
    const ranges = { rating: [10, 25, 2, 5], website: [5, 15, 1, 3], game: [15, 50, 5, 15] } as const;
    for (const [type, [minRupees, maxRupees, minMinutes, maxMinutes]] of Object.entries(ranges)) {
      const ofType = tasks.filter((t) => t.taskType === type);
      expect(ofType.length, type).toBeGreaterThanOrEqual(3);
      for (const task of ofType) {
        const paise = parseRupees(task.rupeeReward)!;
        expect(paise).toBeGreaterThanOrEqual(minRupees * 100);
        expect(paise).toBeLessThanOrEqual(maxRupees * 100);
        const minutes = Number(/^(\d+) min$/.exec(task.estimatedTime)?.[1]);
        expect(minutes).toBeGreaterThanOrEqual(minMinutes);
        expect(minutes).toBeLessThanOrEqual(maxMinutes);
        expect(task.estimatedMinutes).toBe(minutes);
        // Every demo text also in Hindi (Devanagari), so a Hindi reader sees no English task text.
        for (const text of [task.hi?.title, task.hi?.description, task.hi?.proofInstructions]) expect(text).toMatch(/[\u0900-\u097F]/);
        expect(task).toMatchObject({ isActive: true, requiresProof: true, taskUrl: expect.stringMatching(/^https:\/\//) });
      }
    }
  });
});
