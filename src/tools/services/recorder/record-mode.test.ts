import { describe, expect, it } from 'vitest';
import { decideRecording, RECORD_MODES, type ExistingFixture } from './record-mode.js';

const EXISTING: ExistingFixture[] = ['none', 'synthesized', 'recorded', 'unreadable'];

describe('decideRecording', () => {
  // Written out by hand (not derived from the code) so the table in docs/recording.md is what is tested.
  const expected: Record<string, string> = {
    'once/none': 'record',
    'once/synthesized': 'skip',
    'once/recorded': 'skip',
    'once/unreadable': 'refuse',
    'new/none': 'record',
    'new/synthesized': 'record',
    'new/recorded': 'skip',
    'new/unreadable': 'refuse',
    'all/none': 'record',
    'all/synthesized': 'record',
    'all/recorded': 'refuse',
    'all/unreadable': 'refuse',
  };
  for (const mode of RECORD_MODES) {
    for (const existing of EXISTING) {
      it(`${mode} with ${existing} on disk: ${expected[`${mode}/${existing}`]}; with --force: record`, () => {
        const d = decideRecording(mode, existing, false);
        const got = d.record ? 'record' : d.refused ? 'refuse' : 'skip';
        expect(got).toBe(expected[`${mode}/${existing}`]);
        expect(decideRecording(mode, existing, true)).toEqual({ record: true, replaces: existing });
      });
    }
  }
});
