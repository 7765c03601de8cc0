import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Hono } from 'hono';
import { DiskStorage } from './disk.ts';
import { objectRoutes } from './routes.ts';
import { objectStorageContract } from './storage.contract.ts';
import { serveApp, tempDir, testClock, testCurrentUser } from './testing.ts';

objectStorageContract(
  'disk, PUT through the routes on a real server',
  async () => {
    const dir = await tempDir('disk');
    const clock = testClock();
    const storage = new DiskStorage({ root: path.join(dir, 'objects'), secret: randomBytes(32), now: clock.now });
    const app = new Hono().route('/', objectRoutes({ storage, currentUser: testCurrentUser }));
    const server = await serveApp(app);
    return {
      storage,
      baseURL: server.baseURL,
      clock,
      async writeRaw(key, bytes) {
        const file = path.join(storage.root, key);
        await mkdir(path.dirname(file), { recursive: true });
        await writeFile(file, bytes);
      },
      async close() {
        await server.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
  },
  { verifiesSignatures: true },
);
