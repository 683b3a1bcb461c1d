import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WIRE_CARRIER_KEYS } from '../../src/judge/conformance/wire-carriers.js';
import { familyFor, implementedFamilies } from '../../src/engine/families/registry.js';
import { PROVIDER_SIDE_FAMILIES } from '../../src/provider/handlers/family-registry.js';
import { projectRoot, specsDir } from '../../src/shared/project-root.js';
import { authHeaders } from '../../src/tools/services/recorder/auth-headers.js';
import type { RoutePolicy } from '../../src/shared/route-table/route-table.js';
import {
  FAMILY_DESCRIPTORS,
  FAMILY_IDS,
  type FamilyDescriptor,
  type FamilyId,
} from '../../src/shared/wire/families.js';

/**
 * A descriptor (src/shared/wire/families.ts) is only worth having if it tells the truth about the code on
 * both sides. These tests hold each descriptor against the engine's requests, the recorder's auth
 * headers, the judge's carrier keys and the JSON Schemas, so the two can never drift apart.
 */
const history = { messages: [{ role: 'user' as const, content: 'hi' }] };
const MODEL = 'claude-model/v1';

function policyFor(family: FamilyId): RoutePolicy {
  return {
    routeId: 'r',
    label: 'r',
    family,
    tier: 'standard',
    fields: [],
    flags: {},
    target: { provider: 'example', host: 'api.example.com', model: MODEL },
  };
}

const fill = (path: string) => path.replaceAll('{model}', encodeURIComponent(MODEL));

describe.each(FAMILY_DESCRIPTORS.map((d): [string, FamilyDescriptor] => [d.id, d]))('family %s', (id, descriptor) => {
  const family = id as FamilyId;

  it('has one engine folder and one provider-side folder, both registered', () => {
    expect(existsSync(join(projectRoot(), 'src', 'engine', 'families', id, 'index.ts'))).toBe(true);
    expect(existsSync(join(projectRoot(), 'src', 'provider', 'families', id, 'render-answer.ts'))).toBe(true);
    expect(familyFor(family).id).toBe(id);
    expect(PROVIDER_SIDE_FAMILIES[family].judges.length).toBeGreaterThan(0);
  });

  it('names the paths the engine sends to (plain and streamed)', () => {
    expect(familyFor(family).toRequest(history, policyFor(family)).path).toBe(fill(descriptor.paths.request));
    expect(familyFor(family).toRequest(history, policyFor(family), { stream: true }).path).toBe(
      fill(descriptor.paths.stream),
    );
  });

  it('names the auth the recorder presents off Vertex', () => {
    const expected =
      descriptor.auth.kind === 'bearer'
        ? { authorization: 'Bearer k' }
        : { [descriptor.auth.header]: 'k', ...descriptor.auth.extraHeaders };
    expect(authHeaders(family, 'k', 'api.example.com')).toEqual(expected);
  });

  it('spells stored reasoning on the wire the way the engine sends it (the judge reads this, not the engine)', () => {
    const wire = descriptor.reasoningOnWire;
    if (wire.kind === 'native')
      return expect(descriptor.nativeRecord, 'a native-only wire needs a native record').toBe(true);
    const claude = {
      type: 'reasoning.text',
      text: 'think',
      signature: 'sig',
      format: 'anthropic-claude-v1',
      index: 0,
    } as const;
    const responses = {
      type: 'reasoning.encrypted',
      data: 'enc',
      id: 'rs_1',
      format: 'openai-responses-v1',
      index: 1,
    } as const;
    const stored = {
      messages: [
        { role: 'user' as const, content: 'hi' },
        {
          role: 'assistant' as const,
          content: 'a',
          reasoning_content: 'r',
          reasoning: 'r',
          reasoning_details: [claude, responses],
        },
        { role: 'user' as const, content: 'again' },
      ],
    };
    const policy = { ...policyFor(family), fields: [...descriptor.carrierFields] };
    const body = familyFor(family).toRequest(stored, policy).body as Record<string, unknown>;
    if (wire.kind === 'message-keys') {
      const assistant = (body.messages as Record<string, unknown>[]).find((m) => m.role === 'assistant')!;
      for (const f of descriptor.carrierFields) expect(assistant, f).toHaveProperty(f);
      return;
    }
    const carried = JSON.stringify(body);
    expect(descriptor.carrierFields, 'a block wire carries reasoning_details').toContain('reasoning_details');
    expect(carried, `the ${wire.carrier} carrier`).toMatch(new RegExp(`"type":"${wire.carrier}"|"${wire.carrier}":`));
    // A wire that verifies only Anthropic signatures never receives another vendor's blob.
    if (wire.signedBy === 'anthropic') expect(carried).not.toContain('"enc"');
  });

  it("uses only wire keys the judge's own carrier-key list knows", () => {
    for (const key of descriptor.wireKeys) expect(WIRE_CARRIER_KEYS.has(key), key).toBe(true);
  });
});

describe('family ids', () => {
  it('are the enum of specs/schema/family-id.schema.json, which routes, provider specs, scenarios and fixtures reference', () => {
    const schema = JSON.parse(readFileSync(join(specsDir(), 'schema', 'family-id.schema.json'), 'utf8')) as {
      enum: string[];
    };
    expect(schema.enum).toEqual([...FAMILY_IDS]);
    for (const file of ['routes', 'provider', 'scenario', 'fixture']) {
      const text = readFileSync(join(specsDir(), 'schema', `${file}.schema.json`), 'utf8');
      expect(text, file).toContain('"$ref": "family-id.schema.json"');
      expect(text, file).not.toContain('"bedrock-converse"');
    }
  });

  it('are all implemented by the engine, in descriptor order', () => {
    expect(implementedFamilies()).toEqual([...FAMILY_IDS]);
  });
});
