import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type ApiProcess, startApiProcess } from '../testing/process.ts';
import { SECOND_PROCESS_WARNING, takeProcessSlot } from './processes.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'kamai-second-process-'));
const started: ApiProcess[] = [];
afterAll(async () => {
  await Promise.all(started.map((p) => p.stop()));
  rmSync(dataDir, { recursive: true, force: true });
});

/** The server's own process: the launcher (tsx) runs it as its child (Linux /proc). */
function serverPid(p: ApiProcess): number {
  const pid = p.child.pid!;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  return children[0] ?? pid;
}

/** Kills the server as a crash would: no shutdown, nothing released by it; its launcher then exits. */
function crash(p: ApiProcess): Promise<void> {
  return new Promise((resolve) => {
    if (p.child.exitCode !== null || p.child.signalCode !== null) return resolve();
    p.child.once('exit', () => resolve());
    process.kill(serverPid(p), 'SIGKILL');
  });
}

describe('a second API process on one SQLite DATA_DIR (issue 39)', () => {
  it('says at its start why it will not help and where to go instead; the first says nothing of it; a crashed one leaves no claim', async () => {
    const first = await startApiProcess(dataDir);
    started.push(first);
    const second = await startApiProcess(dataDir);
    started.push(second);
    expect(second.output()).toContain(SECOND_PROCESS_WARNING);
    expect(second.output().split(SECOND_PROCESS_WARNING).length).toBe(2);
    expect(SECOND_PROCESS_WARNING).toContain('docs/scale-out.md');
    expect(first.output()).not.toContain('another Kamai API process');

    // Both die without a word: the OS drops their locks, so the next one is alone again.
    await Promise.all([crash(first), crash(second)]);
    const next = await startApiProcess(dataDir);
    started.push(next);
    expect(next.output()).not.toContain('another Kamai API process');
  });

  it('sees a slot held in this process too, and a released one as free', () => {
    const dir = mkdtempSync(join(tmpdir(), 'kamai-slots-'));
    try {
      const a = takeProcessSlot(dir);
      const b = takeProcessSlot(dir);
      expect([a.othersRunning, b.othersRunning]).toEqual([false, true]);
      // The first leaves: the second, in the higher slot, is still seen by a newcomer.
      a.release();
      const c = takeProcessSlot(dir);
      expect(c.othersRunning).toBe(true);
      b.release();
      c.release();
      const d = takeProcessSlot(dir);
      expect(d.othersRunning).toBe(false);
      d.release();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
