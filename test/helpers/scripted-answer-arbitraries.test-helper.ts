import fc from 'fast-check';
import type { ScriptedAnswer } from '../../src/shared/scenarios/scenario.js';

/**
 * What a scripted model says in one call, for renderer and stream property tests. Gemini's args
 * are a Struct, so its tests ask for tool arguments that are JSON objects.
 */
export const aScriptedAnswer = (options: { objectArguments?: boolean } = {}): fc.Arbitrary<ScriptedAnswer> =>
  fc.record(
    {
      content: fc.option(fc.string({ maxLength: 30 }), { nil: null }),
      reasoning: fc.string({ maxLength: 30 }),
      redacted: fc.boolean(),
      tool_calls: fc.array(
        fc.record({
          id: fc.stringMatching(/^call_[a-z0-9]{1,6}$/),
          type: fc.constant('function' as const),
          function: fc.record({
            name: fc.stringMatching(/^[a-z_]{1,10}$/),
            arguments: options.objectArguments
              ? fc.dictionary(fc.stringMatching(/^[a-z]{1,5}$/), fc.jsonValue()).map((o) => JSON.stringify(o))
              : fc.json(),
          }),
        }),
        { maxLength: 3 },
      ),
    },
    { requiredKeys: [] },
  );
