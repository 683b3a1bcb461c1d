import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describeSchemaErrors, schemaValidator } from '../input/validate.js';
import type { Fixture } from '../mocks/fixture-store.js';
import type { SseEvent } from '../sse/sse-event.js';
import { ensureDir, writeFileAtomic } from '../util/write-file-atomic.js';
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

/** A fixture whose stream events may still sit in spools (exchange index -> events), outside the object. */
export interface FixtureDraft {
  fixture: Fixture;
  streams?: ReadonlyMap<number, Iterable<SseEvent>>;
}

const placeholder = (i: number) => `@@reasoning-replay-events:${i}@@`;
const EVENT_SCHEMA = 'fixture.schema.json#/definitions/sseEvent';

function schemaProblem(value: unknown, schema: string): string | undefined {
  const validate = schemaValidator(schema);
  if (validate(value)) return undefined;
  const { pointer, problem } = describeSchemaErrors(validate.errors ?? []);
  return `${pointer}: ${problem}`;
}

/**
 * Redacts, sweeps and validates a fixture, then returns its text as pieces to write. Everything
 * that can refuse a fixture runs before the first piece is produced, so a refusal never leaves a
 * partial file; the events are walked twice (check, then render) and never held all at once.
 * Stream events are written one compact JSON object per line: a 5 MB stream stays a readable,
 * diffable file, and the writer never needs the whole array in memory.
 */
export function renderFixture(draft: FixtureDraft, secrets: readonly SecretValue[], file: string): Iterable<string> {
  const streams = new Map<number, Iterable<SseEvent>>(draft.streams ?? []);
  const envelope: Fixture = {
    ...draft.fixture,
    exchanges: draft.fixture.exchanges.map((x, i) => {
      if (x.response.stream && !streams.has(i)) streams.set(i, x.response.stream.events);
      return streams.has(i) ? { ...x, response: { ...x.response, stream: { events: [] } } } : x;
    }),
  };
  const redacted = redactSecretValues({ ...envelope, exchanges: envelope.exchanges.map((x) => redactExchange(x, secrets)) }, secrets);
  const leaks = sweepForSecrets(redacted);
  const shape = schemaProblem(redacted, 'fixture.schema.json');
  if (shape) throw new Error(`internal: the recorded fixture for ${file} breaks specs/schema/fixture.schema.json at ${shape}`);
  for (const [i, events] of streams) {
    let j = 0;
    for (const event of events) {
      const at = `/exchanges/${i}/response/stream/events/${j++}`;
      const clean = redactSecretValues(event, secrets);
      if (leaks.length < 50) leaks.push(...sweepForSecrets(clean, at));
      const bad = schemaProblem(clean, EVENT_SCHEMA);
      if (bad) throw new Error(`internal: the recorded fixture for ${file} breaks specs/schema/fixture.schema.json at ${at}${bad.replace(/^\/?:/, ':')}`);
    }
  }
  if (leaks.length > 0) throw new SecretLeakError(file, leaks);

  const withMarks = { ...redacted, exchanges: redacted.exchanges.map((x, i) => (streams.has(i) ? { ...x, response: { ...x.response, stream: { events: placeholder(i) } } } : x)) };
  const text = JSON.stringify(withMarks, null, 2) + '\n';
  return (function* pieces() {
    let from = 0;
    for (const i of [...streams.keys()].sort((a, b) => a - b)) {
      const mark = JSON.stringify(placeholder(i));
      const at = text.indexOf(mark, from);
      // Items sit two spaces deeper than the `"events":` line, as JSON.stringify would put them.
      const lineStart = text.lastIndexOf('\n', at) + 1;
      const itemIndent = ' '.repeat((/^ */.exec(text.slice(lineStart, at))?.[0].length ?? 0) + 2);
      yield text.slice(from, at);
      let first = true;
      let batch = '[';
      for (const event of streams.get(i)!) {
        batch += `${first ? '' : ','}\n${itemIndent}${JSON.stringify(redactSecretValues(event, secrets))}`;
        first = false;
        if (batch.length > 64 * 1024) {
          yield batch;
          batch = '';
        }
      }
      yield `${batch}${first ? '' : `\n${itemIndent.slice(2)}`}]`;
      from = at + mark.length;
    }
    yield text.slice(from);
  })();
}

/** The whole text of a fixture whose events are in memory (tests, small captures). */
export function finalizeFixture(fixture: Fixture, secrets: readonly SecretValue[], file: string): string {
  return [...renderFixture({ fixture }, secrets, file)].join('');
}

export { removeStaleTemps } from '../util/write-file-atomic.js';

/**
 * Writes the pieces atomically (src/util/write-file-atomic.ts), creating the provider folder and
 * first sweeping temps that a killed recording left behind.
 */
export function writeFixtureFile(file: string, pieces: Iterable<string>): void {
  ensureDir(dirname(file));
  writeFileAtomic(file, pieces);
}

export function writeFixtureText(file: string, text: string): void {
  writeFixtureFile(file, [text]);
}
