import { SecretLeakError } from '../../../shared/errors/secret-leak-error.js';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { InputError } from '../../../shared/errors/input-error.js';
import { describeSchemaErrors, schemaValidator } from '../../../shared/validation/validate.js';
import type { Fixture } from '../../../provider/fixtures/fixture-store.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { ensureDir, writeFileAtomic } from '../../../shared/files/write-file-atomic.js';
import type { ExistingFixture } from './record-mode.js';
import { isOpaqueField } from './opaque-fields.js';
import { redactExchange, redactSecretValues, type SecretValue } from './redact.js';
import { redactStreamEvents } from './redact-streams.js';
import { containsKnownSecret, secretForms, type SecretForms } from './secret-forms.js';
import { sweepForSecrets, type SecretFinding } from './secret-patterns.js';
import { eventLintView, lintMany, lintView } from './secret-rules.js';
import { InvariantError } from '../../../shared/errors/invariant-error.js';

/** An id that is one path segment: no separators, no `..`, nothing hidden. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * `<root>/<provider>/<scenario>.json`: the layout the mocks' FixtureStore reads. Ids are file names
 * here, so one that could climb out of the root (`../../escaped`) is refused (exit 2).
 */
export function fixturePath(root: string, provider: string, scenario: string): string {
  for (const [flag, id] of [
    ['--provider', provider],
    ['--scenario', scenario],
  ] as const) {
    if (!SAFE_ID.test(id) || id.includes('..')) {
      throw new InputError(
        flag,
        '',
        `"${id}" is not an id (letters, digits, ".", "_" and "-"; no path separators or "..")`,
        'ids name files under the fixture root; use the provider spec or routing id as is',
      );
    }
  }
  return join(root, provider, `${scenario}.json`);
}

export function existingFixture(file: string): ExistingFixture {
  if (!existsSync(file)) return 'none';
  try {
    const kind = (JSON.parse(readFileSync(file, 'utf8')) as { provenance?: { kind?: unknown } }).provenance?.kind;
    // An import is real traffic too: protected like a live capture (record --mode new never replaces it).
    return kind === 'recorded' || kind === 'imported' ? 'recorded' : kind === 'synthesized' ? kind : 'unreadable';
  } catch {
    return 'unreadable';
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

/** A known key inside signed or encrypted reasoning: never altered (replay would break), so refused. */
function opaqueLeaks(value: unknown, forms: readonly SecretForms[], pointer: string, depth = 0): SecretFinding[] {
  if (forms.length === 0 || depth > 256 || typeof value !== 'object' || value === null) return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : Object.entries(value);
  return entries.flatMap(([k, v]) => {
    const at = `${pointer}/${k.replaceAll('~', '~0').replaceAll('/', '~1')}`;
    if (typeof v === 'string' && !Array.isArray(value) && isOpaqueField(k, value) && containsKnownSecret(v, forms)) {
      return [{ pointer: at, pattern: 'the API key inside signed/encrypted reasoning (left unaltered)', masked: '…' }];
    }
    return opaqueLeaks(v, forms, at, depth + 1);
  });
}

/** A rendered fixture: its text as pieces (iterable more than once) and the texts the rule set must judge. */
export interface RenderedFixture extends Iterable<string> {
  lintTexts(): Iterable<{ text: string; where: string }>;
}

/**
 * Redacts, sweeps and validates a fixture, then returns its text as pieces to write. Everything
 * that can refuse a fixture runs before the first piece is produced, so a refusal never leaves a
 * partial file. Each stream is redacted over its reassembled text first (redact-streams.ts: a key
 * split across events), so its events are held in memory once, per stream.
 * Stream events are written one compact JSON object per line: a 5 MB stream stays a readable,
 * diffable file.
 */
export function renderFixture(draft: FixtureDraft, secrets: readonly SecretValue[], file: string): RenderedFixture {
  const forms = secretForms(secrets);
  const sources = new Map<number, Iterable<SseEvent>>(draft.streams ?? []);
  const envelope: Fixture = {
    ...draft.fixture,
    exchanges: draft.fixture.exchanges.map((x, i) => {
      if (x.response.stream && !sources.has(i)) sources.set(i, x.response.stream.events);
      return sources.has(i) ? { ...x, response: { ...x.response, stream: { events: [] } } } : x;
    }),
  };
  const redacted = redactSecretValues(
    { ...envelope, exchanges: envelope.exchanges.map((x) => redactExchange(x, secrets)) },
    secrets,
  );
  const leaks = [...sweepForSecrets(redacted), ...opaqueLeaks(redacted, forms, '')];
  const shape = schemaProblem(redacted, 'fixture.schema.json');
  if (shape)
    throw new InvariantError(
      `internal: the recorded fixture for ${file} breaks specs/schema/fixture.schema.json at ${shape}`,
    );
  const streams = new Map<number, SseEvent[]>();
  for (const [i, source] of sources) {
    const events = redactStreamEvents([...source], forms).map((e) => redactSecretValues(e, secrets));
    streams.set(i, events);
    events.forEach((clean, j) => {
      const at = `/exchanges/${i}/response/stream/events/${j}`;
      if (leaks.length < 50)
        leaks.push(...sweepForSecrets(clean, at), ...opaqueLeaks(safeParse(clean.data), forms, `${at}/data`));
      const bad = schemaProblem(clean, EVENT_SCHEMA);
      if (bad)
        throw new InvariantError(
          `internal: the recorded fixture for ${file} breaks specs/schema/fixture.schema.json at ${at}${bad.replace(/^\/?:/, ':')}`,
        );
    });
  }
  if (leaks.length > 0) throw new SecretLeakError(file, leaks);

  const withMarks = {
    ...redacted,
    exchanges: redacted.exchanges.map((x, i) =>
      streams.has(i) ? { ...x, response: { ...x.response, stream: { events: placeholder(i) } } } : x,
    ),
  };
  const text = JSON.stringify(withMarks, null, 2) + '\n';
  function* pieces() {
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
        batch += `${first ? '' : ','}\n${itemIndent}${JSON.stringify(event)}`;
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
  }
  return {
    [Symbol.iterator]: pieces,
    *lintTexts() {
      yield { text: lintView(redacted), where: '/' };
      for (const [i, events] of streams)
        for (const [j, e] of events.entries())
          yield { text: eventLintView(e.data), where: `/exchanges/${i}/response/stream/events/${j}/data` };
    },
  };
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** renderFixture, then the maintained rule set (secretlint's recommended preset) over what would be written. */
export async function renderCheckedFixture(
  draft: FixtureDraft,
  secrets: readonly SecretValue[],
  file: string,
): Promise<RenderedFixture> {
  const rendered = renderFixture(draft, secrets, file);
  const findings = await lintMany(rendered.lintTexts());
  if (findings.length > 0) throw new SecretLeakError(file, findings);
  return rendered;
}

/** The whole text of a fixture whose events are in memory (tests, small captures). */
export function finalizeFixture(fixture: Fixture, secrets: readonly SecretValue[], file: string): string {
  return [...renderFixture({ fixture }, secrets, file)].join('');
}

export { removeStaleTemps } from '../../../shared/files/write-file-atomic.js';

/**
 * Writes the pieces atomically (src/shared/files/write-file-atomic.ts), creating the provider folder and
 * first sweeping temps that a killed recording left behind.
 */
export function writeFixtureFile(file: string, pieces: Iterable<string>): void {
  ensureDir(dirname(file));
  writeFileAtomic(file, pieces);
}

export function writeFixtureText(file: string, text: string): void {
  writeFixtureFile(file, [text]);
}
