import { inlineValidator } from '../../../shared/validation/validate.js';
import type { ProviderSpec } from '../../../shared/provider-specs/provider-spec.js';
import { isPlainObject } from '../../../shared/objects/deep-merge.js';
import type { Finding } from '../../../shared/findings/finding.js';
import { geminiSigner, verifyMockOpaque } from '../../signing/mock-opaque.js';

/** Signatures Google documents as accepted stand-ins for calls that never had one (see SKIP_SIGNATURE). */
const STAND_INS = new Set(['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go']);

/**
 * `/contents/7/parts/0/functionResponse` -> `contents[7].parts[0].function_response`, as Google names paths (proto
 * field names).
 */
export function googleFieldPath(instancePath: string): string {
  let out = '';
  for (const segment of instancePath.split('/').slice(1)) {
    if (/^\d+$/.test(segment)) out += `[${segment}]`;
    else out += (out ? '.' : '') + segment.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  }
  return out;
}

type Part = Record<string, unknown>;
interface Turn {
  role: string;
  parts: Part[];
}

/**
 * A part in lowerCamelCase whichever spelling it came in: Google's JSON mapping accepts both (thought_signature,
 * function_call).
 */
function camelPart(part: Part): Part {
  return Object.fromEntries(
    Object.entries(part).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]),
  );
}

function turnsOf(body: Record<string, unknown>): Turn[] {
  return (Array.isArray(body.contents) ? body.contents : []).map((c) => ({
    role: isPlainObject(c) && typeof c.role === 'string' ? c.role : 'user',
    // A part that is no object stays in place as an empty one, so part indexes are the request's own.
    parts: isPlainObject(c) && Array.isArray(c.parts) ? c.parts.map((p) => (isPlainObject(p) ? camelPart(p) : {})) : [],
  }));
}

/**
 * What generateContent checks (Gemini API and Vertex): a closed request schema reported in
 * Google's words, signatures byte for byte as issued, and on Gemini 3 a signature on the first
 * function call of every model step of the current turn. Each rule runs only when the spec
 * defines its rejection; the schema rule runs here (not in the shared schema judge) because
 * Google names the offending field and its parent path in its own notation.
 */
export function judgeGemini(spec: ProviderSpec, body: unknown): Finding[] {
  const has = (id: string) => id in spec.rejections;
  if (!isPlainObject(body)) {
    return has('invalid-argument')
      ? [
          {
            rule: 'provider-accepts',
            rejection: 'invalid-argument',
            params: { path: '' },
            detail: 'the body is not a JSON object',
          },
        ]
      : [];
  }
  const findings: Finding[] = [];

  // Google checks that there is something to generate from before it looks at field names.
  const contents = body.contents;
  if ((contents === undefined || (Array.isArray(contents) && contents.length === 0)) && has('contents-not-specified')) {
    return [
      {
        rule: 'provider-accepts',
        rejection: 'contents-not-specified',
        params: { path: 'contents' },
        detail: 'contents is missing or empty',
      },
    ];
  }
  if (Array.isArray(contents) && has('parts-empty')) {
    const empty = contents.findIndex((c) => isPlainObject(c) && Array.isArray(c.parts) && c.parts.length === 0);
    if (empty >= 0)
      return [
        {
          rule: 'provider-accepts',
          rejection: 'parts-empty',
          params: { index: empty, path: `contents[${empty}].parts` },
          detail: `content ${empty} has no parts`,
        },
      ];
  }

  const validate = inlineValidator(spec.request.schema);
  if (!validate(body)) {
    for (const error of validate.errors ?? []) {
      if (error.keyword === 'additionalProperties') {
        const field = (error.params as { additionalProperty: string }).additionalProperty;
        const path = googleFieldPath(error.instancePath);
        const rejection = path === '' ? 'unknown-name' : 'unknown-name-at';
        if (has(rejection))
          findings.push({
            rule: 'strict-schema',
            rejection,
            params: { field, path },
            detail: `unknown field "${field}"${path ? ` at ${path}` : ''}`,
          });
      } else if (has('invalid-argument')) {
        findings.push({
          rule: 'provider-accepts',
          rejection: 'invalid-argument',
          params: { path: googleFieldPath(error.instancePath) },
          detail: `${error.instancePath || '/'} ${error.message ?? error.keyword}`,
        });
      }
    }
    if (findings.length > 0) return findings;
  }

  const signer = geminiSigner(spec);
  const turns = turnsOf(body);
  turns.forEach((turn, index) => {
    turn.parts.forEach((part, at) => {
      if (!('thoughtSignature' in part)) return;
      const signature = part.thoughtSignature;
      if (
        typeof signature === 'string' &&
        (STAND_INS.has(signature) || verifyMockOpaque(signer, 'thought', standardBase64(signature)))
      )
        return;
      if (has('corrupted-thought-signature')) {
        findings.push({
          rule: 'signatures-verbatim',
          rejection: 'corrupted-thought-signature',
          params: { index, path: `contents[${index}].parts[${at}]` },
          detail: `part ${at} of content ${index} carries a thoughtSignature this endpoint never issued`,
        });
      }
    });
  });

  // Gemini 3 validates the current turn only: the model steps after the last user message with text.
  if (has('missing-thought-signature')) {
    const lastUserText = turns.reduce(
      (at, t, i) => (t.role === 'user' && t.parts.some((p) => typeof p.text === 'string') ? i : at),
      -1,
    );
    turns.forEach((turn, index) => {
      if (index <= lastUserText || turn.role !== 'model') return;
      const first = turn.parts.find((p) => isPlainObject(p.functionCall));
      if (!first || first.thoughtSignature !== undefined) return;
      const name =
        isPlainObject(first.functionCall) && typeof first.functionCall.name === 'string' ? first.functionCall.name : '';
      // Google numbers contents from 1 in this message ("the 2. content block" is the first model turn after one user
      // turn).
      findings.push({
        rule: 'signatures-verbatim',
        rejection: 'missing-thought-signature',
        params: { field: name, index, position: index + 1 },
        detail: `function call ${name} in content ${index} (current turn) has no thought_signature`,
      });
    });
  }
  if (has('function-response-count-mismatch')) findings.push(...responseCountFindings(turns));
  return findings;
}

/**
 * Gemini counts the functionResponse parts of the content after a model turn against that turn's functionCall parts
 * (spec rejection function-response-count-mismatch): a cancelled or dropped call, or a user text in place of the
 * responses, is refused. Counted, not paired: calls may carry no id and parallel calls may share a name. A model turn
 * that ends the contents is the turn being continued, not judged.
 */
function responseCountFindings(turns: readonly Turn[]): Finding[] {
  const count = (turn: Turn, member: string) => turn.parts.filter((p) => isPlainObject(p[member])).length;
  return turns.flatMap((turn, index) => {
    const next = turns[index + 1];
    const calls = turn.role === 'model' ? count(turn, 'functionCall') : 0;
    if (calls === 0 || next === undefined) return [];
    const responses = count(next, 'functionResponse');
    if (responses === calls) return [];
    return [
      {
        rule: 'provider-accepts',
        rejection: 'function-response-count-mismatch',
        params: { index: index + 1, count: responses, path: `contents[${index + 1}].parts` },
        detail: `content ${index + 1} holds ${responses} functionResponse parts for the ${calls} functionCall parts of content ${index}`,
      },
    ];
  });
}

/**
 * thoughtSignature is a protobuf `bytes` field: its JSON form is read as standard or URL-safe
 * base64, padded or not (https://protobuf.dev/programming-guides/json/), so the same bytes in
 * another spelling are the same signature. google-genai (Python) decodes it and sends it back
 * URL-safe. Anything else is left as it is, to fail verification.
 */
export function standardBase64(text: string): string {
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(text)) return text;
  const bare = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  return bare.length % 4 === 1 ? text : bare + '='.repeat((4 - (bare.length % 4)) % 4);
}
