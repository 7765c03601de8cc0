import type { Reporter, TestModule } from 'vitest/node';

/** How many of the slowest files the closing lines name. */
const SLOWEST = 15;

/**
 * Prints one plain closing line, `Tests: N passed, N failed, N skipped`, after vitest's own summary,
 * so tools that read a run's last lines (CI among them) can count the tests without knowing vitest;
 * above it, the slowest files by their own time, since CI shows only a run's tail and the suite's
 * length is a budget (README, "Tests").
 */
export default class SummaryLine implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed += 1;
        else if (state === 'failed') failed += 1;
        else skipped += 1;
      }
      // A file that failed to load has no tests to count, but it is a failure.
      if (module.state() === 'failed' && [...module.children.allTests()].length === 0) failed += 1;
    }
    const slowest = testModules
      .map((module) => ({ file: module.relativeModuleId, project: module.project.name, seconds: module.diagnostic().duration / 1000 }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, SLOWEST);
    console.log(`\nSlowest files (tests and hooks, seconds):`);
    for (const { file, project, seconds } of slowest) console.log(`${seconds.toFixed(1).padStart(7)}  ${project.padEnd(4)}  ${file}`);
    console.log(`\nTests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
  }
}
