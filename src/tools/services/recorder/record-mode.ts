/**
 * Whether a recording is wanted, VCR-style, decided before any request leaves the machine.
 *
 * | fixture on disk          | once    | new              | all                    |
 * |--------------------------|---------|------------------|------------------------|
 * | none                     | record  | record           | record                 |
 * | synthesized (from docs)  | skip    | record, replace  | record, replace        |
 * | recorded (live capture)  | skip    | skip             | refuse without --force |
 * | unreadable / not a fixture | refuse without --force, in every mode              |
 *
 * `--force` records and replaces whatever is there, in every mode. The asymmetry is on purpose: a
 * synthesized fixture is regenerated from specs at will, so upgrading it to a live capture is what
 * `new` is for; a live capture needs a key and a live endpoint to redo, so only `--force` may
 * overwrite one. A skip is a success (exit 0); a refusal is exit 1 and names the file.
 */
export const RECORD_MODES = ['once', 'new', 'all'] as const;
export type RecordMode = (typeof RECORD_MODES)[number];

export type ExistingFixture = 'none' | 'synthesized' | 'recorded' | 'unreadable';

export type RecordDecision =
  { record: true; replaces: ExistingFixture } | { record: false; refused: boolean; reason: string };

export function decideRecording(mode: RecordMode, existing: ExistingFixture, force: boolean): RecordDecision {
  if (existing === 'none') return { record: true, replaces: 'none' };
  if (force) return { record: true, replaces: existing };
  if (existing === 'unreadable') {
    return {
      record: false,
      refused: true,
      reason: 'a file is there that is not a readable fixture; move it away or pass --force to replace it',
    };
  }
  if (mode === 'once') {
    return {
      record: false,
      refused: false,
      reason: `a ${existing} fixture exists and --mode once records missing fixtures only (--mode new replaces a synthesized one; --force replaces any)`,
    };
  }
  if (existing === 'synthesized') return { record: true, replaces: 'synthesized' };
  if (mode === 'new')
    return {
      record: false,
      refused: false,
      reason: 'a recorded fixture exists and --mode new keeps live captures (--force replaces it)',
    };
  return {
    record: false,
    refused: true,
    reason: 'a recorded fixture exists; --mode all replaces a live capture only with --force',
  };
}
