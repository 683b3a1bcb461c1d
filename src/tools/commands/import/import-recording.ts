import { basename } from 'node:path';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { familyFor } from '../../../engine/families/registry.js';
import type { Fixture, FixtureExchange } from '../../../provider/fixtures/fixture-store.js';
import { decodeEventStream, isAwsEventStream } from '../../services/recorder/bedrock-event-stream.js';
import { resolveLiveTarget, type LiveTarget } from '../../services/recorder/live-target.js';
import { toolVersion } from '../../services/recorder/record-scenario.js';
import type { FamilyId, RouteTable } from '../../../shared/route-table/route-table.js';
import { parseSse } from '../../../shared/sse/parse-sse.js';
import { chunksToEvents } from './ai-sdk-chunks.js';
import { readHar } from './read-har.js';
import { readVcrCassette } from './read-vcr-cassette.js';
import type { RecordedExchange } from './recorded-exchange.js';
import { ImportFormatError } from '../../../shared/errors/import-format-error.js';

export const IMPORT_FORMATS = ['vcr', 'har', 'ai-sdk-chunks'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The format a file name says: `.har`, `.yaml`/`.yml` (VCR), `.chunks.txt` (Vercel AI SDK dump). */
export function formatOfFile(file: string): ImportFormat | undefined {
  const name = basename(file).toLowerCase();
  if (name.endsWith('.har')) return 'har';
  if (name.endsWith('.yaml') || name.endsWith('.yml')) return 'vcr';
  if (name.endsWith('.chunks.txt')) return 'ai-sdk-chunks';
  return undefined;
}

export interface ImportArgs {
  /** The file as the user named it (goes into provenance.source). */
  source: string;
  bytes: Uint8Array;
  format: ImportFormat;
  provider: string;
  scenario?: string;
  model?: string;
  family?: FamilyId;
  /** Base URL for a chunk dump, which holds no request (default: the spec's). */
  baseUrl?: string;
  table: RouteTable;
  providersDir?: string;
  now?: () => Date;
}

export interface ImportedFixture {
  fixture: Fixture;
  /** Stream events by exchange index, for the fixture writer. */
  streams: Map<number, SseEvent[]>;
  live: LiveTarget;
  /** What was left out or could not be read, each said once. */
  notes: string[];
}

/** The request path of each family's generation call; other recorded calls (auth, model lists) are left out. */
const CALL_PATH: Record<FamilyId, RegExp> = {
  'openai-chat': /\/chat\/completions$/,
  copilot: /\/chat\/completions$/,
  'openai-responses': /\/responses$/,
  'anthropic-messages': /(\/messages$|:(stream)?rawPredict$)/i,
  gemini: /:(stream)?generateContent$/,
  'bedrock-converse': /\/converse(-stream)?$/,
};

const decode = (body: string | Uint8Array) => (typeof body === 'string' ? body : new TextDecoder().decode(body));

function jsonOr(text: string | undefined): unknown {
  if (text === undefined) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The model a call names: its body's `model`, or the URL segment Gemini and Bedrock put it in. */
function modelOf(x: RecordedExchange): string | undefined {
  const body = jsonOr(x.requestBody);
  if (typeof body === 'object' && body !== null && typeof (body as { model?: unknown }).model === 'string')
    return (body as { model: string }).model;
  const path = decodeURIComponent(new URL(x.url).pathname);
  return /\/models\/([^/:]+):/.exec(path)?.[1] ?? /\/model\/([^/]+)\/(converse|invoke)/.exec(path)?.[1];
}

/**
 * A body stored still compressed (vcrpy keeps gzip bytes unless decode_compressed_response is set)
 * is inflated by its content-encoding; the fixture holds what the family reads.
 */
function decompressed(x: RecordedExchange): string | Uint8Array {
  const encoding = (x.responseHeaders['content-encoding'] ?? '').toLowerCase().trim();
  if (!encoding || encoding === 'identity') return x.responseBody;
  const bytes =
    typeof x.responseBody === 'string' ? Buffer.from(x.responseBody, 'latin1') : Buffer.from(x.responseBody);
  try {
    if (encoding === 'gzip' || encoding === 'x-gzip') return new Uint8Array(gunzipSync(bytes));
    if (encoding === 'deflate') return new Uint8Array(inflateSync(bytes));
    if (encoding === 'br') return new Uint8Array(brotliDecompressSync(bytes));
  } catch {
    // Tools that decode before storing (HAR, VCR with decoding on) keep the header: the body is plain.
    return x.responseBody;
  }
  return x.responseBody;
}

function responseOf(
  recorded: RecordedExchange,
  notes: string[],
  at: number,
): { response: FixtureExchange['response']; events?: SseEvent[] } {
  const x = { ...recorded, responseBody: decompressed(recorded) };
  const contentType = x.responseHeaders['content-type'] ?? '';
  const headers = { ...x.responseHeaders };
  delete headers['content-length'];
  delete headers['content-encoding'];
  delete headers['transfer-encoding'];
  if (isAwsEventStream(contentType)) {
    const bytes = typeof x.responseBody === 'string' ? new TextEncoder().encode(x.responseBody) : x.responseBody;
    return { response: { status: x.status, headers, stream: { events: [] } }, events: decodeEventStream(bytes) };
  }
  const text = decode(x.responseBody);
  if (/text\/event-stream/i.test(contentType)) {
    const { events, truncated } = parseSse(text);
    if (truncated) notes.push(`exchange ${at}: the recorded stream ends inside an event; the cut event is left out`);
    return { response: { status: x.status, headers, stream: { events: [] } }, events };
  }
  return { response: { status: x.status, headers, body: jsonOr(text) } };
}

/** What the family reads from the answer, as the recorder stores it beside each exchange. */
function carriersOf(
  live: LiveTarget,
  response: FixtureExchange['response'],
  events: SseEvent[] | undefined,
  notes: string[],
  at: number,
): Record<string, unknown> | undefined {
  if (response.status >= 300) return undefined;
  const family = familyFor(live.family);
  try {
    if (events) {
      if (!family.streamCarriers) return undefined;
      const reader = family.streamCarriers(live.policy);
      for (const e of events) reader.acceptEvent(e);
      const answer = reader.end();
      notes.push(
        ...reader.notes.map((n) => `exchange ${at}: ${n}`),
        ...(answer.notes ?? []).map((n) => `exchange ${at}: ${n}`),
      );
      return answer.carriers as Record<string, unknown>;
    }
    const answer = family.fromResponse(response.body, live.policy);
    notes.push(...(answer.notes ?? []).map((n) => `exchange ${at}: ${n}`));
    return answer.carriers as Record<string, unknown>;
  } catch (error) {
    notes.push(
      `exchange ${at}: the ${live.family} reader could not read the answer (${(error as Error).message}); it is kept as recorded`,
    );
    return undefined;
  }
}

/**
 * An existing recording -> a fixture draft: the family's calls in order (other calls left out and
 * said so), streams decoded (SSE, or Bedrock's binary event stream), each answer's carriers read.
 * Provenance says `imported` with the format and the file. Redaction and the secret sweep are the
 * writer's (the recorder's), so an import is held to exactly what a recording is.
 */
export function importRecording(args: ImportArgs): ImportedFixture {
  const notes: string[] = [];
  const text = decode(args.bytes);
  let recorded: RecordedExchange[];
  let chunkEvents: SseEvent[] | undefined;
  if (args.format === 'har') recorded = readHar(text);
  else if (args.format === 'vcr') recorded = readVcrCassette(text);
  else {
    recorded = [];
    chunkEvents = chunksToEvents(text, args.family ?? familyOfProvider(args));
  }

  const first = recorded[0];
  const baseUrl = args.baseUrl ?? (first ? new URL(first.url).origin : undefined) ?? specBaseUrl(args);
  const live = resolveLiveTarget({
    provider: args.provider,
    baseUrl,
    model: args.model ?? (first ? modelOf(first) : undefined) ?? 'unknown-model',
    ...(args.family ? { family: args.family } : {}),
    table: args.table,
    ...(args.providersDir ? { providersDir: args.providersDir } : {}),
  });
  const model = args.model ?? (first ? modelOf(first) : undefined) ?? live.spec?.target.model;
  if (!model) throw new ImportFormatError('', 'no model is named in the recording or the provider spec; give --model');

  const exchanges: FixtureExchange[] = [];
  const streams = new Map<number, SseEvent[]>();
  if (chunkEvents) {
    const response: FixtureExchange['response'] = {
      status: 200,
      headers: { 'content-type': 'text/event-stream' },
      stream: { events: [] },
    };
    const carriers = carriersOf(live, response, chunkEvents, notes, 0);
    streams.set(0, chunkEvents);
    exchanges.push({ response, ...(carriers ? { carriers } : {}) });
  } else {
    const calls = recorded.filter(
      (x) => x.method.toUpperCase() === 'POST' && CALL_PATH[live.family].test(new URL(x.url).pathname),
    );
    const skipped = recorded.length - calls.length;
    if (calls.length === 0) {
      const seen = [...new Set(recorded.map((x) => `${x.method} ${new URL(x.url).pathname}`))].slice(0, 5).join(', ');
      throw new ImportFormatError(
        '',
        `no ${live.family} call in it (POST ${CALL_PATH[live.family].source}); it holds ${recorded.length} exchange(s)${seen ? `: ${seen}` : ''}`,
      );
    }
    if (skipped > 0) notes.push(`${skipped} recorded exchange(s) that are not ${live.family} calls were left out`);
    calls.forEach((x, at) => {
      const { response, events } = responseOf(x, notes, at);
      const carriers = carriersOf(live, response, events, notes, at);
      if (events) streams.set(at, events);
      exchanges.push({
        request: { method: x.method.toUpperCase(), url: x.url, headers: x.requestHeaders, body: jsonOr(x.requestBody) },
        response,
        ...(carriers ? { carriers } : {}),
      });
    });
  }

  const scenario =
    args.scenario ??
    basename(args.source)
      .replace(/(\.chunks\.txt|\.har|\.ya?ml|\.json)$/i, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-');
  const fixture: Fixture = {
    provider: live.id,
    route: live.policy.routeId,
    model,
    scenario,
    family: live.family,
    provenance: {
      kind: 'imported',
      format: args.format,
      source: args.source,
      date: (args.now?.() ?? new Date()).toISOString(),
      tool: toolVersion(),
      ...(first ? { endpointHost: new URL(first.url).host } : {}),
    },
    exchanges,
  };
  return { fixture, streams, live, notes };
}

function familyOfProvider(args: ImportArgs): FamilyId {
  return resolveLiveTarget({
    provider: args.provider,
    baseUrl: specBaseUrl(args),
    model: args.model ?? 'unknown-model',
    table: args.table,
    ...(args.providersDir ? { providersDir: args.providersDir } : {}),
  }).family;
}

/** A chunk dump holds no URL: the spec's base URL stands in (routing only; nothing is sent). */
function specBaseUrl(args: ImportArgs): string {
  if (args.baseUrl) return args.baseUrl;
  try {
    const probe = resolveLiveTarget({
      provider: args.provider,
      baseUrl: 'https://api.example.com',
      model: 'x',
      table: args.table,
      ...(args.providersDir ? { providersDir: args.providersDir } : {}),
    });
    return probe.spec?.endpoint.baseUrl ?? 'https://api.example.com';
  } catch {
    return 'https://api.example.com';
  }
}
