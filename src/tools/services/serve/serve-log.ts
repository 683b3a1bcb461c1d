import { readFileSync } from 'node:fs';
import type { Finding } from '../../../shared/findings/finding.js';
import { InputError } from '../../../shared/errors/input-error.js';
import { assertValid } from '../../../shared/validation/validate.js';
import { refuseOversizedTextFile } from '../../../shared/files/text-file-size-limit.js';

/** One request the serve mode saw; mirrors specs/schema/serve-log.schema.json. */
export interface ServeLogEntry {
  seq: number;
  time: string;
  provider: string;
  route: string;
  tier: string;
  family: string;
  scenario: string | null;
  call: number;
  method: string;
  path: string;
  status: number;
  sentFields: string[];
  findings: Finding[];
  /** x-reasoning-replay-client, else user-agent; absent in older logs. */
  client?: string;
  runId?: string | null;
  /** Follow mode: the client's tool the answer called. */
  tool?: string;
  /** `--log-bodies`: the request body, redacted. */
  body?: unknown;
  /** The request sent back reasoning an earlier answer issued (a carrier, or a reasoning item named by id). */
  replays?: true;
  /** compaction-kept applied: an earlier answer of this conversation issued a compaction item (serve-compaction.ts). */
  compactionJudged?: true;
  /** `--faults`: the fault injected into this request's answer (specs/faults.json), and where. */
  fault?: { name: string; where?: string };
  /** A refusal that was the named fault's own consequence (the first refusal of a foreign signature), not the agent's doing. */
  expectedRefusal?: string;
}

/**
 * A request serve could not hand to any mock: the client spoke a protocol the mocks do not (a provider or path no
 * mock serves, a body that is not JSON). Answered with a harness error, never judged, so never a log entry.
 */
export interface ServeMiss {
  method: string;
  path: string;
  status: number;
  reason: 'unknown-provider' | 'no-such-path' | 'not-json';
  /** What serve answered: the path it expected, the content type it read. */
  message: string;
}

/**
 * A request the mocks did not accept as conforming: a finding the mock refused on, or an answer that is not 2xx. A
 * contested rule answered as its lenient side (`lenient`) is a warning and breaks nothing (docs/decisions/0044).
 */
export function brokeARule(e: Pick<ServeLogEntry, 'findings' | 'status' | 'fault' | 'expectedRefusal'>): boolean {
  // An injected fault's answer, and the refusal it caused, are the fault's doing; only the judge of faults counts there.
  if (e.fault || e.expectedRefusal) return e.findings.some((f) => f.rule === 'recovers-from-faults');
  return e.findings.some((f) => !f.lenient) || e.status < 200 || e.status >= 300;
}

/** The findings of a request that are warnings: contested rules the mock answered leniently. */
export const warningsOf = (e: Pick<ServeLogEntry, 'findings'>) => e.findings.filter((f) => f.lenient);

/** Reads a serve log; a broken line is bad input naming the file and line, not a skipped request. */
export function readServeLog(file: string): ServeLogEntry[] {
  refuseOversizedTextFile(file, undefined, 'serve log');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new InputError(
      file,
      '',
      `cannot read the serve log (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
      'pass the file `reasoning-replay serve --log FILE` wrote',
    );
  }
  const entries: ServeLogEntry[] = [];
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new InputError(`${file}:${i + 1}`, '', 'is not a JSON line', 'a serve log holds one JSON object per line');
    }
    entries.push(assertValid<ServeLogEntry>(value, 'serve-log.schema.json', `${file}:${i + 1}`));
  });
  if (entries.length === 0)
    throw new InputError(file, '', 'holds no requests', 'point a client at `reasoning-replay serve` first');
  return entries;
}
