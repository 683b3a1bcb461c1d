import { describe, expect, it } from 'vitest';
import { InputError } from '../errors/input-error.js';
import { parseRouteTable } from './load-route-table.js';

const attempt = (text: string) => {
  try {
    parseRouteTable(text, 'routes.json');
    return undefined;
  } catch (err) {
    return err as InputError;
  }
};

describe('parseRouteTable errors', () => {
  it('names line and column for broken JSON', () => {
    const err = attempt('{"version": 1,\n  "routes": [,]}');
    expect(err).toBeInstanceOf(InputError);
    expect(err!.message).toMatch(/^routes\.json: not valid JSON at line 2, column \d+/);
  });

  it('names the JSON pointer of an unexpected property', () => {
    const err = attempt(
      JSON.stringify({
        version: 1,
        routes: [
          {
            id: 'a',
            label: 'a',
            match: { default: true },
            family: 'openai-chat',
            tier: 'standard',
            fields: [],
            feilds: [],
          },
        ],
      }),
    );
    expect(err!.pointer).toBe('/routes/0/feilds');
    expect(err!.problem).toBe('unexpected property "feilds"');
  });

  it('lists the allowed values of an enum', () => {
    const err = attempt(
      JSON.stringify({
        version: 1,
        routes: [{ id: 'a', label: 'a', match: { default: true }, family: 'openai-chat', tier: 'lenient', fields: [] }],
      }),
    );
    expect(err!.pointer).toBe('/routes/0/tier');
    expect(err!.problem).toBe('must be one of "standard", "strict", "must-echo"');
  });

  it('explains a match with no keys', () => {
    const err = attempt(
      JSON.stringify({
        version: 1,
        routes: [{ id: 'a', label: 'a', match: {}, family: 'openai-chat', tier: 'standard', fields: [] }],
      }),
    );
    expect(err!.pointer).toBe('/routes/0/match');
    expect(err!.problem).toContain('providers, hosts, local or default');
  });

  it('passes lint problems through with their pointer and hint', () => {
    const err = attempt(
      JSON.stringify({
        version: 1,
        routes: [
          { id: 'a', label: 'a', match: { providers: ['a'] }, family: 'openai-chat', tier: 'standard', fields: [] },
        ],
      }),
    );
    expect(err!.message).toContain('at /routes/0/match: the last route is not a default');
    expect(err!.hint).toContain('"default": true');
  });
});
