import { describe, expect, it } from 'vitest';
import { hostMatches, localHostKind, normalizeHost } from './host-matching.js';

/**
 * What a route table's host pattern matches, driven with hand-written hosts: the spelling a user
 * or a client library may pass (case, spaces, a URL, a port, brackets, a trailing dot) must not
 * change which route applies, and a look-alike host must not borrow a provider's route.
 */

describe('normalizeHost', () => {
  it('takes a host however it is spelled', () => {
    expect(normalizeHost('  API.OpenAI.com  ')).toBe('api.openai.com');
    expect(normalizeHost('api.x.com.')).toBe('api.x.com');
    expect(normalizeHost('api.x.com:8443')).toBe('api.x.com');
    expect(normalizeHost('HTTPS://User@API.X.com:8443/v1/chat?q=1')).toBe('api.x.com');
    expect(normalizeHost('[::1]:8080')).toBe('::1');
    expect(normalizeHost('[fe80::1]')).toBe('fe80::1');
  });

  it('keeps what it cannot read as given', () => {
    // An unclosed bracket: everything after it.
    expect(normalizeHost('[::1')).toBe('::1');
    // A bare IPv6 address is no host:port.
    expect(normalizeHost('fe80::1')).toBe('fe80::1');
    expect(normalizeHost('::1')).toBe('::1');
    // Not a port, and a colon inside a name.
    expect(normalizeHost('api.x.com:https')).toBe('api.x.com:https');
    expect(normalizeHost('a:1:2')).toBe('a:1:2');
    // A URL that does not parse stays as typed (lowercased).
    expect(normalizeHost('http://[bad')).toBe('http://[bad');
    // Only one trailing dot goes, and only at the end.
    expect(normalizeHost('a.b..')).toBe('a.b.');
    expect(normalizeHost('.a.b')).toBe('.a.b');
  });
});

describe('hostMatches', () => {
  it('matches the host itself and its subdomains, however either is spelled', () => {
    expect(hostMatches('api.mistral.ai', 'api.mistral.ai')).toBe(true);
    expect(hostMatches('EU.API.Mistral.AI.', 'mistral.ai')).toBe(true);
    expect(hostMatches('https://eu.api.mistral.ai/v1', ' Mistral.AI ')).toBe(true);
    expect(hostMatches('api.mistral.ai:443', 'api.mistral.ai')).toBe(true);
  });

  it('matches no look-alike: a name ending in the pattern without a dot, a parent, or the pattern inside another name', () => {
    expect(hostMatches('notmistral.ai', 'mistral.ai')).toBe(false);
    expect(hostMatches('mistral.ai', 'api.mistral.ai')).toBe(false);
    expect(hostMatches('mistral.ai.evil.io', 'mistral.ai')).toBe(false);
    expect(hostMatches('xmistral.ai', 'mistral.ai')).toBe(false);
  });

  it('takes a one-label wildcard in any case and with a trailing dot', () => {
    expect(hostMatches('US-Central1-AIPlatform.googleapis.com.', '*-AIPLATFORM.googleapis.com')).toBe(true);
    expect(hostMatches('x-aiplatform.googleapis.com', '*-aiplatform.googleapis.com')).toBe(true);
    // The label is one DNS label: no dot, no underscore, no leading or trailing hyphen.
    for (const host of [
      'a.b-aiplatform.googleapis.com',
      'a_b-aiplatform.googleapis.com',
      '-a-aiplatform.googleapis.com',
      'a--aiplatform.googleapis.com',
    ]) {
      expect(hostMatches(host, '*-aiplatform.googleapis.com'), host).toBe(false);
    }
    expect(hostMatches('a-b-aiplatform.googleapis.com', '*-aiplatform.googleapis.com')).toBe(true);
    // A host that does not end in the rest of the pattern never matches, however long it is.
    expect(hostMatches('aiplatformgoogleapiscomlookalike1', '*-aiplatform.googleapis.com')).toBe(false);
  });

  it('reads a pattern without the wildcard as a plain host, even when it starts with a star', () => {
    expect(hostMatches('api.example.com', '*.example.com')).toBe(false);
    expect(hostMatches('x-example.com', '-example.com')).toBe(false);
  });
});

describe('localHostKind', () => {
  it('calls nothing local for an empty host', () => {
    expect(localHostKind('')).toBeUndefined();
    expect(localHostKind('   ')).toBeUndefined();
  });

  it('names local suffixes only as whole labels', () => {
    expect(localHostKind('LOCALHOST.')).toBe('.localhost');
    expect(localHostKind('printer.LOCAL')).toBe('.local');
    expect(localHostKind('mylocal')).toBe('dotless');
    expect(localHostKind('notlocal.com')).toBeUndefined();
    expect(localHostKind('x.notinternal')).toBeUndefined();
    expect(localHostKind('home.arpa.example.com')).toBeUndefined();
  });

  it('calls a dot-less name local, but not an IPv6-looking string that is no address', () => {
    expect(localHostKind('gpu-box')).toBe('dotless');
    expect(localHostKind('zz::1')).toBeUndefined();
    expect(localHostKind('2001:db8::1')).toBeUndefined();
  });
});
