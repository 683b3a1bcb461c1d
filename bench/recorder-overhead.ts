import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MemorySpool, SpoolDir, type StreamSpool } from '../src/tools/services/recorder/event-spool.js';
import { ExchangeCapture } from '../src/tools/services/recorder/capture-fetch.js';
import { formatSseEvent } from '../src/shared/sse/parse-sse.js';
import type { BenchFigure } from './figure.js';
import { collectGarbage, round, wallAsync } from './timing.js';

const STREAM_BYTES = 5 * 1024 * 1024;
const WRITE_CHUNK = 16 * 1024;
const ROUNDS = 15;
const GOAL_RATIO = 1.2;
/** "Flat": what the recorder still holds after the stream is at most a tenth of the stream. */
const FLAT_SHARE = 0.1;

/** A chat-completions stream of about 5 MB: ~1 kB reasoning deltas, as a long thinking answer sends them. */
function bigStream(): Buffer {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < STREAM_BYTES; i++) {
    const delta = {
      id: 'chatcmpl-bench',
      object: 'chat.completion.chunk',
      choices: [
        { index: 0, delta: { reasoning_content: `step ${i}: ${'thinking '.repeat(110)}` }, finish_reason: null },
      ],
    };
    const wire = formatSseEvent({ data: JSON.stringify(delta) });
    parts.push(wire);
    size += Buffer.byteLength(wire);
  }
  parts.push(formatSseEvent({ data: '[DONE]' }));
  return Buffer.from(parts.join(''));
}

async function drain(response: Response): Promise<number> {
  const reader = response.body!.getReader();
  let bytes = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return bytes;
    bytes += value.byteLength;
  }
}

/** Heap plus external memory: Buffers (what a spool in memory would hold) live outside the JS heap. */
const heapMb = () => {
  const m = process.memoryUsage();
  return (m.heapUsed + m.external) / (1024 * 1024);
};

/** Buffers are freed by a concurrent sweeper after a collection: collect, give it a moment, thrice. */
async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) {
    collectGarbage();
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
}

/**
 * CPU milliseconds (user + system) of one asynchronous run, and its wall time. The loopback server
 * lives in this process, so both sides pay it alike; CPU time is what a shared machine does not
 * disturb (descheduling shows in wall time only), as in bench/timing.ts.
 */
async function measure(fn: () => Promise<unknown>): Promise<{ cpuMs: number; wallMs: number }> {
  collectGarbage();
  const cpu = process.cpuUsage();
  const wallMs = await wallAsync(fn);
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs };
}

/**
 * The recorder's capture (tee + timed spool to disk) against a plain fetch draining the same 5 MB
 * stream from a loopback server, alternately, fastest of each. The ratio is what the stream pays
 * while it flows; parsing the spool into events happens after the last byte and is reported beside
 * it (end-to-end). Memory: the heap the capture still holds once the stream ended (collected,
 * capture alive); the in-memory spool is measured too, to show the figure tells the two apart.
 */
export async function benchRecorderOverhead(): Promise<BenchFigure> {
  const body = bigStream();
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    for (let at = 0; at < body.length; at += WRITE_CHUNK) res.write(body.subarray(at, at + WRITE_CHUNK));
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
  const spools = new SpoolDir();
  try {
    const passthrough = async () => drain(await fetch(url, { method: 'POST', body: '{}' }));
    const recorded = async (spool: () => StreamSpool) => {
      const capture = new ExchangeCapture({ spool });
      await drain(await capture.fetch(url, { method: 'POST', body: '{}' }));
      if (!capture.allComplete) throw new Error(`capture incomplete: ${capture.captured[0]?.error ?? 'unknown'}`);
      return capture;
    };
    /** What a recording does after the last byte: parse the spooled stream into events (once). */
    const parsed = async (spool: () => StreamSpool) => {
      const capture = await recorded(spool);
      capture.checkStreams();
      if (!capture.allComplete) throw new Error(`stream unreadable: ${capture.captured[0]?.error ?? 'unknown'}`);
      return capture;
    };

    await passthrough();
    await parsed(spools.create);
    const best = {
      floor: { cpuMs: Infinity, wallMs: Infinity },
      inline: { cpuMs: Infinity, wallMs: Infinity },
      endToEnd: { cpuMs: Infinity, wallMs: Infinity },
    };
    const keep = (slot: keyof typeof best, m: { cpuMs: number; wallMs: number }) => {
      best[slot] = { cpuMs: Math.min(best[slot].cpuMs, m.cpuMs), wallMs: Math.min(best[slot].wallMs, m.wallMs) };
    };
    for (let i = 0; i < ROUNDS; i++) {
      keep('floor', await measure(passthrough));
      keep('inline', await measure(() => recorded(spools.create)));
      keep('endToEnd', await measure(() => parsed(spools.create)));
    }

    const retained = async (spool: () => StreamSpool) => {
      await settle();
      const before = heapMb();
      const capture = await recorded(spool);
      await settle();
      const held = heapMb() - before;
      return { mb: held, events: [...capture.captured[0]!.events!].length };
    };
    const spooled = await retained(spools.create);
    const inMemory = await retained(() => new MemorySpool());

    const ratio = best.inline.cpuMs / best.floor.cpuMs;
    const streamMb = body.length / (1024 * 1024);
    const flat = spooled.mb <= streamMb * FLAT_SHARE;
    return {
      id: 'recorder-overhead',
      figure: `recorder on a 5 MB SSE stream vs plain passthrough, CPU time while the stream flows (loopback, fastest of ${ROUNDS} each)`,
      measured: round(ratio),
      unit: 'x',
      goal: `< ${GOAL_RATIO}x, heap flat (holds <= ${FLAT_SHARE * 100}% of the stream)`,
      met: ratio < GOAL_RATIO && flat,
      details: {
        streamMb: round(streamMb),
        events: spooled.events,
        passthroughCpuMs: round(best.floor.cpuMs),
        recorderWhileStreamingCpuMs: round(best.inline.cpuMs),
        recorderIncludingEventParseCpuMs: round(best.endToEnd.cpuMs),
        endToEndCpuRatio: round(best.endToEnd.cpuMs / best.floor.cpuMs),
        passthroughWallMs: round(best.floor.wallMs),
        recorderWhileStreamingWallMs: round(best.inline.wallMs),
        wallRatio: round(best.inline.wallMs / best.floor.wallMs),
        heapHeldAfterStreamMb: round(spooled.mb),
        heapHeldWithInMemorySpoolMb: round(inMemory.mb),
        flat,
      },
    };
  } finally {
    spools.dispose();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
