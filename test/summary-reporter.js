/**
 * Ends a Jest run with the plain closing line CI reads: "tests: N passed, N failed, N skipped".
 * Written at exit, so it comes after Jest's own summary.
 */
export default class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const line = `\ntests: ${results.numPassedTests} passed, ${results.numFailedTests} failed, ${skipped} skipped\n`;
    process.once('exit', () => process.stderr.write(line));
  }
}
