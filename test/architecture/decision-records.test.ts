import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/shared/project-root.js';

/**
 * Decision records keep one numbering, one template and one index (docs/decisions/README.md). The
 * rules run on the real records (no problem) and on a planted folder (each rule fires).
 */
const HEADINGS = ['## Context', '## Decision', '## Consequences'];

function recordProblems(dir: string): string[] {
  const problems: string[] = [];
  const names = readdirSync(dir).filter((n) => n.endsWith('.md') && n !== 'README.md' && n !== '0000-template.md');
  const numbers: number[] = [];
  for (const name of names) {
    const m = /^(\d{4})-[a-z0-9]+(?:-[a-z0-9]+)*\.md$/.exec(name);
    if (!m) {
      problems.push(`${name}: not named NNNN-kebab-title.md`);
      continue;
    }
    numbers.push(Number(m[1]));
    const lines = readFileSync(join(dir, name), 'utf8').split('\n');
    if (!lines[0]!.startsWith(`# ${m[1]} `)) problems.push(`${name}: the title is not "# ${m[1]} ..."`);
    if (!lines.some((l) => /^Status: (proposed|accepted|superseded)/.test(l)))
      problems.push(`${name}: no "Status: proposed | accepted | superseded ..." line`);
    const at = HEADINGS.map((h) => lines.indexOf(h));
    for (const [i, h] of HEADINGS.entries()) if (at[i] === -1) problems.push(`${name}: no "${h}" heading`);
    if (at.every((i) => i >= 0) && !(at[0]! < at[1]! && at[1]! < at[2]!))
      problems.push(`${name}: the headings are not in the order Context, Decision, Consequences`);
  }
  const sorted = [...numbers].sort((a, b) => a - b);
  // One sequence, each number once. Gaps are allowed: numbers are handed out in blocks to work
  // that runs side by side, and a number left unused is never reused for something else.
  for (const [i, n] of sorted.entries())
    if (sorted[i - 1] === n) problems.push(`number ${String(n).padStart(4, '0')} is used twice`);
  const index = existsSync(join(dir, 'README.md')) ? readFileSync(join(dir, 'README.md'), 'utf8') : '';
  const linked = new Set([...index.matchAll(/\]\(((?:\d{4})-[^)]+\.md)\)/g)].map((m) => m[1]!));
  for (const name of names) if (!linked.has(name)) problems.push(`${name}: not in the index (README.md)`);
  for (const target of linked)
    if (!existsSync(join(dir, target))) problems.push(`the index links ${target}, which does not exist`);
  return problems;
}

const work = mkdtempSync(join(tmpdir(), 'rr-decisions-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const record = (
  n: string,
  body = 'Status: accepted\n\n## Context\n\nx\n\n## Decision\n\ny\n\n## Consequences\n\nz\n',
) => `# ${n} A title\n\n${body}`;

describe('decision records', () => {
  it('the real records: one numbering, each number once, the template headings, every one indexed', () => {
    const dir = join(projectRoot(), 'docs', 'decisions');
    expect(recordProblems(dir)).toEqual([]);
    expect(readdirSync(dir).filter((n) => /^\d{4}-/.test(n)).length).toBeGreaterThan(30);
  });

  it('each rule fires on a planted folder', () => {
    const dir = join(work, 'decisions');
    mkdirSync(dir, { recursive: true });
    const files: Record<string, string> = {
      '0001-good.md': record('0001'),
      '0002-no-status.md': record('0002', '## Context\n\n## Decision\n\n## Consequences\n'),
      '0002-twice.md': record('0002'),
      '0005-gap.md': record('0005'),
      '0006-old-labels.md': record('0006', 'Status: accepted\n\nContext: x\n\nDecision: y\n\nConsequences: z\n'),
      '0007-out-of-order.md': record('0007', 'Status: accepted\n\n## Decision\n\n## Context\n\n## Consequences\n'),
      '0008-unindexed.md': record('0008'),
      '0009-wrong-title.md': record('0010'),
      '101-short.md': record('101'),
    };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const indexed = Object.keys(files).filter((n) => n !== '0008-unindexed.md' && n !== '101-short.md');
    writeFileSync(join(dir, 'README.md'), [...indexed, '0042-gone.md'].map((n) => `| [x](${n}) | x |`).join('\n'));
    expect(recordProblems(dir)).toEqual(
      expect.arrayContaining([
        '0002-no-status.md: no "Status: proposed | accepted | superseded ..." line',
        'number 0002 is used twice',
        '0006-old-labels.md: no "## Context" heading',
        '0006-old-labels.md: no "## Decision" heading',
        '0006-old-labels.md: no "## Consequences" heading',
        '0007-out-of-order.md: the headings are not in the order Context, Decision, Consequences',
        '0008-unindexed.md: not in the index (README.md)',
        '0009-wrong-title.md: the title is not "# 0009 ..."',
        '101-short.md: not named NNNN-kebab-title.md',
        'the index links 0042-gone.md, which does not exist',
      ]),
    );
    expect(recordProblems(dir).filter((p) => p.startsWith('0001-good'))).toEqual([]);
  });
});
