import {
  CompactionLedger,
  compactionBlobs,
  compactionBlobsOfStream,
} from '../../../judge/conformance/compaction-kept.js';
import { conversationOpening } from '../../../judge/conformance/conversation-opening.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import type { ServeLogEntry } from './serve-log.js';

// Both providers ask for the item back whole and ignore what stands before it; neither refuses a request without it.
const SOURCES = [
  'https://platform.claude.com/docs/en/build-with-claude/compaction',
  'https://developers.openai.com/api/docs/guides/compaction.md',
];

/** What serve answered, as the judge of compaction reads it: a JSON body, or a stream's events. */
export type ServedAnswer =
  { kind: 'json'; bytes: Uint8Array | string } | { kind: 'events'; events: readonly SseEvent[] };

/**
 * compaction-kept over serve's traffic (`run`, `serve --log`): a compaction item or block a mock issued must come back
 * whole in every later request of that conversation. The provider accepts a request without it in silence (it just
 * sees a shorter history), so no mock refusal names a dropped item; this judge does. A conversation is one client, run
 * and provider with one opening user turn (conversation-opening.ts). A request naming a stored response
 * (previous_response_id, conversation) is not judged: the server holds its history, the item included. Thin on
 * purpose: the rule lives in src/judge/conformance/compaction-kept.ts.
 */
export class ServeCompaction {
  private readonly ledgers = new Map<string, CompactionLedger>();

  /** Files the judge's finding on the request's log entry, before it is logged, and reads what its answer issued. */
  judgeEntry(entry: ServeLogEntry, body: unknown, answer: ServedAnswer | undefined): void {
    const blobs = answer && entry.status >= 200 && entry.status < 300 ? blobsOf(answer) : [];
    // Until an answer issues an item, no request has one to carry back: most runs pay one look at each answer.
    if (this.ledgers.size === 0 && blobs.length === 0) return;
    const opening = conversationOpening(body);
    if (opening === undefined) return;
    if (isPlainObject(body) && (body.previous_response_id ?? body.conversation) !== undefined) return;
    const key = `${entry.client ?? ''}\u0000${entry.runId ?? ''}\u0000${entry.provider}\u0000${opening}`;
    let ledger = this.ledgers.get(key);
    if (ledger?.applies) {
      entry.compactionJudged = true;
      for (const f of ledger.judge(entry.seq, entry.route, entry.provider, body)) {
        if (f.status !== 'fail') continue;
        entry.findings.push({
          rule: 'compaction-kept',
          rejection: 'judge:compaction-kept',
          params: {},
          detail: f.detail,
          sources: SOURCES,
        });
      }
    }
    if (blobs.length === 0) return;
    if (!ledger) this.ledgers.set(key, (ledger = new CompactionLedger((seq) => `request #${seq}`)));
    ledger.issue(entry.seq, entry.route, entry.provider, blobs);
  }
}

/**
 * The blobs of each answer the mocks hand out again (a kept answer is the same bytes or events, the same object): read
 * once, not per request. Only read, never written, by the ledger.
 */
const blobsRead = new WeakMap<object, readonly string[]>();

/** The compaction blobs of an answer, read once per answer object (a kept answer comes back as the same one). */
function blobsOf(answer: ServedAnswer): readonly string[] {
  const of = answer.kind === 'json' ? answer.bytes : answer.events;
  if (typeof of === 'string') return readBlobs(answer);
  let blobs = blobsRead.get(of);
  if (!blobs) blobsRead.set(of, (blobs = readBlobs(answer)));
  return blobs;
}

/** The compaction blobs of an answer; most answers hold none, so the word is looked for before anything is parsed. */
function readBlobs(answer: ServedAnswer): string[] {
  if (answer.kind === 'json') {
    const { bytes } = answer;
    const text = typeof bytes === 'string' ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return text.includes('"compaction"') ? compactionBlobs(parseOrNull(text.toString())) : [];
  }
  if (!answer.events.some((e) => e.data.includes('compaction'))) return [];
  return compactionBlobsOfStream(answer.events.map((e) => parseOrNull(e.data)));
}

function parseOrNull(data: string): unknown {
  try {
    return JSON.parse(data) as unknown;
  } catch {
    return null;
  }
}
