import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../project-root.js';

/**
 * The boundary rules are data (.dependency-cruiser.json) run by `npm run lint:boundaries`. These
 * tests run the same tool and the same rules on a small planted tree, so a rule that stopped
 * matching (a renamed folder, a typo in a path regex) fails here instead of passing silently.
 */
const root = projectRoot();
const work = mkdtempSync(join(tmpdir(), 'rr-boundaries-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let trees = 0;
function plant(files: Record<string, string>): string {
  const dir = join(work, String(trees++));
  cpSync(join(root, '.dependency-cruiser.json'), join(dir, '.dependency-cruiser.json'));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

function cruise(dir: string): { status: number | null; output: string } {
  const bin = join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
  const result = spawnSync(process.execPath, [bin, 'src', '--config', '.dependency-cruiser.json', '--output-type', 'err'], { cwd: dir, encoding: 'utf8' });
  return { status: result.status, output: result.stdout + result.stderr };
}

const planted: Array<[rule: string, file: string, text: string]> = [
  ['provider-side-not-to-engine', 'src/mocks/planted.ts', "import { selectCarriers } from '../replay/select-carriers.js';\nexport const x = selectCarriers();\n"],
  ['judge-not-to-engine-selection', 'src/conformance/planted.ts', "import { selectCarriers } from '../replay/select-carriers.js';\nexport const x = selectCarriers();\n"],
  ['judge-not-to-engine-selection', 'src/conformance/planted-adapter.ts', "import { builtInEngine } from '../engine-under-test/built-in-engine.js';\nexport const x = builtInEngine;\n"],
  ['judge-not-to-engine-selection', 'src/conformance/planted-store.ts', "import { SessionStore } from '../session/session-store.js';\nexport const x = SessionStore;\n"],
  ['judge-not-to-engine-selection', 'src/conformance/planted-type.ts', "import type { Family } from '../families/family.js';\nexport type X = Family;\n"],
  ['judge-model-types-only', 'src/conformance/planted-model.ts', "import { STANDARD_CARRIER_FIELDS } from '../model/history.js';\nexport const x = STANDARD_CARRIER_FIELDS;\n"],
  ['engine-not-to-judge', 'src/session/planted.ts', "import { verdict } from '../conformance/verdict.js';\nexport const x = verdict;\n"],
  ['engine-not-to-provider-side', 'src/families/planted.ts', "import { sign } from '../mocks/mock-signature.js';\nexport const x = sign;\n"],
  ['routes-not-to-families', 'src/routes/planted.ts', "import { family } from '../families/registry.js';\nexport const x = family;\n"],
  ['families-apart', 'src/families/gemini/planted.ts', "import { chat } from '../openai-chat/index.js';\nexport const x = chat;\n"],
  ['families-apart-copilot', 'src/families/copilot/planted.ts', "import { gemini } from '../gemini/index.js';\nexport const x = gemini;\n"],
  ['provider-side-not-to-judge', 'src/providers/planted.ts', "import { verdict } from '../conformance/verdict.js';\nexport const x = verdict;\n"],
  ['neutral-stays-neutral', 'src/wire/planted.ts', "import { sign } from '../mocks/mock-signature.js';\nexport const x = sign;\n"],
  ['neutral-model-types-only', 'src/scenarios/planted.ts', "import { hasReasoning } from '../model/carriers.js';\nexport const x = hasReasoning;\n"],
];

describe('boundary rules (.dependency-cruiser.json)', () => {
  // One tree, one run of the tool (a run costs about a CPU-second): every forbidden import is
  // planted beside allowed ones, and each must be reported under its own rule, the allowed never.
  const dir = plant({
    'src/replay/select-carriers.ts': 'export const selectCarriers = (): string[] => [];\n',
    'src/conformance/verdict.ts': 'export const verdict = 1;\n',
    'src/engine-under-test/built-in-engine.ts': 'export const builtInEngine = 1;\n',
    'src/session/session-store.ts': 'export const SessionStore = 1;\n',
    'src/mocks/mock-signature.ts': 'export const sign = 1;\n',
    'src/families/registry.ts': 'export const family = 1;\n',
    'src/families/openai-chat/index.ts': 'export const chat = 1;\n',
    'src/families/gemini/index.ts': 'export const gemini = 1;\n',
    'src/families/copilot/allowed.ts': "import { chat } from '../openai-chat/index.js';\nexport const x = chat;\n",
    'src/model/carriers.ts': 'export const hasReasoning = 1;\nexport interface Carriers { reasoning?: string }\n',
    'src/scenarios/allowed.ts': "import type { Carriers } from '../model/carriers.js';\nexport const x = (c: Carriers): string | undefined => c.reasoning;\n",
    ...Object.fromEntries(planted.map(([, file, text]) => [file, text])),
    // Allowed: the neutral wire module from the provider side, a test crossing sides, the judge reading
    // the shared request shape from src/wire and the history format's types.
    'src/wire/families.ts': 'export type FamilyId = string;\n',
    'src/mocks/allowed.ts': "import type { FamilyId } from '../wire/families.js';\nexport const x: FamilyId = 'a';\n",
    'src/mocks/allowed.test.ts': "import { selectCarriers } from '../replay/select-carriers.js';\nexport const x = selectCarriers();\n",
    'src/families/family.ts': 'export interface Family { id: string }\n',
    'src/model/history.ts': 'export const STANDARD_CARRIER_FIELDS = [];\nexport interface Message { role: string }\n',
    'src/wire/outbound-request.ts': 'export interface OutboundRequest { path: string }\n',
    'src/conformance/allowed.ts': "import type { OutboundRequest } from '../wire/outbound-request.js';\nexport const x = (r: OutboundRequest): string => r.path;\n",
    'src/conformance/allowed-history.ts': "import type { Message } from '../model/history.js';\nexport const x = (m: Message): string => m.role;\n",
  });
  const { status, output } = cruise(dir);

  it('fails (non-zero exit) on a tree with a forbidden import', () => {
    expect(status, output).not.toBe(0);
    expect(output).toContain(`${planted.length} dependency violations`);
  });

  it.each(planted)('%s: reports the planted import in %s', (rule, file) => {
    expect(output).toMatch(new RegExp(`${rule}: ${file.replaceAll('.', '\\.')} →`));
  });

  it('does not report the neutral wire module, a test file, or the judge reading shared shapes', () => {
    expect(output).not.toContain('allowed');
  });
});
