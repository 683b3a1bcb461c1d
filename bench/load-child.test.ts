import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadPass, quantile } from './load-child.js';

describe('quantile', () => {
  it('takes the nearest rank of sorted latencies', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(quantile(sorted, 0.5)).toBe(51);
    expect(quantile(sorted, 0.99)).toBe(100);
    expect(quantile([], 0.99)).toBeNaN();
  });
});

describe('loadPass', () => {
  it('a tiny pass reports throughput, sub-millisecond quantiles and counts failed answers', async () => {
    let status = 200;
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end('{}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
    try {
      const ok = await loadPass({ url, body: '{}', connections: 2, seconds: 0.3 });
      expect(ok.requests).toBeGreaterThan(0);
      expect(ok.errors).toBe(0);
      expect(ok.rps).toBeCloseTo(ok.requests / 0.3, 5);
      expect(ok.p50).toBeGreaterThan(0);
      expect(ok.p99).toBeGreaterThanOrEqual(ok.p50);
      status = 500;
      const failing = await loadPass({ url, body: '{}', connections: 1, seconds: 0.2 });
      expect(failing.errors).toBe(failing.requests);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
