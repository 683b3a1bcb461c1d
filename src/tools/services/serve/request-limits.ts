import { readdirSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { join } from 'node:path';
import { assertWithinLimits } from '../../../shared/validation/validate.js';
import { BytesInFlight, RETRY_AFTER_SECONDS } from './bytes-in-flight.js';

/**
 * What `serve` refuses before a mock sees a request (issue 15): a body over the size limit (413,
 * before it is buffered: ten 20 MB bodies once took serve from 170 to 517 MB), a body nested
 * deeper than any provider payload (400: the mocks and the log walk it, and a 10k-deep one reset
 * the connection), and a scenario header that names no fixture (400: the header was joined into a
 * file path, so `../../x` served any JSON file on disk, and every distinct value was cached).
 * Documented in docs/hardening.md and `serve --help`.
 */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
export const MAX_BODY_DEPTH = 256;

export interface Refusal {
  status: number;
  message: string;
  /** Sent as Retry-After (a 503 for bytes in flight). */
  retryAfterSeconds?: number;
}

/** A body read, and the bytes it holds in the shared budget (given back when the request is answered). */
export type BodyRead = { body: Buffer; held: number } | { refusal: Refusal; held: number };

/** 503 with Retry-After: the bodies in flight together are at the bound (bytes-in-flight.ts). */
const overloaded = (budget: BytesInFlight): BodyRead => ({
  refusal: {
    status: 503,
    message: `serve is holding ${budget.total} bytes of request bodies, at its limit of ${budget.limit} bytes in flight (--max-bytes-in-flight); retry after ${RETRY_AFTER_SECONDS} s`,
    retryAfterSeconds: RETRY_AFTER_SECONDS,
  },
  held: 0,
});

/**
 * Reads the body up to `limit` bytes; a declared or actual size over it is a 413 and the rest is not
 * kept. With a `budget`, a declared size is taken from it before any byte is read and an undeclared
 * one as it arrives; a body that does not fit is a 503 and the rest is not kept.
 */
export function readBodyWithin(
  req: IncomingMessage,
  limit = MAX_BODY_BYTES,
  budget: BytesInFlight = new BytesInFlight(Number.MAX_SAFE_INTEGER),
): Promise<BodyRead> {
  const tooLarge = (size: string): BodyRead => ({
    refusal: { status: 413, message: `request body of ${size} is over serve's limit of ${limit} bytes` },
    held: 0,
  });
  const declared = Number(req.headers['content-length']);
  const isDeclared = req.headers['content-length'] !== undefined && Number.isFinite(declared) && declared >= 0;
  if (isDeclared && declared > limit) {
    req.resume(); // not buffered; the connection is closed after the answer
    return Promise.resolve(tooLarge(`${declared} bytes (content-length)`));
  }
  if (isDeclared && !budget.take(declared)) {
    // Drained unkept before the 503 goes out: answering mid-upload and closing made clients see a
    // broken pipe instead of the 503 and its Retry-After.
    const refusal = overloaded(budget);
    return new Promise((resolve, reject) => {
      req.on('end', () => resolve(refusal));
      req.on('error', reject);
      req.resume();
    });
  }
  let held = isDeclared ? declared : 0;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let refusal: BodyRead | undefined;
    const drop = (why: BodyRead) => {
      refusal ??= why;
      chunks.length = 0;
      budget.give(held);
      held = 0;
    };
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (refusal) return;
      if (size > limit) return drop(tooLarge(`more than ${limit} bytes`));
      // Undeclared (chunked), or more than declared: the excess is taken as it arrives.
      if (size > held) {
        if (!budget.take(size - held)) return drop(overloaded(budget));
        held = size;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(refusal ?? { body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), held }));
    req.on('error', (err) => {
      budget.give(held);
      reject(err);
    });
  });
}

/** A parsed body nested deeper than MAX_BODY_DEPTH, measured without recursion. */
export function bodyDepthRefusal(parsed: unknown): Refusal | undefined {
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  try {
    assertWithinLimits(parsed, 'request body', {
      maxDepth: MAX_BODY_DEPTH,
      maxNodes: Number.MAX_SAFE_INTEGER,
      maxStringLength: Number.MAX_SAFE_INTEGER,
    });
    return undefined;
  } catch (err) {
    return {
      status: 400,
      message: `${(err as Error).message.replace(/ \(hint:.*$/, '')}; serve refuses bodies deeper than ${MAX_BODY_DEPTH} levels`,
    };
  }
}

/** Scenario ids a header may name: the fixture file names under the fixture root, read once. */
export function knownScenarioIds(fixturesDir: string): Set<string> {
  const ids = new Set<string>();
  let providers: string[] = [];
  try {
    providers = readdirSync(fixturesDir);
  } catch {
    return ids;
  }
  for (const provider of providers) {
    try {
      for (const name of readdirSync(join(fixturesDir, provider)))
        if (name.endsWith('.json') && !name.startsWith('.')) ids.add(name.slice(0, -5));
    } catch {
      /* a file, not a provider folder */
    }
  }
  return ids;
}

export function scenarioRefusal(
  header: string | undefined,
  known: ReadonlySet<string>,
  allowed: ReadonlySet<string> = new Set(),
): Refusal | undefined {
  if (header === undefined || known.has(header) || allowed.has(header)) return undefined;
  const shown = header.length > 80 ? `${header.slice(0, 80)}…` : header;
  return {
    status: 400,
    message: `unknown scenario "${shown}" in x-reasoning-replay-scenario; it names a fixture: one of ${[...known].sort().slice(0, 12).join(', ')}${known.size > 12 ? ', …' : ''}`,
  };
}
