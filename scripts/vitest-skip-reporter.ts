/**
 * A Vitest reporter that writes every skipped test with its reason (the note given to
 * `context.skip(note)`, or "skipped" when none was given) to the file named by
 * VITEST_SKIPS_FILE, for scripts/test-all.mjs to print: a run must say what it did not check.
 */
import { writeFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestCase } from 'vitest/node';

interface SkippedTest {
  name: string;
  reason: string;
}

export default class SkipReporter implements Reporter {
  private readonly skipped: SkippedTest[] = [];

  onTestCaseResult(testCase: TestCase): void {
    const result = testCase.result();
    if (result.state !== 'skipped') return;
    const file = relative(process.cwd(), testCase.module.moduleId);
    this.skipped.push({ name: `${file} › ${testCase.fullName}`, reason: result.note ?? 'skipped' });
  }

  onTestRunEnd(): void {
    const file = process.env.VITEST_SKIPS_FILE;
    if (file) writeFileSync(file, JSON.stringify(this.skipped, null, 2));
  }
}
