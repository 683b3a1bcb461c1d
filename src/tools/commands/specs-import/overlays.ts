import type { Overlay } from './definitions.js';
import { forEachSchema, type JsonSchema } from './distilled.js';
import { DefinitionImportError } from '../../../shared/errors/definition-import-error.js';

/** `Def#/properties/x` -> the def name and the pointer inside it. */
function parseAt(at: string): { def: string; pointer: string[] } {
  const [def, pointer = ''] = at.split('#');
  return {
    def: def!,
    pointer: pointer
      .split('/')
      .slice(1)
      .map((p) => p.replaceAll('~1', '/').replaceAll('~0', '~')),
  };
}

function nodeAt(defs: Record<string, JsonSchema>, at: string, overlay: string, drop = 0): JsonSchema {
  const { def, pointer: full } = parseAt(at);
  const pointer = full.slice(0, full.length - drop);
  let node: unknown = defs[def];
  for (const part of pointer) node = (node as Record<string, unknown> | undefined)?.[part];
  if (node === null || typeof node !== 'object')
    throw new DefinitionImportError(`overlay "${overlay}": nothing at ${at} in the definition`);
  return node as JsonSchema;
}

/** `thinkingConfig` -> `thinking_config`: a proto field's own name, from its JSON name. */
export function protoFieldName(jsonName: string): string {
  return jsonName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** Every member of every def also under its proto field name (proto3 JSON parsers take both). */
function addProtoNames(defs: Record<string, JsonSchema>, id: string): void {
  for (const def of Object.values(defs))
    forEachSchema(def, (schema) => {
      const properties = schema.properties as Record<string, JsonSchema> | undefined;
      if (!properties) return;
      for (const [name, value] of Object.entries(properties)) {
        const alias = protoFieldName(name);
        if (alias !== name && !(alias in properties)) properties[alias] = structuredClone(value);
      }
      // A required member may come under either name: one of them must be there.
      const required = schema.required as string[] | undefined;
      const aliased = (required ?? []).filter((r) => protoFieldName(r) !== r);
      if (!required || aliased.length === 0) return;
      const plain = required.filter((r) => protoFieldName(r) === r);
      if (plain.length > 0) schema.required = plain;
      else delete schema.required;
      schema.allOf = [
        ...((schema.allOf as JsonSchema[] | undefined) ?? []),
        ...aliased.map((r) => ({ anyOf: [{ required: [r] }, { required: [protoFieldName(r)] }] })),
      ];
      schema['x-source'] ??= `overlay:${id}`;
    });
}

/** Every string enum also takes its values in lower case, as Google's JSON parser does (`"type": "object"`). */
function addLowercaseEnums(defs: Record<string, JsonSchema>): void {
  for (const def of Object.values(defs))
    forEachSchema(def, (schema) => {
      if (!Array.isArray(schema.enum)) return;
      const values = schema.enum as unknown[];
      const lower = values.filter((v): v is string => typeof v === 'string').map((v) => v.toLowerCase());
      schema.enum = [...new Set([...values, ...lower])];
    });
}

/**
 * Applies a target's overlays to a copy of the distilled defs, in order. Each overlay marks what it
 * adds with `x-source: overlay:<id>`, so the spec says which members the definition does not give.
 */
export function applyOverlays(
  defs: Record<string, JsonSchema>,
  overlays: readonly Overlay[],
): Record<string, JsonSchema> {
  const out = structuredClone(defs);
  for (const overlay of overlays) {
    const mark = `overlay:${overlay.id}`;
    switch (overlay.kind) {
      case 'proto-json-names':
        addProtoNames(out, overlay.id);
        break;
      case 'enum-lowercase':
        addLowercaseEnums(out);
        break;
      case 'add-member': {
        const node = nodeAt(out, overlay.at!, overlay.id);
        const properties = (node.properties ??= {}) as Record<string, JsonSchema>;
        properties[overlay.member] = { ...structuredClone(overlay.schema), 'x-source': mark };
        if (overlay.required) node.required = [...((node.required as string[] | undefined) ?? []), overlay.member];
        break;
      }
      case 'drop-member': {
        const node = nodeAt(out, overlay.at!, overlay.id);
        const properties = node.properties as Record<string, JsonSchema> | undefined;
        if (!properties?.[overlay.member])
          throw new DefinitionImportError(`overlay "${overlay.id}": ${overlay.at} has no member ${overlay.member}`);
        delete properties[overlay.member];
        if (Array.isArray(node.required)) node.required = node.required.filter((r) => r !== overlay.member);
        break;
      }
      case 'required': {
        const node = nodeAt(out, overlay.at!, overlay.id);
        if (!(node.properties as Record<string, unknown> | undefined)?.[overlay.member])
          throw new DefinitionImportError(`overlay "${overlay.id}": ${overlay.at} has no member ${overlay.member}`);
        node.required = [...new Set([...((node.required as string[] | undefined) ?? []), overlay.member])];
        node['x-source'] = node['x-source'] ? `${String(node['x-source'])} ${mark}` : mark;
        break;
      }
      case 'not-required': {
        const node = nodeAt(out, overlay.at!, overlay.id);
        if (!Array.isArray(node.required) || !node.required.includes(overlay.member))
          throw new DefinitionImportError(
            `overlay "${overlay.id}": ${overlay.member} is not required at ${overlay.at}`,
          );
        node.required = node.required.filter((r) => r !== overlay.member);
        if ((node.required as string[]).length === 0) delete node.required;
        node['x-source'] = node['x-source'] ? `${String(node['x-source'])} ${mark}` : mark;
        break;
      }
      case 'replace': {
        const { def, pointer } = parseAt(overlay.at!);
        const value = { ...structuredClone(overlay.schema), 'x-source': mark };
        if (pointer.length === 0) out[def] = value;
        else {
          const parent = nodeAt(out, overlay.at!, overlay.id, 1);
          parent[pointer.at(-1)!] = value;
        }
        break;
      }
    }
  }
  return out;
}
