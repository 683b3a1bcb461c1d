import { closeSync, mkdtempSync, openSync, readdirSync, readSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SseEvent } from '../sse/sse-event.js';
import { processAlive } from './process-alive.js';

/**
 * Where the events of one captured stream wait until the fixture is written. The recorder keeps
 * its memory flat on long streams by spooling to disk: a 5 MB answer costs a file, not 5 MB of
 * heap. The spool lives under the OS temp dir, never beside the fixtures, so a recording that is
 * killed leaves nothing where fixtures are read.
 */
export interface EventSpool extends Iterable<SseEvent> {
  append(event: SseEvent): void;
  readonly count: number;
  /** The events in arrival order; can be walked more than once. */
  events(): Iterable<SseEvent>;
}

/** Small captures and tests: the events stay in an array. */
export class MemorySpool implements EventSpool {
  private readonly list: SseEvent[] = [];
  append(event: SseEvent): void {
    this.list.push(event);
  }
  get count(): number {
    return this.list.length;
  }
  events(): Iterable<SseEvent> {
    return this.list;
  }
  [Symbol.iterator](): Iterator<SseEvent> {
    return this.list[Symbol.iterator]();
  }
}

const FLUSH_AT = 64 * 1024;

/** One JSON line per event in a file; written in 64 kB batches, read back a block at a time. */
export class FileSpool implements EventSpool {
  private fd: number;
  private pending: string[] = [];
  private pendingBytes = 0;
  private n = 0;

  constructor(readonly file: string) {
    this.fd = openSync(file, 'w+');
  }

  append(event: SseEvent): void {
    const line = JSON.stringify(event) + '\n';
    this.pending.push(line);
    this.pendingBytes += line.length;
    this.n++;
    if (this.pendingBytes >= FLUSH_AT) this.flush();
  }

  get count(): number {
    return this.n;
  }

  private flush(): void {
    if (this.pending.length === 0) return;
    writeSync(this.fd, this.pending.join(''));
    this.pending = [];
    this.pendingBytes = 0;
  }

  *events(): Iterable<SseEvent> {
    this.flush();
    const block = Buffer.alloc(FLUSH_AT);
    const decoder = new TextDecoder();
    let position = 0;
    let carry = '';
    for (;;) {
      const read = readSync(this.fd, block, 0, block.length, position);
      if (read === 0) break;
      position += read;
      const lines = (carry + decoder.decode(block.subarray(0, read), { stream: true })).split('\n');
      carry = lines.pop()!;
      for (const line of lines) yield JSON.parse(line) as SseEvent;
    }
    carry += decoder.decode();
    if (carry !== '') yield JSON.parse(carry) as SseEvent;
  }

  [Symbol.iterator](): Iterator<SseEvent> {
    return this.events()[Symbol.iterator]();
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

  constructor(root: string = tmpdir()) {
    removeStaleSpoolDirs(root);
    this.dir = mkdtempSync(join(root, `${SPOOL_PREFIX}${process.pid}-`));
  }

  private readonly spools: FileSpool[] = [];
  private next = 0;

  create = (): EventSpool => {
    const spool = new FileSpool(join(this.dir, `${this.next++}.jsonl`));
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
