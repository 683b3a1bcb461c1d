import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describeSchemaErrors, schemaValidator } from '../input/validate.js';
import type { Fixture } from '../mocks/fixture-store.js';
import { writeFileAtomic } from '../util/write-file-atomic.js';
import type { ExistingFixture } from './record-mode.js';
import { redactExchange, redactSecretValues, type SecretValue } from './redact.js';
import { sweepForSecrets, type SecretFinding } from './secret-patterns.js';

/** `<root>/<provider>/<scenario>.json`: the layout the mocks' FixtureStore reads. */
export function fixturePath(root: string, provider: string, scenario: string): string {
  return join(root, provider, `${scenario}.json`);
}

export function existingFixture(file: string): ExistingFixture {
  if (!existsSync(file)) return 'none';
  try {
    const kind = (JSON.parse(readFileSync(file, 'utf8')) as { provenance?: { kind?: unknown } }).provenance?.kind;
    return kind === 'recorded' || kind === 'synthesized' ? kind : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** A secret survived redaction: the fixture must not be written. Names where, never what. */
export class SecretLeakError extends Error {
  constructor(
    readonly file: string,
    readonly findings: SecretFinding[],
  ) {
    const where = findings.slice(0, 8).map((f) => `${f.pointer} (${f.pattern}: ${f.masked})`);
    const more = findings.length > where.length ? `, and ${findings.length - where.length} more` : '';
    super(
      `refusing to write ${file}: a credential-shaped value survived redaction at ${where.join(', ')}${more}. ` +
        'Nothing was written. If it is a credential, rotate it and name the header or variable holding it (--api-key-env); ' +
        'if it is not, it still must not look like one in a committed file.',
    );
    this.name = 'SecretLeakError';
  }
}

/**
 * Redacts, sweeps and validates a fixture, returning the exact text to write. Everything that can
 * refuse a fixture happens here, before any byte reaches the disk.
 */
export function finalizeFixture(fixture: Fixture, secrets: readonly SecretValue[], file: string): string {
  const redacted = redactSecretValues({ ...fixture, exchanges: fixture.exchanges.map((x) => redactExchange(x, secrets)) }, secrets);
  const leaks = sweepForSecrets(redacted);
  if (leaks.length > 0) throw new SecretLeakError(file, leaks);
  const validate = schemaValidator('fixture.schema.json');
  if (!validate(redacted)) {
    const { pointer, problem } = describeSchemaErrors(validate.errors ?? []);
    throw new Error(`internal: the recorded fixture for ${file} breaks specs/schema/fixture.schema.json at ${pointer}: ${problem}`);
  }
  return JSON.stringify(redacted, null, 2) + '\n';
}

/**
 * Temp files of writers that died between creating and renaming (the window is one fsync long, but
 * SIGKILL can land in it). Only temps of processes that no longer exist are removed.
 */
export function removeStaleTemps(file: string): string[] {
  const dir = dirname(file);
  if (!existsSync(dir)) return [];
  const prefix = `.${file.split(/[\\/]/).at(-1)}.`;
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    const m = name.startsWith(prefix) ? /\.(\d+)\.\d+\.tmp$/.exec(name) : null;
    if (!m || processAlive(Number(m[1]))) continue;
    rmSync(join(dir, name), { force: true });
    removed.push(join(dir, name));
  }
  return removed;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Writes the finalized text atomically (temp + fsync + rename), creating the provider folder. */
export function writeFixtureText(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  removeStaleTemps(file);
  writeFileAtomic(file, text);
}
