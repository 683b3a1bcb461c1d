import { describe, expect, it } from 'vitest';
import { FileWriteError } from '../errors/file-write-error.js';
import { InputError } from '../errors/input-error.js';
import { SecretLeakError } from '../errors/secret-leak-error.js';
import { shownFileName } from './shown-file-name.js';

/**
 * Issue 27: a file name with a newline made a two-line error (`a` then `b.json at /: ...`), which a
 * reader or a CI log parser takes for two messages. Names that need it are quoted JSON-style.
 */
describe('shownFileName', () => {
  it('quotes a name holding a control character, JSON-style, so it stays on one line', () => {
    expect(shownFileName('a\nb.json')).toBe('"a\\nb.json"');
    expect(shownFileName('tab\there.json')).toBe('"tab\\there.json"');
    expect(shownFileName('bell\u0007.json')).toBe('"bell\\u0007.json"');
    expect(shownFileName('line\u2028sep.json')).toBe('"line\\u2028sep.json"');
  });

  it('quotes a name whose quotes, backslashes or edge spaces would make it ambiguous', () => {
    expect(shownFileName('say "hi".json')).toBe('"say \\"hi\\".json"');
    expect(shownFileName('a\\b.json')).toBe('"a\\\\b.json"');
    expect(shownFileName(' lead.json')).toBe('" lead.json"');
    expect(shownFileName('trail.json ')).toBe('"trail.json "');
  });

  it('leaves an ordinary name (spaces and non-ASCII letters included) as it is', () => {
    for (const name of ['specs/routes.json', 'my history.json', 'résumé/ñ.json', '--routes', 'scenario tool-call'])
      expect(shownFileName(name)).toBe(name);
  });
});

describe('errors that name a file print one line', () => {
  const name = 'a\nb.json';
  it.each([
    ['InputError', () => new InputError(name, '/x', 'a problem', 'a hint')],
    ['FileWriteError', () => new FileWriteError(name, 'ENOSPC')],
    ['SecretLeakError', () => new SecretLeakError(name, [{ pointer: '/p', pattern: 'k', masked: '…' }])],
  ])('%s', (_kind, make) => {
    const message = make().message;
    expect(message).not.toContain('\n');
    expect(message).toContain('"a\\nb.json"');
  });

  it('InputError keeps the raw name in .file for code that opens it', () => {
    expect(new InputError(name, '', 'p').file).toBe(name);
  });
});
