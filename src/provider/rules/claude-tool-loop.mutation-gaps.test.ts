import { describe, expect, it } from 'vitest';
import { toolLoopOpener, type LoopMessage } from './claude-tool-loop.js';

/**
 * Claude's "final assistant message must start with a thinking block" looks at the message that
 * opens the current tool loop. The Anthropic and Bedrock judge tests reach this only through
 * well-formed loops; Stryker found the edges untested: no loop at all, a loop from the very first
 * message, a user turn mixing results and text.
 */

const user = (...kinds: string[]): LoopMessage => ({ role: 'user', kinds });
const assistant = (...kinds: string[]): LoopMessage => ({ role: 'assistant', kinds });

describe('toolLoopOpener', () => {
  it('finds the first assistant message after the last user message that says something', () => {
    expect(
      toolLoopOpener([
        user('text'),
        assistant('thinking', 'tool_use'),
        user('tool_result'),
        assistant('tool_use'),
        user('tool_result'),
      ]),
    ).toBe(1);
    expect(
      toolLoopOpener([
        user('text'),
        assistant('tool_use'),
        user('text'),
        assistant('tool_use'),
        user('tool_result', 'tool_result'),
      ]),
    ).toBe(3);
  });

  it('finds a loop that starts at the very first message', () => {
    expect(toolLoopOpener([assistant('tool_use'), user('tool_result')])).toBe(0);
  });

  it('finds no loop unless the request ends in a user message holding only tool results', () => {
    expect(toolLoopOpener([])).toBeUndefined();
    expect(toolLoopOpener([user('text'), assistant('tool_use')])).toBeUndefined();
    expect(toolLoopOpener([user('text'), assistant('tool_use'), user('tool_result', 'text')])).toBeUndefined();
    expect(toolLoopOpener([user('text'), assistant('tool_use'), user()])).toBeUndefined();
    expect(toolLoopOpener([user('text'), assistant('tool_result')])).toBeUndefined();
  });

  it('finds no opener when the loop holds no assistant message', () => {
    expect(toolLoopOpener([user('text'), user('tool_result')])).toBeUndefined();
  });
});
