import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { headerRecord, type RecordedExchange } from './recorded-exchange.js';
import { ImportFormatError } from '../../../shared/errors/import-format-error.js';

type Obj = Record<string, unknown>;

const nameValues = (list: unknown): [string, unknown][] =>
  Array.isArray(list)
    ? list.filter(isPlainObject).map((h) => [String(h.name ?? ''), h.value ?? ''] as [string, unknown])
    : [];

/**
 * HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), as Polly.js, mitmproxy and browser
 * devtools write it: `log.entries[]` of request (method, url, headers, postData.text) and response
 * (status, headers, content.text, with `encoding: "base64"` for a binary body).
 */
export function readHar(text: string): RecordedExchange[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new ImportFormatError('', `not JSON, so not a HAR file (${(error as Error).message})`);
  }
  const entries = isPlainObject(doc) && isPlainObject(doc.log) ? doc.log.entries : undefined;
  if (!Array.isArray(entries)) throw new ImportFormatError('/log/entries', 'a HAR file has a log.entries array');
  return entries.map((entry, i): RecordedExchange => {
    const at = `/log/entries/${i}`;
    if (!isPlainObject(entry) || !isPlainObject(entry.request) || !isPlainObject(entry.response))
      throw new ImportFormatError(at, 'an entry has a request and a response');
    const req: Obj = entry.request;
    const res: Obj = entry.response;
    if (typeof req.url !== 'string' || typeof req.method !== 'string')
      throw new ImportFormatError(`${at}/request`, 'a request has a method and a url');
    if (typeof res.status !== 'number')
      throw new ImportFormatError(`${at}/response/status`, 'a response has a numeric status');
    const content = isPlainObject(res.content) ? res.content : {};
    const body = typeof content.text === 'string' ? content.text : '';
    const post = isPlainObject(req.postData) && typeof req.postData.text === 'string' ? req.postData.text : undefined;
    return {
      method: req.method,
      url: req.url,
      requestHeaders: headerRecord(nameValues(req.headers)),
      ...(post !== undefined ? { requestBody: post } : {}),
      status: res.status,
      responseHeaders: headerRecord(nameValues(res.headers)),
      responseBody: content.encoding === 'base64' ? new Uint8Array(Buffer.from(body, 'base64')) : body,
    };
  });
}
