import { describeSchemaErrors, schemaValidator } from '../validation/validate.js';
import { FINDINGS_HEADER, type Finding } from './finding.js';
import { FindingsRecordError } from '../errors/findings-record-error.js';

/**
 * The one encoder and the one decoder of what a mock hands the judge (specs/schema/findings.schema.json):
 * `{"version": 1, "findings": [...]}` in the x-reasoning-replay-findings header. Every mock writes it
 * through here and every reader (the judge, serve's log, the real-world replay, tests) reads it
 * through here, so the record is decoded once and checked once (decision 0060).
 */
export const FINDINGS_RECORD_VERSION = 1;

/** The record as header text: JSON with every non-ASCII character escaped (a header value is bytes, not UTF-8). */
export function encodeFindings(findings: readonly Finding[]): string {
  return JSON.stringify({ version: FINDINGS_RECORD_VERSION, findings }).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The header a mock answer carries, ready to spread into its headers. */
export function findingsHeader(findings: readonly Finding[]): Record<typeof FINDINGS_HEADER, string> {
  return { [FINDINGS_HEADER]: encodeFindings(findings) };
}

const shown = (raw: string) => JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}…` : raw);

/**
 * The findings of a record's text. `where` names the answer for the error. A record that is not JSON,
 * is cut short, has another version or breaks the schema throws FindingsRecordError.
 */
export function decodeFindings(raw: string, where: string): Finding[] {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    // Cut short when the parser ran out of text: at its end, not at a character it could not read.
    const at = /at position (\d+)/.exec((err as Error).message)?.[1];
    const cut = /end of (JSON )?input/i.test((err as Error).message) || (at !== undefined && Number(at) >= raw.length);
    throw new FindingsRecordError(
      where,
      cut
        ? `it ends before the record does (truncated at ${raw.length} characters: ${shown(raw)})`
        : `it is not JSON (${shown(raw)})`,
    );
  }
  if (Array.isArray(value))
    throw new FindingsRecordError(
      where,
      `it is a bare list, not a versioned record; this build reads {"version": ${FINDINGS_RECORD_VERSION}, "findings": [...]}`,
    );
  if (typeof value !== 'object' || value === null)
    throw new FindingsRecordError(where, `it is ${value === null ? 'null' : typeof value}, not a record`);
  const version = (value as { version?: unknown }).version;
  if (version !== FINDINGS_RECORD_VERSION)
    throw new FindingsRecordError(
      where,
      version === undefined
        ? 'it has no version'
        : `it is version ${JSON.stringify(version)}; this build reads version ${FINDINGS_RECORD_VERSION}`,
    );
  const validate = schemaValidator('findings.schema.json');
  if (!validate(value)) {
    const { pointer, problem } = describeSchemaErrors(validate.errors ?? []);
    throw new FindingsRecordError(where, `at ${pointer}: ${problem} (specs/schema/findings.schema.json)`);
  }
  return (value as { findings: Finding[] }).findings;
}

const isHeaders = (headers: object): headers is Headers =>
  typeof (headers as { get?: unknown }).get === 'function' && typeof (headers as { has?: unknown }).has === 'function';

/**
 * The findings an answer's headers carry. No header at all is an answer no mock judged (a transport
 * or serve error): no findings. A header that is there is decoded, or fails loudly.
 */
export function readFindingsHeader(
  headers: Headers | Readonly<Record<string, string | undefined>>,
  where: string,
): Finding[] {
  // Told apart by shape, not `instanceof Headers`: the first look at the global Headers loads undici and Node's HTTP
  // stack, which a `check` answered in process never otherwise needs.
  const raw = isHeaders(headers) ? headers.get(FINDINGS_HEADER) : headers[FINDINGS_HEADER];
  return raw === null || raw === undefined ? [] : decodeFindings(raw, where);
}
