import { describe, expect, it } from 'vitest';
import { loadProviderSpecs } from '../../shared/provider-specs/load-provider-specs.js';
import { specForModel } from '../../shared/provider-specs/spec-for-model.js';
import { registerProviderSpecs } from '../../shared/provider-specs/spec-registry.js';
import { judgeRequest } from '../handlers/judge-request.js';
import { formattedContent, requestedFormat } from './structured-output.js';

const SCHEMA = { type: 'object', properties: { a: { type: 'string' } }, required: ['a'] };

describe('requestedFormat reads each family the way its API does', () => {
  it.each([
    [
      'openai-chat',
      { response_format: { type: 'json_schema', json_schema: { name: 'x', schema: SCHEMA } } },
      'json-schema',
    ],
    ['openai-chat', { response_format: { type: 'json_object' } }, 'json-object'],
    ['openai-chat', { response_format: { type: 'text' } }, undefined],
    [
      'copilot',
      { response_format: { type: 'json_schema', json_schema: { name: 'x', schema: SCHEMA } } },
      'json-schema',
    ],
    ['openai-responses', { text: { format: { type: 'json_schema', name: 'x', schema: SCHEMA } } }, 'json-schema'],
    ['openai-responses', { text: { format: { type: 'text' } } }, undefined],
    [
      'gemini',
      { generationConfig: { responseMimeType: 'application/json', responseJsonSchema: SCHEMA } },
      'json-schema',
    ],
    [
      'gemini',
      { generation_config: { response_mime_type: 'application/json', response_schema: SCHEMA } },
      'json-schema',
    ],
    ['gemini', { generationConfig: { responseMimeType: 'application/json' } }, 'json-object'],
    [
      'gemini',
      { generationConfig: { responseMimeType: 'text/x.enum', responseSchema: { type: 'STRING', enum: ['a'] } } },
      'enum',
    ],
    ['gemini', { generationConfig: { temperature: 0 } }, undefined],
    ['anthropic-messages', { output_config: { format: { type: 'json_schema', schema: SCHEMA } } }, 'json-schema'],
    ['anthropic-messages', { output_format: { type: 'json_schema', schema: SCHEMA } }, 'json-schema'],
    ['anthropic-messages', { output_config: { effort: 'high' } }, undefined],
    [
      'bedrock-converse',
      {
        outputConfig: {
          textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: JSON.stringify(SCHEMA) } } },
        },
      },
      'json-schema',
    ],
  ] as const)('%s %j -> %s', (family, body, kind) => {
    expect(requestedFormat(family, body)?.kind).toBe(kind);
  });

  it('hands back the schema itself (Bedrock: parsed from its string)', () => {
    const bedrock = requestedFormat('bedrock-converse', {
      outputConfig: {
        textFormat: { type: 'json_schema', structure: { jsonSchema: { schema: JSON.stringify(SCHEMA) } } },
      },
    });
    expect(bedrock).toEqual({ kind: 'json-schema', schema: SCHEMA });
  });

  it('formats content as JSON text, a bare enum value, or a JSON object holding the words', () => {
    expect(formattedContent({ kind: 'json-schema', schema: SCHEMA }, { a: 'x' }, 'w')).toBe('{"a":"x"}');
    expect(formattedContent({ kind: 'enum', schema: {} }, 'red', 'w')).toBe('red');
    expect(JSON.parse(formattedContent({ kind: 'json-object' }, undefined, 'words'))).toEqual({ answer: 'words' });
  });
});

describe('a provider that refuses a format refuses it in its own words', () => {
  const specs = loadProviderSpecs();
  registerProviderSpecs(specs);
  const deepseek = specForModel(
    specs.find((s) => s.id === 'deepseek')!,
    'deepseek-chat',
  );
  const asking = (response_format: object) => ({
    model: 'deepseek-chat',
    messages: [{ role: 'user', content: 'Reply in json.' }],
    response_format,
  });

  it('DeepSeek answers json_schema with 400 "This response_format type is unavailable now"', () => {
    const findings = judgeRequest(
      deepseek,
      asking({ type: 'json_schema', json_schema: { name: 'x', schema: SCHEMA } }),
    );
    expect(findings.map((f) => f.rejection)).toEqual(['response-format-json-schema-unavailable']);
    const rejection = deepseek.rejections['response-format-json-schema-unavailable']!;
    expect(rejection.status).toBe(400);
    expect(JSON.stringify(rejection.body)).toContain('This response_format type is unavailable now');
  });

  it('DeepSeek takes json_object and text', () => {
    expect(judgeRequest(deepseek, asking({ type: 'json_object' }))).toEqual([]);
    expect(judgeRequest(deepseek, asking({ type: 'text' }))).toEqual([]);
  });
});
