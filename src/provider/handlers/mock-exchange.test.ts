import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { mockExchange, wireHeaders } from './mock-exchange.js';

// Header names in several cases (so one name can come twice), values with HTTP whitespace at either end or inside.
const headerName = fc
  .tuple(fc.constantFrom('x-a', 'content-type', 'x-reasoning-replay-findings', 'retry-after', 'b'), fc.boolean())
  .map(([name, upper]) => (upper ? name.toUpperCase() : name));
const headerValue = fc
  .tuple(
    fc.constantFrom('', ' ', '\t', ' \t '),
    fc.string({ unit: 'grapheme-ascii', maxLength: 10 }),
    fc.constantFrom('', ' ', '\t'),
  )
  .map(([before, text, after]) => before + text + after);
const headerRecord = fc.dictionary(headerName, headerValue, { maxKeys: 6 });

describe('wireHeaders', () => {
  test("reads a record out as fetch's Headers does: names lower-cased and sorted, values trimmed and joined", () =>
    fc.assert(
      fc.property(headerRecord, (record) => {
        expect(Object.entries(wireHeaders(record))).toEqual([...new Headers(record)]);
      }),
    ));

  test("a mock exchange looks a header up as fetch's Request does", () =>
    fc.assert(
      fc.property(headerRecord, headerName, (record, name) => {
        const request = new Request('https://api.example.test/v1', { method: 'POST', headers: record });
        const exchange = mockExchange('POST', 'https://API.example.test:443/v1', record, '');
        expect(exchange.header(name)).toBe(request.headers.get(name));
        expect(exchange.url).toBe(request.url);
      }),
    ));
});
