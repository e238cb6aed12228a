/**
 * Tests that need dotnet or Chromium skip with a printed reason on a machine without them, but
 * under CI=true a missing tool fails the run: CI must never pass by skipping.
 */
export function skipOrFail(missingReason: string | undefined, what: string): boolean {
  if (missingReason === undefined) return false;
  if (process.env.CI === 'true') throw new Error(`CI=true but ${what} cannot run: ${missingReason}`);
  console.warn(`SKIPPED ${what}: ${missingReason}`);
  return true;
}
