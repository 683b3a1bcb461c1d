import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadRouteTable } from '../../../shared/route-table/load-route-table.js';
import { importRecording } from './import-recording.js';
import { readHar } from './read-har.js';
import { readVcrCassette } from './read-vcr-cassette.js';

const answer = {
  id: 'chatcmpl-1',
  object: 'chat.completion',
  model: 'deepseek-v4-flash',
  choices: [
    { index: 0, message: { role: 'assistant', content: 'hi', reasoning_content: 'think' }, finish_reason: 'stop' },
  ],
};

describe('import readers', () => {
  it('vcrpy: a gzip body kept as !!binary is inflated by its content-encoding', () => {
    const gz = gzipSync(JSON.stringify(answer)).toString('base64');
    const cassette = `interactions:
- request:
    body: '{"model":"deepseek-v4-flash","messages":[]}'
    headers: {}
    method: POST
    uri: https://api.deepseek.com/chat/completions
  response:
    body:
      string: !!binary |
        ${gz}
    headers:
      Content-Encoding:
      - gzip
      Content-Type:
      - application/json
    status:
      code: 200
      message: OK
version: 1
`;
    const [x] = readVcrCassette(cassette);
    expect(x!.responseBody).toBeInstanceOf(Uint8Array);
    const imported = importRecording({
      source: 'c.yaml',
      bytes: new TextEncoder().encode(cassette),
      format: 'vcr',
      provider: 'deepseek',
      table: loadRouteTable(),
    });
    expect(imported.fixture.exchanges[0]!.response.body).toEqual(answer);
    expect(imported.fixture.exchanges[0]!.response.headers?.['content-encoding']).toBeUndefined();
    expect(imported.fixture.exchanges[0]!.carriers).toMatchObject({ reasoning_content: 'think' });
  });

  it('names where a cassette or a HAR is not what it claims', () => {
    expect(() => readVcrCassette('interactions:\n- request: {}\n')).toThrow(
      /\/interactions\/0: an interaction has a request and a response/,
    );
    expect(() => readHar('{"log": {}}')).toThrow(/\/log\/entries: a HAR file has a log.entries array/);
    expect(() =>
      readHar(
        '{"log": {"entries": [{"request": {"method": "POST", "url": "https://x/y"}, "response": {"status": "200"}}]}}',
      ),
    ).toThrow(/\/log\/entries\/0\/response\/status/);
  });

  it('refuses a file with no call of the family, saying what it holds', () => {
    const har = JSON.stringify({
      log: {
        entries: [
          {
            request: { method: 'GET', url: 'https://api.deepseek.com/models', headers: [] },
            response: { status: 200, headers: [], content: { text: '{}' } },
          },
        ],
      },
    });
    expect(() =>
      importRecording({
        source: 'x.har',
        bytes: new TextEncoder().encode(har),
        format: 'har',
        provider: 'deepseek',
        table: loadRouteTable(),
      }),
    ).toThrow(/no openai-chat call in it .* 1 exchange\(s\): GET \/models/);
  });
});
