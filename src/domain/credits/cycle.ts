/** The monthly credit cycle: the allowance renews on the workspace's cycle day (1-28) at 00:00 UTC. */

/** Cycle day for a workspace created at `at`: its day of month, capped at 28 so every month has it. */
export function cycleDayFor(at: Date): number {
  return Math.min(at.getUTCDate(), 28);
}

/** The first cycle boundary strictly after `after`. */
export function nextCycleBoundary(after: Date, cycleDay: number): Date {
  let candidate = new Date(Date.UTC(after.getUTCFullYear(), after.getUTCMonth(), cycleDay));
  if (candidate <= after) candidate = new Date(Date.UTC(after.getUTCFullYear(), after.getUTCMonth() + 1, cycleDay));
  return candidate;
}
