import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { annotation, errorAnnotation, warningAnnotation, type AnnotationLevel } from './github-annotations.js';
import { parseWorkflowCommand } from './workflow-command.test-helper.js';

/**
 * Any file, title and message, however many %, CR, LF, :, , and = they hold, print as one line that
 * the runner reads back as exactly what was meant: a missed escape either splits the line, ends the
 * properties early (a `:` pair) or cuts a property at a comma.
 */
const hostile = fc.string({
  unit: fc.constantFrom(
    '%',
    '\r',
    '\n',
    ':',
    ',',
    '=',
    ' ',
    'a',
    'Z',
    '0',
    'A',
    'D',
    '2',
    '5',
    'C',
    '3',
    '::',
    '%0A',
    '%25',
    'é',
    '🙂',
  ),
  maxLength: 40,
});

describe('GitHub annotations are valid workflow commands', () => {
  it('error and warning annotations round-trip through the runner’s parser, on one line', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(errorAnnotation, warningAnnotation),
        hostile,
        fc.integer({ min: 1, max: 100_000 }),
        hostile,
        hostile,
        (make, file, line, title, message) => {
          const text = make(file, line, title, message);
          expect(text).not.toMatch(/[\r\n]/);
          const parsed = parseWorkflowCommand(text);
          expect(parsed).toEqual({
            command: make === errorAnnotation ? 'error' : 'warning',
            properties: { file, line: String(line), title },
            data: message,
          });
        },
      ),
      { numRuns: 500 },
    );
  });

  it('an annotation without a place is `::level::message`, and still round-trips', () => {
    fc.assert(
      fc.property(fc.constantFrom<AnnotationLevel>('error', 'warning', 'notice'), hostile, (level, message) => {
        const text = annotation(level, {}, message);
        expect(text.startsWith(`::${level}::`)).toBe(true);
        expect(parseWorkflowCommand(text)).toEqual({ command: level, properties: {}, data: message });
      }),
    );
  });
});
