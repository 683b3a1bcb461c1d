import { describe, expect, it } from 'vitest';
import { endpointUrl } from './endpoint-url.js';

describe('endpointUrl', () => {
  it('joins a path below the base URL, keeping its query last', () => {
    expect(endpointUrl('https://api.deepseek.com', '/chat/completions')).toBe(
      'https://api.deepseek.com/chat/completions',
    );
    expect(endpointUrl('https://openrouter.ai/api/v1/', '/chat/completions')).toBe(
      'https://openrouter.ai/api/v1/chat/completions',
    );
    expect(endpointUrl('http://127.0.0.1:9/v1?key=abc', '/chat/completions')).toBe(
      'http://127.0.0.1:9/v1/chat/completions?key=abc',
    );
    expect(endpointUrl('https://g.example/v1beta?key=k', '/models/m:streamGenerateContent?alt=sse')).toBe(
      'https://g.example/v1beta/models/m:streamGenerateContent?key=k&alt=sse',
    );
  });
});
