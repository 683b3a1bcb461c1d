import { isPlainObject } from '../../shared/objects/deep-merge.js';
import { sseJsonData } from '../../shared/sse/parse-sse.js';
import type { JudgeFinding } from './verdict.js';

/**
 * The judge's own reading of server compaction (compaction-kept): which compaction items a provider
 * issued, and whether each later request carries the newest one back whole. Anthropic's compaction
 * block (compact_20260112) and the Responses API's compaction item both hold an opaque
 * encrypted_content the provider wants back verbatim; the provider ignores what stands before the
 * newest one, so a request without it has silently lost the whole earlier conversation (no error: the
 * provider simply sees a shorter history). Only the provider that produced an item can read it, so an
 * item sent to another route is a failure too. The engine's own reading (src/engine) is not consulted.
 */

interface Issued {
  call: number;
  route: string;
  provider: string;
  blob: string;
}

function collectBlobs(value: unknown, out: string[]): void {
  if (Array.isArray(value)) {
    for (const v of value) collectBlobs(v, out);
    return;
  }
  if (!isPlainObject(value)) return;
  if (value.type === 'compaction' && typeof value.encrypted_content === 'string' && value.encrypted_content !== '')
    out.push(value.encrypted_content);
  for (const v of Object.values(value)) collectBlobs(v, out);
}

/**
 * The encrypted_content of every compaction carrier in an answer: a JSON body, or an SSE stream where Anthropic
 * sends it in compaction_delta pieces (joined per block) and the Responses API whole in output_item.done.
 */
export function compactionBlobs(answer: unknown): string[] {
  if (typeof answer === 'string') return compactionBlobsOfStream(sseJsonData(answer));
  const out: string[] = [];
  collectBlobs(answer, out);
  return out;
}

/** The same, over a stream's events already read as JSON (the data of each event, in order). */
export function compactionBlobsOfStream(events: readonly unknown[]): string[] {
  const out: string[] = [];
  const pieces = new Map<number, string>();
  for (const data of events) {
    if (!isPlainObject(data)) continue;
    const delta = data.delta;
    if (
      data.type === 'content_block_delta' &&
      isPlainObject(delta) &&
      delta.type === 'compaction_delta' &&
      typeof delta.encrypted_content === 'string'
    ) {
      const index = typeof data.index === 'number' ? data.index : -1;
      pieces.set(index, (pieces.get(index) ?? '') + delta.encrypted_content);
    } else if (data.type === 'response.output_item.done') collectBlobs(data.item, out);
  }
  return [...out, ...pieces.values()].filter((b) => b !== '');
}

/** Whether a request body holds the blob as a whole string value, byte for byte (an edited one does not count). */
export function requestHolds(body: unknown, blob: string): boolean {
  return JSON.stringify(body).includes(JSON.stringify(blob));
}

export class CompactionLedger {
  private readonly issued: Issued[] = [];

  /** `name` says what a call number is where the ledger is read: a run's call, or a serve log's request. */
  constructor(private readonly name: (call: number) => string = (call) => `call ${call}`) {}

  /** Records the compaction items of an accepted answer. */
  observe(call: number, route: string, provider: string, answer: unknown): void {
    this.issue(call, route, provider, compactionBlobs(answer));
  }

  /** Records compaction items an accepted answer issued, already read out of it. */
  issue(call: number, route: string, provider: string, blobs: readonly string[]): void {
    for (const blob of blobs) this.issued.push({ call, route, provider, blob });
  }

  /** Whether any compaction item was issued yet (the behaviour applies from the next call on). */
  get applies(): boolean {
    return this.issued.length > 0;
  }

  /**
   * One request of call `call` on `route`: the newest item `route` issued must be in it, whole; no item another
   * route issued may be. Findings name the call that issued the item.
   */
  judge(call: number, route: string, provider: string, body: unknown): JudgeFinding[] {
    const findings: JudgeFinding[] = [];
    const finding = (status: 'pass' | 'fail', detail: string) =>
      findings.push({ behaviour: 'compaction-kept', status, provider, route, call, detail });
    const own = this.issued.filter((i) => i.route === route).at(-1);
    if (own && !requestHolds(body, own.blob))
      finding(
        'fail',
        `${this.name(call)}: the compaction item ${own.provider} issued at ${this.name(own.call)} is not in the request, whole: the provider ignores what came before it, so the conversation before ${this.name(own.call)} is lost`,
      );
    const foreign = this.issued.find((i) => i.route !== route && requestHolds(body, i.blob));
    if (foreign)
      finding(
        'fail',
        `${this.name(call)}: the compaction item ${foreign.provider} (route ${foreign.route}) issued at ${this.name(foreign.call)} was sent to route ${route}, which cannot read it: only the provider that produced it can`,
      );
    if (findings.length === 0 && own)
      finding('pass', `${this.name(call)}: the compaction item of ${this.name(own.call)} went back whole`);
    return findings;
  }
}
