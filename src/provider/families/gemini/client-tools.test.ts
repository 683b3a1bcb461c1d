import { describe, expect, it } from 'vitest';
import { geminiClientTools } from './client-tools.js';

const SCHEMA = { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] };

describe('the Gemini mock reads the tools a client offers', () => {
  it.each([
    ['parametersJsonSchema (@google/genai, Node)', { parametersJsonSchema: SCHEMA }],
    ['parameters_json_schema (google-genai, Python)', { parameters_json_schema: SCHEMA }],
    ['parameters (OpenAPI subset)', { parameters: SCHEMA }],
  ])('with its schema given as %s', (_, schema) => {
    const tools = geminiClientTools.offeredTools({
      tools: [{ functionDeclarations: [{ name: 'lookup_order', ...schema }] }],
    });
    expect(tools).toEqual([{ name: 'lookup_order', schema: SCHEMA }]);
  });
});
