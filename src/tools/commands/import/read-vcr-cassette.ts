import { parse } from 'yaml';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import { headerRecord, type RecordedExchange } from './recorded-exchange.js';
import { ImportFormatError } from '../../../shared/errors/import-format-error.js';

type Obj = Record<string, unknown>;

/** A body as either VCR flavour stores it: a string, `{string}`, `{base64_string}`, or YAML `!!binary` bytes. */
function bodyOf(raw: unknown): string | Uint8Array | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string' || raw instanceof Uint8Array) return raw;
  if (isPlainObject(raw)) {
    if (typeof raw.base64_string === 'string') return new Uint8Array(Buffer.from(raw.base64_string, 'base64'));
    return bodyOf(raw.string);
  }
  return undefined;
}

const text = (body: string | Uint8Array | undefined) =>
  body instanceof Uint8Array ? new TextDecoder().decode(body) : body;

/** vcrpy writes header values as lists; Ruby VCR too. */
const headers = (raw: unknown): Record<string, string> => headerRecord(isPlainObject(raw) ? Object.entries(raw) : []);

/**
 * VCR cassettes, parsed with the `yaml` package: vcrpy (`interactions[]`, `status: {code}`, bodies as
 * `{string}` or `!!binary`) and Ruby VCR (`http_interactions[]`, `body: {encoding, string}` or
 * `base64_string`). Response bodies keep their bytes when binary (Bedrock's event stream).
 */
export function readVcrCassette(source: string): RecordedExchange[] {
  let doc: unknown;
  try {
    doc = parse(source, { customTags: ['binary'] });
  } catch (error) {
    throw new ImportFormatError('', `not YAML, so not a VCR cassette (${(error as Error).message.split('\n')[0]})`);
  }
  const list = isPlainObject(doc) ? (doc.interactions ?? doc.http_interactions) : undefined;
  const key = isPlainObject(doc) && doc.interactions !== undefined ? 'interactions' : 'http_interactions';
  if (!Array.isArray(list))
    throw new ImportFormatError('/interactions', 'a cassette has interactions (vcrpy) or http_interactions (Ruby VCR)');
  return list.map((item, i): RecordedExchange => {
    const at = `/${key}/${i}`;
    if (!isPlainObject(item) || !isPlainObject(item.request) || !isPlainObject(item.response))
      throw new ImportFormatError(at, 'an interaction has a request and a response');
    const req: Obj = item.request;
    const res: Obj = item.response;
    const url = req.uri ?? req.url;
    if (typeof url !== 'string' || typeof req.method !== 'string')
      throw new ImportFormatError(`${at}/request`, 'a request has a method and a uri');
    const status = isPlainObject(res.status) ? res.status.code : res.status;
    if (typeof status !== 'number')
      throw new ImportFormatError(`${at}/response/status`, 'a response has a numeric status code');
    const requestBody = text(bodyOf(req.body));
    return {
      method: req.method.toUpperCase(),
      url,
      requestHeaders: headers(req.headers),
      ...(requestBody !== undefined && requestBody !== '' ? { requestBody } : {}),
      status,
      responseHeaders: headers(res.headers),
      responseBody: bodyOf(res.body) ?? '',
    };
  });
}
