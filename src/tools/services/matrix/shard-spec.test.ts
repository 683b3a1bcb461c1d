import { describe, expect, it } from 'vitest';
import { InputError } from '../../../shared/errors/input-error.js';
import { parseShard } from './shard-spec.js';

describe('parseShard', () => {
  it.each([
    ['1/1', 1, 1],
    ['2/4', 2, 4],
    ['7/7', 7, 7],
    [' 3 / 5 ', 3, 5],
  ])('reads %j', (value, index, count) => {
    expect(parseShard(value)).toEqual({ index, count });
  });

  it.each([
    ['0/3', 'outside 1..3'],
    ['4/3', 'outside 1..3'],
    ['a/b', 'not of the form i/N'],
    ['1/0', 'N must be at least 1'],
    ['1.5/2', 'not of the form i/N'],
    ['-1/2', 'not of the form i/N'],
    ['', 'not of the form i/N'],
  ])('refuses %j as bad input with a hint', (value, problem) => {
    let caught: unknown;
    try {
      parseShard(value);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(InputError);
    const message = (caught as InputError).message;
    expect(message).toContain(problem);
    expect(message).toMatch(/^--shard: .*\(hint: give i\/N .*--shard 2\/4/);
  });
});
