import { describe, expect, it } from 'vitest';
import { InputError } from '../../shared/errors/input-error.js';
import { UnknownFieldVerdicts, VERDICTS_CONFIG_KEY } from './unknown-field-verdicts.js';

const groq = { provider: 'Groq', host: 'API.groq.com', model: 'openai/gpt-oss-120b' };

describe('UnknownFieldVerdicts', () => {
  it('keys by lowercased provider, normalized host and exact model', () => {
    const v = new UnknownFieldVerdicts();
    expect(v.record(groq, ['reasoning_content'])).toEqual(['reasoning_content']);
    expect([
      ...v.fieldsFor({ provider: 'groq', host: 'https://api.groq.com/openai/v1', model: 'openai/gpt-oss-120b' }),
    ]).toEqual(['reasoning_content']);
    expect(v.fieldsFor({ ...groq, model: 'OPENAI/GPT-OSS-120B' }).size).toBe(0);
    expect(v.fieldsFor({ ...groq, host: 'other.example' }).size).toBe(0);
  });

  it('only reports newly added fields and never shrinks', () => {
    const v = new UnknownFieldVerdicts();
    v.record(groq, ['reasoning']);
    expect(v.record(groq, ['reasoning', 'reasoning_details'])).toEqual(['reasoning_details']);
    expect([...v.fieldsFor(groq)].sort()).toEqual(['reasoning', 'reasoning_details']);
  });

  it('round-trips through a model config and keeps the other keys', () => {
    const v = new UnknownFieldVerdicts();
    v.record(groq, ['reasoning_details', 'reasoning_content']);
    v.record({ provider: 'mistral', host: 'api.mistral.ai', model: 'm' }, ['reasoning']);
    const config = v.toModelConfig({ temperature: 1 });
    expect(config.temperature).toBe(1);
    expect(config[VERDICTS_CONFIG_KEY]).toEqual([
      ['groq', 'api.groq.com', 'openai/gpt-oss-120b', ['reasoning_content', 'reasoning_details']],
      ['mistral', 'api.mistral.ai', 'm', ['reasoning']],
    ]);
    const back = UnknownFieldVerdicts.fromModelConfig(JSON.parse(JSON.stringify(config)));
    expect(back.entries()).toEqual(v.entries());
  });

  it('refuses a malformed model config with a pointer', () => {
    expect(() =>
      UnknownFieldVerdicts.fromModelConfig(
        { [VERDICTS_CONFIG_KEY]: [['groq', 'h', 'm', ['thinking']]] },
        'session 3 model_config',
      ),
    ).toThrow(InputError);
    expect(() => UnknownFieldVerdicts.fromModelConfig({ [VERDICTS_CONFIG_KEY]: [['groq', 'h']] }, 'x')).toThrow(
      /unknown_field_verdicts\/0/,
    );
  });
});
