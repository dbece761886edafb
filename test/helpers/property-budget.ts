import fc from 'fast-check';

/**
 * Checks an async `property` on `numRuns` generated values, or as many as fit in `budgetMs`: a
 * loaded CI machine runs properties 10 to 20 times slower than an idle one, and a property cut short
 * by the test's time-out proves nothing at all. Every run that does happen still checks the whole
 * property. The first `minRuns` runs always complete: fast-check fails a property interrupted before
 * any run finished ("Property interrupted after 0 tests", whose seed then replays green), which is
 * the machine's slowness, not a counterexample; only a counterexample (or too many `fc.pre`
 * rejections) fails here.
 */
export async function assertWithinBudget<T>(
  property: fc.IAsyncProperty<T>,
  { numRuns, minRuns, budgetMs = 8_000 }: { numRuns: number; minRuns: number; budgetMs?: number },
): Promise<void> {
  await fc.assert(property, { numRuns: minRuns });
  const details = await fc.check(property, {
    numRuns: numRuns - minRuns,
    interruptAfterTimeLimit: budgetMs,
  });
  const outOfTimeOnly = details.interrupted && details.counterexample === null;
  if (details.failed && !outOfTimeOnly) throw new Error(fc.defaultReportMessage(details));
}
