/**
 * Whether a JSON body could nest deeper than `max`: only if it holds more than `max` opening
 * brackets, counted on the raw bytes (brackets inside strings count too, so this never says no
 * wrongly). An agent's request rarely holds more than a few dozen, so serve skips the depth walk
 * (request-limits.ts bodyDepthRefusal) on the hot path; a body that might be deep is still walked.
 */
export function couldNestDeeperThan(body: Buffer, max: number): boolean {
  let opening = 0;
  for (const bracket of [0x7b, 0x5b]) {
    for (let at = body.indexOf(bracket); at >= 0; at = body.indexOf(bracket, at + 1)) {
      if (++opening > max) return true;
    }
  }
  return false;
}
