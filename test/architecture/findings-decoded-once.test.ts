import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/shared/project-root.js';

/**
 * The mock's findings record is written and read only by src/shared/findings/findings-record.ts
 * (decision 0060): any other code that parses, reads or writes the header by hand would bring back
 * the old failure, a header that cannot be parsed read as "no findings". This greps the code for it.
 */
const root = projectRoot();
const OWNER = ['src', 'shared', 'findings'].join(sep);
const HEADER = String.raw`(?:FINDINGS_HEADER|['"\x60]x-reasoning-replay-findings['"\x60])`;
const RULES: Array<{ what: string; pattern: RegExp }> = [
  { what: 'JSON.parse of the findings header', pattern: new RegExp(String.raw`JSON\.parse\([^\n]*${HEADER}`) },
  { what: 'JSON.stringify into the findings header', pattern: new RegExp(String.raw`${HEADER}[^\n]*JSON\.stringify`) },
  { what: 'the header read by name (use readFindingsHeader)', pattern: new RegExp(String.raw`\.get\(\s*${HEADER}`) },
  {
    what: 'the header indexed by name (use readFindingsHeader)',
    pattern: new RegExp(String.raw`\[\s*${HEADER}\s*\](?!\s*:)`),
  },
  { what: 'a hand-written findings value', pattern: new RegExp(String.raw`${HEADER}\]?\s*:\s*['"\x60]\[`) },
];

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' || e.name.startsWith('.') ? [] : codeFiles(path);
    return /\.(ts|mts|js|mjs|cjs|py)$/.test(e.name) ? [path] : [];
  });
}

/** Every rule broken in `text`, as `file:line: what`. */
function ruleBreaks(file: string, text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) =>
      RULES.filter((r) => r.pattern.test(line)).map((r) => `${file}:${i + 1}: ${r.what}: ${line.trim()}`),
    );
}

describe('the findings record is decoded in one place', () => {
  it('no code outside src/shared/findings/ parses, reads or writes the findings header by hand', () => {
    const files = ['src', 'test', 'bench', 'examples']
      .flatMap((d) => codeFiles(join(root, d)))
      .filter((f) => !relative(root, f).startsWith(OWNER) && !f.endsWith('findings-decoded-once.test.ts'));
    expect(files.length).toBeGreaterThan(100);
    expect(files.flatMap((f) => ruleBreaks(relative(root, f), readFileSync(f, 'utf8')))).toEqual([]);
  });

  it('the rules catch the hand-written readers this replaced', () => {
    const old = [
      "  const findings = JSON.parse(response.headers.get(FINDINGS_HEADER) ?? '[]') as Finding[];",
      '  const raw = response.headers[FINDINGS_HEADER];',
      "    expect(second!.headers.get('x-reasoning-replay-findings')).toBe('[]');",
      '    { status: 599, headers: { [FINDINGS_HEADER]: JSON.stringify(findings) } },',
      "      [FINDINGS_HEADER]: '[]',",
    ];
    expect(old.map((line) => ruleBreaks('old.ts', line).length)).toEqual([2, 1, 1, 1, 1]);
    // A description keyed by the header's name (serve's endpoint index) is not a read or a write.
    expect(ruleBreaks('ok.ts', "      [FINDINGS_HEADER]: 'on every answer: the provider rules'")).toEqual([]);
  });
});
