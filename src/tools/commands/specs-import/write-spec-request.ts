import { applyEdits, findNodeAtLocation, modify, parseTree } from 'jsonc-parser';
import stringify from 'json-stringify-pretty-compact';
import type { JsonSchema } from './distilled.js';
import type { SchemaSource } from './import-definitions.js';

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } } as const;

/** `value` as compact JSON (short objects on one line), every line after the first indented by `indent`. */
function compactAt(value: unknown, indent: string): string {
  return stringify(value, { maxLength: 120, indent: 2 }).replaceAll('\n', `\n${indent}`);
}

/**
 * The spec file's text with `request.schema` and `request.schemaSource` replaced and nothing else
 * touched: other engineers edit other members of the same files, so the edit stays inside `request`.
 * The schema is written compactly (it is generated, and a definition's closure runs to thousands of
 * members); a file reformatted with JSON.stringify reads the same.
 */
export function withRequestSchema(text: string, schema: JsonSchema, schemaSource: SchemaSource): string {
  let out = applyEdits(text, modify(text, ['request', 'schemaSource'], schemaSource, FORMAT));
  // Insert (or replace) the member first with the library, so the property exists; then write its value compactly.
  out = applyEdits(out, modify(out, ['request', 'schema'], {}, FORMAT));
  const node = findNodeAtLocation(parseTree(out)!, ['request', 'schema'])!;
  const lineStart = out.lastIndexOf('\n', node.offset) + 1;
  const indent = /^\s*/.exec(out.slice(lineStart))![0];
  return out.slice(0, node.offset) + compactAt(schema, indent) + out.slice(node.offset + node.length);
}
