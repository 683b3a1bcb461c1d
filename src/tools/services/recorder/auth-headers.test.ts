import { describe, expect, it } from 'vitest';
import { authHeaders } from './auth-headers.js';

describe('authHeaders', () => {
  it('presents the key the way each family and host expects', () => {
    expect(authHeaders('openai-chat', 'k')).toEqual({ authorization: 'Bearer k' });
    expect(authHeaders('openai-responses', 'k')).toEqual({ authorization: 'Bearer k' });
    expect(authHeaders('anthropic-messages', 'k', 'api.anthropic.com')).toEqual({
      'x-api-key': 'k',
      'anthropic-version': '2023-06-01',
    });
    expect(authHeaders('gemini', 'k', 'generativelanguage.googleapis.com')).toEqual({ 'x-goog-api-key': 'k' });
    expect(authHeaders('gemini', 'tok', 'us-central1-aiplatform.googleapis.com')).toEqual({
      authorization: 'Bearer tok',
    });
    expect(authHeaders('anthropic-messages', 'tok', 'us-east5-aiplatform.googleapis.com')).toEqual({
      authorization: 'Bearer tok',
    });
    expect(authHeaders('bedrock-converse', 'bedrock-key', 'bedrock-runtime.us-east-1.amazonaws.com')).toEqual({
      authorization: 'Bearer bedrock-key',
    });
  });

  it('sends no credential header without a key (Bedrock is then SigV4-signed below the capture)', () => {
    expect(authHeaders('openai-chat', undefined)).toEqual({});
    expect(authHeaders('anthropic-messages', undefined)).toEqual({ 'anthropic-version': '2023-06-01' });
    expect(authHeaders('bedrock-converse', undefined)).toEqual({});
  });
});
