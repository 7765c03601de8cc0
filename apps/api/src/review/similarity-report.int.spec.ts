import { fileURLToPath } from 'node:url';
import { PROOF_SIMILARITY_MAX_DISTANCE, hammingDistance } from '@kamai/contracts';
import { describe, expect, it } from 'vitest';
import { similarityReport, sourceOf } from './similarity-report.ts';

const FIXTURES = fileURLToPath(new URL('../../../../scripts/fixtures/proofs', import.meta.url));

describe('the near-duplicate check on the committed image set', () => {
  it('catches every resized, re-encoded and cropped copy and flags no two different screens', async () => {
    const report = await similarityReport(FIXTURES);
    expect(report.threshold).toBe(PROOF_SIMILARITY_MAX_DISTANCE);
    // The set holds what it claims: several apps, two screens each, every kind of copy of each.
    const sources = new Set(report.files.map((f) => sourceOf(f.name)));
    expect(sources.size).toBeGreaterThanOrEqual(8);
    for (const source of sources) {
      const names = report.files.filter((f) => sourceOf(f.name) === source).map((f) => f.name.slice(source.length));
      expect(names.sort()).toEqual(['.cropped.png', '.jpeg.jpg', '.png', '.resized-jpeg.jpg', '.resized.png']);
    }
    expect(report.missed).toEqual([]);
    expect(report.falseFlags).toEqual([]);
    expect(report.caught.length).toBe(sources.size * 10);
  });

  it('measures the distance as differing bits of the 64', () => {
    expect(hammingDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hammingDistance('8000000000000001', '0000000000000000')).toBe(2);
    expect(hammingDistance('3e8e8e8e8e8e8e8e', '3e8e8e8e8e8e8e8e')).toBe(0);
  });
});
