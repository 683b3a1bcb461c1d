import { StreamCutError } from '../../../shared/errors/stream-cut-error.js';
import { closeSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, writevSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SseReader } from '../../../shared/sse/parse-sse.js';
import type { SseEvent } from '../../../shared/sse/sse-event.js';
import { processAlive } from '../../../shared/files/process-alive.js';
import { InvariantError } from '../../../shared/errors/invariant-error.js';

/**
 * Where a captured stream waits until the fixture is written: the body's chunks exactly as they
 * arrived, each with its arrival time. Parsing into SSE events happens when the spool is read, not
 * while the stream flows, so the consumer gets every chunk with next to no added latency, and the
 * events' `atMs` are still the arrival time of the chunk that completed each event. The file spool
 * keeps the recorder's heap flat on long streams; it lives under the OS temp dir, never beside the
 * fixtures, so a recording that is killed leaves nothing where fixtures are read.
 *
 * Iterating a spool parses it (again, each time) and throws StreamCutError when the body ended
 * inside an event.
 */
export interface StreamSpool extends Iterable<SseEvent> {
  /** One body chunk, and when it arrived in ms after the first byte. */
  append(chunk: Uint8Array, atMs: number): void;
  readonly bytes: number;
  readonly chunks: number;
}

interface TimedChunk {
  bytes: Uint8Array;
  atMs: number;
}

/** The SSE events of timed chunks, each stamped with the arrival time of the chunk that closed it. */
export function* eventsOfChunks(chunks: Iterable<TimedChunk>): Generator<SseEvent> {
  let now = 0;
  let count = 0;
  const ready: SseEvent[] = [];
  const reader = new SseReader(
    (event) => ready.push(event),
    () => now,
  );
  const decoder = new TextDecoder();
  const feed = (text: string) => {
    reader.feed(text);
    // SseReader keeps its own list of every event too; this generator hands them out instead.
    reader.events.length = 0;
  };
  for (const chunk of chunks) {
    now = chunk.atMs;
    feed(decoder.decode(chunk.bytes, { stream: true }));
    count += ready.length;
    yield* ready.splice(0);
  }
  feed(decoder.decode());
  count += ready.length;
  yield* ready.splice(0);
  if (reader.pending) throw new StreamCutError(count);
}

/** Small captures and tests: the chunks stay in memory. */
export class MemorySpool implements StreamSpool {
  private readonly list: TimedChunk[] = [];
  bytes = 0;
  append(chunk: Uint8Array, atMs: number): void {
    // A copy: the consumer owns the chunk it was handed and may reuse it.
    this.list.push({ bytes: chunk.slice(), atMs });
    this.bytes += chunk.byteLength;
  }
  get chunks(): number {
    return this.list.length;
  }
  [Symbol.iterator](): Iterator<SseEvent> {
    return eventsOfChunks(this.list);
  }
}

const HEADER = 12; // u32 length + f64 arrival time
const BLOCK = 64 * 1024;

const FLUSH_AT = 256 * 1024;

/**
 * Chunks framed as [u32 length][f64 atMs][bytes] in one file, written in batches of about 256 kB
 * with one writev each: few syscalls while the stream flows, and at most one batch in memory. A
 * batch holds the chunks themselves, not copies: fetch hands every reader fresh buffers and the
 * consumers here only read them.
 */
/** The spool's one write call: fs.writevSync, or a stand-in that fails as a full disk would (tests). */
export type WritevSync = (fd: number, buffers: readonly NodeJS.ArrayBufferView[]) => number;

export class FileSpool implements StreamSpool {
  private readonly fd: number;
  private batch: Uint8Array[] = [];
  private times: number[] = [];
  private batchBytes = 0;
  bytes = 0;
  chunks = 0;

  constructor(
    readonly file: string,
    private readonly writev: WritevSync = writevSync,
  ) {
    this.fd = openSync(file, 'w+');
  }

  append(chunk: Uint8Array, atMs: number): void {
    this.batch.push(chunk);
    this.times.push(atMs);
    this.batchBytes += chunk.byteLength;
    this.bytes += chunk.byteLength;
    this.chunks++;
    if (this.batchBytes >= FLUSH_AT) this.flush();
  }

  private flush(): void {
    if (this.batch.length === 0) return;
    const headers = Buffer.allocUnsafe(HEADER * this.batch.length);
    const frames: Uint8Array[] = [];
    this.batch.forEach((chunk, i) => {
      headers.writeUInt32LE(chunk.byteLength, i * HEADER);
      headers.writeDoubleLE(this.times[i]!, i * HEADER + 4);
      frames.push(headers.subarray(i * HEADER, (i + 1) * HEADER), chunk);
    });
    // writev takes at most IOV_MAX (1024) buffers per call.
    for (let i = 0; i < frames.length; i += 1024) this.writev(this.fd, frames.slice(i, i + 1024));
    this.batch = [];
    this.times = [];
    this.batchBytes = 0;
  }

  /** Reads the frames back a block at a time; a chunk larger than a block is read whole. */
  private *timedChunks(): Generator<TimedChunk> {
    let position = 0;
    let buffer = Buffer.alloc(0);
    const fill = (need: number): boolean => {
      while (buffer.length < need) {
        const block = Buffer.allocUnsafe(Math.max(BLOCK, need - buffer.length));
        const read = readSync(this.fd, block, 0, block.length, position);
        if (read === 0) return false;
        position += read;
        buffer = buffer.length === 0 ? block.subarray(0, read) : Buffer.concat([buffer, block.subarray(0, read)]);
      }
      return true;
    };
    while (fill(HEADER)) {
      const length = buffer.readUInt32LE(0);
      const atMs = buffer.readDoubleLE(4);
      if (!fill(HEADER + length)) throw new InvariantError(`spool ${this.file} is truncated`);
      yield { bytes: buffer.subarray(HEADER, HEADER + length), atMs };
      buffer = buffer.subarray(HEADER + length);
    }
  }

  [Symbol.iterator](): Iterator<SseEvent> {
    this.flush();
    return eventsOfChunks(this.timedChunks());
  }

  close(): void {
    closeSync(this.fd);
  }
}

const SPOOL_PREFIX = 'reasoning-replay-record-';

/**
 * Spool folders of recordings that were killed (SIGKILL skips every cleanup); each folder name
 * carries its writer's pid, and only folders of processes that no longer exist are removed.
 */
export function removeStaleSpoolDirs(root: string = tmpdir()): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(root)) {
    const m = name.startsWith(SPOOL_PREFIX) ? /^reasoning-replay-record-(\d+)-/.exec(name) : null;
    if (!m || processAlive(Number(m[1]))) continue;
    rmSync(join(root, name), { recursive: true, force: true });
    removed.push(join(root, name));
  }
  return removed;
}

/** A temp folder of spools for one recording; `dispose` removes it whatever happened. */
export class SpoolDir {
  readonly dir: string;
  private readonly spools: FileSpool[] = [];
  private next = 0;
  private readonly writev: WritevSync | undefined;

  constructor(
    readonly root: string = tmpdir(),
    seams: { writev?: WritevSync } = {},
  ) {
    removeStaleSpoolDirs(root);
    this.dir = mkdtempSync(join(root, `${SPOOL_PREFIX}${process.pid}-`));
    this.writev = seams.writev;
  }

  create = (): StreamSpool => {
    const spool = new FileSpool(join(this.dir, `${this.next++}.spool`), this.writev);
    this.spools.push(spool);
    return spool;
  };

  dispose(): void {
    for (const spool of this.spools) {
      try {
        spool.close();
      } catch {
        /* already closed */
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}
