import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Msw from 'msw';

/**
 * The parts of msw the mocks use (handlers, responses, resolution), loaded from msw's own modules without its package
 * entry: that entry also loads msw's GraphQL, WebSocket and SSE support, and with them the graphql package (some 130
 * modules, about a tenth of a CPU-second of every `check`), which no mock here uses. Each name is the very object the
 * entry exports (the entry re-exports these same modules; msw-core.test.ts holds them equal), so handlers made here and
 * handlers made by code importing 'msw' are one kind. `http` has a public subpath of its own.
 */
const mswRoot = dirname(createRequire(import.meta.url).resolve('msw/package.json'));
const core = (file: string): Promise<unknown> => import(pathToFileURL(join(mswRoot, 'lib', 'core', file)).href);

const [responses, resolution] = (await Promise.all([core('HttpResponse.mjs'), core('getResponse.mjs')])) as [
  Pick<typeof Msw, 'HttpResponse'>,
  Pick<typeof Msw, 'getResponse'>,
];

export { http } from 'msw/core/http';
export const HttpResponse = responses.HttpResponse;
export type HttpResponse<T extends Msw.DefaultBodyType = Msw.DefaultBodyType> = Msw.HttpResponse<T>;
export const getResponse = resolution.getResponse;
export type { HttpHandler } from 'msw';
