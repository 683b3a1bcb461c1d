import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostMatches, isLocalHost, localHostKind } from './host-matching.js';

/**
 * Google's documented Generative AI on Vertex AI regions
 * (https://cloud.google.com/vertex-ai/docs/generative-ai/learn/locations), plus the global endpoint.
 */
const VERTEX_REGIONS = [
  'us-central1',
  'us-east1',
  'us-east4',
  'us-east5',
  'us-south1',
  'us-west1',
  'us-west4',
  'northamerica-northeast1',
  'southamerica-east1',
  'europe-west1',
  'europe-west2',
  'europe-west3',
  'europe-west4',
  'europe-west6',
  'europe-west8',
  'europe-west9',
  'europe-north1',
  'europe-central2',
  'europe-southwest1',
  'asia-east1',
  'asia-east2',
  'asia-south1',
  'asia-northeast1',
  'asia-northeast3',
  'asia-southeast1',
  'australia-southeast1',
  'me-west1',
  'me-central1',
  'me-central2',
];

describe('hostMatches with a one-label wildcard', () => {
  it('matches every documented Vertex region and nothing shaped like it', () => {
    for (const region of VERTEX_REGIONS)
      expect(hostMatches(`${region}-aiplatform.googleapis.com`, '*-aiplatform.googleapis.com'), region).toBe(true);
    for (const host of [
      'aiplatform.googleapis.com',
      '-aiplatform.googleapis.com',
      'evil.us-central1-aiplatform.googleapis.com',
      'us-central1-aiplatform.googleapis.com.evil.io',
      'us-central1aiplatform.googleapis.com',
    ]) {
      expect(hostMatches(host, '*-aiplatform.googleapis.com'), host).toBe(false);
    }
  });

  it('takes a port or a URL like any host', () => {
    expect(
      hostMatches('https://europe-west4-aiplatform.googleapis.com/v1/projects/p', '*-aiplatform.googleapis.com'),
    ).toBe(true);
    expect(hostMatches('me-west1-aiplatform.googleapis.com:443', '*-aiplatform.googleapis.com')).toBe(true);
  });
});

const octet = fc.integer({ min: 0, max: 255 });
const ipv4 = (a: fc.Arbitrary<number>, b: fc.Arbitrary<number>) => fc.tuple(a, b, octet, octet).map((o) => o.join('.'));
const range = (min: number, max: number) => fc.integer({ min, max });

describe('isLocalHost', () => {
  it('takes every address of each local IPv4 range, and the addresses just outside it are public', () => {
    const inside = [
      ipv4(fc.constant(127), octet),
      ipv4(fc.constant(10), octet),
      ipv4(fc.constant(172), range(16, 31)),
      ipv4(fc.constant(192), fc.constant(168)),
      ipv4(fc.constant(169), fc.constant(254)),
      ipv4(fc.constant(100), range(64, 127)),
    ];
    const outside = [
      ipv4(fc.constant(172), range(32, 255)),
      ipv4(fc.constant(172), range(0, 15)),
      ipv4(fc.constant(100), range(128, 255)),
      ipv4(fc.constant(100), range(0, 63)),
      ipv4(fc.constant(192), range(169, 255)),
      ipv4(fc.constant(169), range(0, 253)),
      ipv4(range(11, 99), octet),
    ];
    fc.assert(
      fc.property(fc.oneof(...inside), (host) => isLocalHost(host)),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(fc.oneof(...outside), (host) => !isLocalHost(host)),
      { numRuns: 200 },
    );
  });

  it('names the kind of each local address and name', () => {
    const cases: [string, string][] = [
      ['[::1]:8000', 'loopback'],
      ['fe80::1', 'linkLocal'],
      ['fd7a:115c:a1e0::1', 'uniqueLocal'], // Tailscale's IPv6 range sits in fc00::/7
      ['fc00::1', 'uniqueLocal'],
      ['::ffff:192.168.0.9', 'private'],
      ['0.0.0.0:11434', 'unspecified'],
      ['100.101.102.103', 'carrierGradeNat'],
      ['host.docker.internal:11434', '.internal'],
      ['ip-10-0-0-5.ec2.internal', '.internal'],
      ['gpu-box.local', '.local'],
      ['api.localhost', '.localhost'],
      ['localhost:1234', '.localhost'],
      ['nas.home.arpa', '.home.arpa'],
      ['ollama:11434', 'dotless'],
      ['http://vllm:8000/v1', 'dotless'],
    ];
    for (const [host, kind] of cases) expect(localHostKind(host), host).toBe(kind);
  });

  it('leaves public names and addresses alone', () => {
    for (const host of [
      '8.8.8.8',
      '2001:4860:4860::8888',
      'fe00::1',
      'api.openai.com',
      'localhost.evil.com',
      'internal.example.com',
      'ollama.com',
    ])
      expect(isLocalHost(host), host).toBe(false);
  });
});
