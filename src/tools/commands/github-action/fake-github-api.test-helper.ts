import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for the three GitHub REST calls the comment poster makes (list the issue
 * comments of a pull request, create one, update one), on a real socket: the poster runs in a child
 * process of the action's steps, which an in-process interceptor (msw) cannot reach. Every request is
 * logged with its headers, the Authorization header kept apart so a test can look for the token in
 * everything else.
 */
export interface LoggedRequest {
  method: string;
  url: string;
  /** Headers without Authorization. */
  headers: IncomingHttpHeaders;
  authorization?: string;
  body: string;
}

export interface FakeComment {
  id: number;
  body: string;
  html_url: string;
  user: { login: string };
}

export interface FakeGitHubApi {
  url: string;
  requests: LoggedRequest[];
  /** Comments per pull request, `owner/repo#number`. */
  comments: Map<string, FakeComment[]>;
  close(): Promise<void>;
}

export async function startFakeGitHubApi(token: string, options: { readOnly?: boolean } = {}): Promise<FakeGitHubApi> {
  const requests: LoggedRequest[] = [];
  const comments = new Map<string, FakeComment[]>();
  let nextId = 1000;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const { authorization, ...headers } = req.headers;
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers,
        ...(authorization !== undefined ? { authorization } : {}),
        body,
      });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' });
        res.end(JSON.stringify(payload));
      };
      // GitHub's answer to a bad token (https://docs.github.com/en/rest/authentication/authenticating-to-the-rest-api).
      if (authorization !== `Bearer ${token}`)
        return send(401, {
          message: 'Bad credentials',
          documentation_url: 'https://docs.github.com/rest',
          status: '401',
        });
      // A fork's pull request gets a read-only token: GitHub refuses the write with this wording
      // (https://github.com/jayamanikharyono/airflow-dag-action/issues/23).
      if (options.readOnly && req.method !== 'GET')
        return send(403, {
          message: 'Resource not accessible by integration',
          documentation_url: 'https://docs.github.com/rest/issues/comments#create-an-issue-comment',
          status: '403',
        });
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const list = /^\/repos\/([^/]+)\/([^/]+)\/issues\/(\d+)\/comments$/.exec(url.pathname);
      const one = /^\/repos\/([^/]+)\/([^/]+)\/issues\/comments\/(\d+)$/.exec(url.pathname);
      if (list) {
        const key = `${list[1]}/${list[2]}#${list[3]}`;
        const all = comments.get(key) ?? [];
        if (req.method === 'GET') {
          const perPage = Number(url.searchParams.get('per_page') ?? 30);
          const page = Number(url.searchParams.get('page') ?? 1);
          return send(200, all.slice((page - 1) * perPage, page * perPage));
        }
        if (req.method === 'POST') {
          const comment = {
            id: nextId++,
            body: (JSON.parse(body) as { body: string }).body,
            html_url: `https://github.example/${list[1]}/${list[2]}/pull/${list[3]}#issuecomment-${nextId}`,
            user: { login: 'github-actions[bot]' },
          };
          comments.set(key, [...all, comment]);
          return send(201, comment);
        }
      }
      if (one && req.method === 'PATCH') {
        for (const all of comments.values()) {
          const found = all.find((c) => c.id === Number(one[3]));
          if (found) {
            found.body = (JSON.parse(body) as { body: string }).body;
            return send(200, found);
          }
        }
      }
      send(404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    comments,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
