import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../shared/project-root.js';
import { runCli } from '../../../../test/helpers/run-cli.test-helper.js';

describe('reasoning-replay import (built CLI)', () => {
  it('writes an imported fixture from a file, and exits 2 naming a file that is not its format', async () => {
    const out = mkdtempSync(join(tmpdir(), 'rr-import-cli-'));
    const file = join(
      projectRoot(),
      'src',
      'tools',
      'commands',
      'import',
      '__fixtures__',
      'deepseek-one-turn.chunks.txt',
    );
    const r = await runCli([
      'import',
      file,
      '--provider',
      'deepseek',
      '--scenario',
      'native-record-isolation',
      '--out',
      out,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /^wrote .*deepseek\/native-record-isolation\.json: 1 exchange\(s\) imported from .*\(ai-sdk-chunks\), route deepseek\nreplayed by: reasoning-replay check --provider deepseek \(scenario native-record-isolation\)\n$/,
    );
    expect(
      JSON.parse(readFileSync(join(out, 'deepseek', 'native-record-isolation.json'), 'utf8')).provenance,
    ).toMatchObject({ kind: 'imported', format: 'ai-sdk-chunks', source: file });

    const bad = await runCli(['import', file, '--format', 'vcr', '--provider', 'deepseek', '--out', out]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/deepseek-one-turn.chunks.txt: not YAML, so not a VCR cassette .*\(read as vcr\)/);
  }, 60_000);
});
