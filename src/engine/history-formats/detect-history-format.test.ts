import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors/input-error.js';
import { detectHistoryFormat } from './detect-history-format.js';
import { HISTORY_FORMATS } from './history-formats.js';
import { HISTORY_FORMAT_IDS } from './history-format.js';
import { loadHistoryAs } from './load-history-as.js';

/** `--history-format auto`: each format's own normal form is recognised, and a wrong choice is named. */
const dir = mkdtempSync(join(tmpdir(), 'rr-detect-'));
const write = (name: string, value: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value));
  return file;
};

const canonical = {
  messages: [
    { role: 'user', content: 'Weather in Paris?' },
    {
      role: 'assistant',
      content: null,
      reasoning_content: 'Use the tool.',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: '18C' },
  ],
};
const anthropic = {
  system: 'Be brief.',
  messages: [
    { role: 'user', content: 'Weather?' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Use the tool.', signature: 'SIG_C' },
        { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '18C' }] },
  ],
};

describe('detectHistoryFormat', () => {
  it('recognises every format in the normal form its converter writes', () => {
    // No reasoning: the Anthropic wire refuses unsigned reasoning, and the shape is what is detected.
    const { reasoning_content, ...plain } = canonical.messages[1]!;
    expect(reasoning_content).toBeDefined();
    const unsigned = { messages: [canonical.messages[0], plain, canonical.messages[2]] };
    const history = loadHistoryAs(write('c.json', unsigned), 'canonical').history;
    for (const id of HISTORY_FORMAT_IDS) {
      const written = HISTORY_FORMATS[id].fromCanonical(history);
      // The canonical form of this history is also a valid chat-completions body; either reads it the same.
      expect([id, id === 'openai-chat' ? 'canonical' : id]).toContain(detectHistoryFormat(written));
    }
    expect(detectHistoryFormat(anthropic)).toBe('anthropic-messages');
    expect(detectHistoryFormat({ contents: [{ role: 'model', parts: [{ text: 'hi' }] }] })).toBe('gemini-contents');
    expect(detectHistoryFormat({ messages: [{ role: 'user', content: 'hi', name: 'ann' }] })).toBe('openai-chat');
  });

  it('auto reads an Anthropic file and says so; canonical refuses it with a hint naming the format', () => {
    const file = write('anthropic.json', anthropic);
    const auto = loadHistoryAs(file, 'auto');
    expect(auto.format).toBe('anthropic-messages');
    expect(JSON.stringify(auto.history)).toContain('"signature":"SIG_C"');
    let refused: unknown;
    try {
      loadHistoryAs(file, 'canonical');
    } catch (err) {
      refused = err;
    }
    expect(refused).toBeInstanceOf(InputError);
    expect((refused as InputError).message).toContain(
      'the file looks like anthropic-messages: pass --history-format anthropic-messages (or auto)',
    );
  });

  it('auto widens canonical to openai-chat for an export with keys the schema refuses', () => {
    const file = write('export.json', {
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello', refusal: null },
      ],
    });
    expect(loadHistoryAs(file, 'auto').format).toBe('openai-chat');
    expect(loadHistoryAs(write('plain.json', canonical), 'auto').format).toBe('canonical');
  });
});
