import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PROOF_SIMILARITY_MAX_DISTANCE, hammingDistance } from '@kamai/contracts';
import { differenceHash } from '../object-storage/dhash.ts';

export interface PairResult {
  a: string;
  b: string;
  distance: number;
  /** Both files show the same screen (one is a copy of the other, or both are copies of one). */
  same: boolean;
  flagged: boolean;
}

export interface SimilarityReport {
  threshold: number;
  files: { name: string; hash: string }[];
  pairs: PairResult[];
  /** Same-screen pairs flagged, and those missed. */
  caught: PairResult[];
  missed: PairResult[];
  /** Different screens flagged as the same. */
  falseFlags: PairResult[];
  /** The largest distance between copies of one screen, and the smallest between different screens. */
  widestCopy: number;
  closestDistinct: number;
}

/** A file's source screen: its name before the first dot (`game-2.jpeg.jpg` -> `game-2`). */
export const sourceOf = (name: string) => name.split('.')[0] ?? name;

/**
 * Hashes every image of `dir` and judges every pair at `threshold`: a pair of one screen must be
 * flagged (a catch), a pair of different screens must not (else a false flag).
 */
export async function similarityReport(dir: string, threshold = PROOF_SIMILARITY_MAX_DISTANCE): Promise<SimilarityReport> {
  const names = (await readdir(dir)).filter((name) => /\.(png|jpe?g|webp)$/i.test(name)).sort();
  const files: { name: string; hash: string }[] = [];
  for (const name of names) {
    const hash = await differenceHash(await readFile(join(dir, name)));
    if (hash === null) throw new Error(`${name} does not decode as an image`);
    files.push({ name, hash });
  }
  const pairs: PairResult[] = [];
  for (let i = 0; i < files.length; i++) {
    for (let j = i + 1; j < files.length; j++) {
      const a = files[i];
      const b = files[j];
      if (!a || !b) continue;
      const distance = hammingDistance(a.hash, b.hash);
      pairs.push({ a: a.name, b: b.name, distance, same: sourceOf(a.name) === sourceOf(b.name), flagged: distance <= threshold });
    }
  }
  const same = pairs.filter((p) => p.same);
  const distinct = pairs.filter((p) => !p.same);
  return {
    threshold,
    files,
    pairs,
    caught: same.filter((p) => p.flagged),
    missed: same.filter((p) => !p.flagged),
    falseFlags: distinct.filter((p) => p.flagged),
    widestCopy: Math.max(0, ...same.map((p) => p.distance)),
    closestDistinct: Math.min(64, ...distinct.map((p) => p.distance)),
  };
}

/** The report as an operator reads it. */
export function formatSimilarityReport(report: SimilarityReport): string {
  const lines = [
    `proof similarity: ${report.files.length} images, ${report.pairs.length} pairs, threshold ${report.threshold} of 64 bits`,
    `copies of one screen: ${report.caught.length} caught, ${report.missed.length} missed (widest distance ${report.widestCopy})`,
    `different screens: ${report.falseFlags.length} false flags (closest distance ${report.closestDistinct})`,
  ];
  for (const p of report.missed) lines.push(`  missed      ${p.a} ~ ${p.b}: ${p.distance}`);
  for (const p of report.falseFlags) lines.push(`  false flag  ${p.a} ~ ${p.b}: ${p.distance}`);
  return lines.join('\n');
}
