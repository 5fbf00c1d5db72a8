import { vi } from 'vitest';

/**
 * How long a wait for something the system reaches on its own may take before the test is called
 * hung. A hang guard, never a timing assertion: a loaded 2-core CI machine is slow, not wrong, so
 * it sits just under the suite's 60 s test timeout (which a wait in a test with a longer timeout
 * can raise through `timeoutMs`).
 */
export const HANG_GUARD_MS = 55_000;

/**
 * Waits until `condition` holds — the one wait of the tests, on `vi.waitFor`. `what` names the
 * wait in the error a hung test ends with (default: the condition's own source text).
 */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string = String(condition),
  timeoutMs: number = HANG_GUARD_MS,
): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await condition())) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: 10 },
  );
}
