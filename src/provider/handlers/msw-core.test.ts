import * as msw from 'msw';
import { describe, expect, it } from 'vitest';
import * as core from './msw-core.js';

describe('msw-core', () => {
  it('hands out the very objects msw exports, so its handlers and responses are msw’s own', () => {
    expect(core.http).toBe(msw.http);
    expect(core.HttpResponse).toBe(msw.HttpResponse);
    expect(core.getResponse).toBe(msw.getResponse);
  });

  it('answers a request through a handler made from its parts', async () => {
    const handler = core.http.post('https://api.example.test/v1/chat', () => core.HttpResponse.json({ ok: true }));
    const response = await core.getResponse(
      [handler],
      new Request('https://api.example.test/v1/chat', { method: 'POST' }),
    );
    expect(await response?.json()).toEqual({ ok: true });
  });
});
