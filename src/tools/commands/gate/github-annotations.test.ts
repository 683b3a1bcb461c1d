import { describe, expect, it } from 'vitest';
import { errorAnnotation } from './github-annotations.js';

describe('errorAnnotation', () => {
  it('escapes the message and properties so a multi-line detail stays one annotation', () => {
    expect(errorAnnotation('specs/routes.json', 12, 'reasoning-replay: route a,b', 'fails 100%\nsecond line\r')).toBe(
      '::error file=specs/routes.json,line=12,title=reasoning-replay%3A route a%2Cb::fails 100%25%0Asecond line%0D',
    );
  });
});
