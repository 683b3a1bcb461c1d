import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { IsoClock } from './iso-clock.js';

describe('the log clock', () => {
  test.prop([fc.array(fc.integer({ min: 0, max: 4_102_444_800_000 }), { minLength: 1, maxLength: 30 })])(
    'gives, at every reading, the ISO time of that very millisecond, however readings repeat or jump',
    (readings) => {
      const steps = readings.flatMap((ms) => [ms, ms, ms + 1]);
      let i = 0;
      const clock = new IsoClock(() => steps[i]!);
      for (; i < steps.length; i++) expect(clock.now()).toBe(new Date(steps[i]!).toISOString());
    },
  );
});
