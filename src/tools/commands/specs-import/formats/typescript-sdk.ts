import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import type * as TS from 'typescript';
import { operationDefs, defRef, type Distilled, type JsonSchema } from '../distilled.js';
import { DefinitionImportError } from '../../../../shared/errors/definition-import-error.js';

/** One request type of an SDK, named by the file that declares it and its exported name. */
export interface SdkOperation {
  name: string;
  file: string;
  type: string;
  /** The answer's type, exported from the same file (or `path#Type` from another pinned file). */
  response?: string;
  /** One stream event's type (a union of the event kinds), named the same way. */
  events?: string;
}

const requireCjs = createRequire(import.meta.url);

/**
 * An official SDK's TypeScript declarations of a request body, read with the TypeScript type
 * checker, for a provider that publishes no API document of its own. Interfaces and type aliases
 * become defs named as the SDK names them, optional members are not required, string-literal
 * unions become enums. TypeScript types carry no numeric bounds, so none are distilled.
 */
export function distillTypeScriptSdk(
  rootDir: string,
  files: readonly string[],
  definition: string,
  sourceSha256: string,
  operations: readonly SdkOperation[],
): Distilled {
  const ts = requireCjs('typescript') as typeof TS;
  const root = resolve(rootDir);
  const program = ts.createProgram(
    files.map((f) => join(root, f)),
    { strict: true, noEmit: true, skipLibCheck: true, noResolve: true, types: [], target: ts.ScriptTarget.ES2022 },
  );
  const checker = program.getTypeChecker();
  const defs: Record<string, JsonSchema> = {};
  const names = new Map<TS.Symbol, string>();
  const relative = (fileName: string) => fileName.slice(root.length + 1);

  /** A def name for a declared type: its name, qualified by namespace; a clash gets the file's stem. */
  const defName = (symbol: TS.Symbol): string => {
    const known = names.get(symbol);
    if (known) return known;
    const parts: string[] = [symbol.getName()];
    let parent = (symbol as TS.Symbol & { parent?: TS.Symbol }).parent;
    // A file module's symbol is named by its quoted path: namespaces stop there.
    while (parent && parent.flags & ts.SymbolFlags.Namespace && !parent.getName().startsWith('"')) {
      parts.unshift(parent.getName());
      parent = (parent as TS.Symbol & { parent?: TS.Symbol }).parent;
    }
    let name = parts.join('.');
    if ([...names.values()].includes(name)) {
      const file = symbol.declarations?.[0]?.getSourceFile().fileName ?? '';
      name = `${relative(file).replace(/\.ts$/, '').replaceAll('/', '.')}.${name}`;
    }
    names.set(symbol, name);
    return name;
  };

  const declaredIn = (symbol: TS.Symbol) => {
    const decl = symbol.declarations?.[0];
    return decl ? `${definition}:${relative(decl.getSourceFile().fileName)}#${defNameNoClash(symbol)}` : definition;
  };
  const defNameNoClash = (symbol: TS.Symbol) => names.get(symbol) ?? symbol.getName();

  /** A named object type (interface, or an alias of an object literal) gets a def; everything else is inlined. */
  const namedObject = (type: TS.Type): TS.Symbol | undefined => {
    const alias = type.aliasSymbol;
    if (alias && !type.aliasTypeArguments && type.flags & ts.TypeFlags.Object) return alias;
    const symbol = type.getSymbol();
    if (symbol && symbol.flags & ts.SymbolFlags.Interface && !(type as TS.TypeReference).typeArguments?.length)
      return symbol;
    return undefined;
  };

  const toSchema = (type: TS.Type, at: string): JsonSchema => {
    if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (type.flags & ts.TypeFlags.StringLiteral) return { const: (type as TS.StringLiteralType).value };
    if (type.flags & ts.TypeFlags.NumberLiteral) return { const: (type as TS.NumberLiteralType).value };
    if (type.flags & ts.TypeFlags.BooleanLiteral) return { const: checker.typeToString(type) === 'true' };
    if (type.flags & ts.TypeFlags.String) return { type: 'string' };
    if (type.flags & ts.TypeFlags.Number) return { type: 'number' };
    if (type.flags & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (type.flags & ts.TypeFlags.Null) return { type: 'null' };
    if (type.isUnion()) return unionSchema(type.types, at);
    if (type.isIntersection()) {
      // `string & {}` keeps an open string union open: it is a string.
      const parts = type.types.filter(
        (t) => !(t.flags & ts.TypeFlags.Object && checker.getPropertiesOfType(t).length === 0),
      );
      if (parts.length === 1) return toSchema(parts[0]!, at);
      return { allOf: parts.map((t, i) => toSchema(t, `${at}&${i}`)) };
    }
    if (checker.isArrayType(type) || checker.isTupleType(type)) {
      const [element] = checker.getTypeArguments(type as TS.TypeReference);
      return { type: 'array', items: element ? toSchema(element, `${at}[]`) : {} };
    }
    // Built-ins a generated SDK types wire values with: a blob travels as base64 text, a timestamp as epoch seconds
    // or a date string (as the Smithy reader reads them).
    const builtin = type.getSymbol()?.getName();
    if (builtin === 'Uint8Array') return { type: 'string' };
    if (builtin === 'Date') return { type: ['number', 'string'] };
    if (type.flags & ts.TypeFlags.Object) {
      const symbol = namedObject(type);
      if (symbol) {
        const name = defName(symbol);
        if (!defs[name]) {
          defs[name] = {};
          defs[name] = { ...objectSchema(type, name), 'x-source': declaredIn(symbol) };
        }
        return defRef(name);
      }
      return objectSchema(type, at);
    }
    throw new DefinitionImportError(`${at}: a type the importer cannot express: ${checker.typeToString(type)}`);
  };

  const unionSchema = (members: readonly TS.Type[], at: string): JsonSchema => {
    // `boolean` is the union true | false; keep it whole.
    const hasTrue = members.some((t) => t.flags & ts.TypeFlags.BooleanLiteral && checker.typeToString(t) === 'true');
    const hasFalse = members.some((t) => t.flags & ts.TypeFlags.BooleanLiteral && checker.typeToString(t) === 'false');
    const rest = members.filter(
      (t) => !(hasTrue && hasFalse && t.flags & ts.TypeFlags.BooleanLiteral) && !(t.flags & ts.TypeFlags.Undefined),
    );
    const schemas = rest.map((t, i) => toSchema(t, `${at}|${i}`));
    if (hasTrue && hasFalse) schemas.push({ type: 'boolean' });
    // A string type beside string literals (`'a' | (string & {})`) makes the union any string.
    const anyString = schemas.some((s) => s.type === 'string' && Object.keys(s).length === 1);
    const consts = schemas.filter((s) => 'const' in s && typeof s.const === 'string');
    const others = schemas.filter((s) => !consts.includes(s) && !(anyString && s.type === 'string'));
    const out: JsonSchema[] = [];
    if (anyString) out.push({ type: 'string' });
    else if (consts.length > 0) out.push({ type: 'string', enum: consts.map((s) => s.const) });
    const nullable = others.some((s) => s.type === 'null' && Object.keys(s).length === 1);
    out.push(...others.filter((s) => !(s.type === 'null' && Object.keys(s).length === 1)));
    if (nullable) out.push({ type: 'null' });
    return out.length === 1 ? out[0]! : { anyOf: out };
  };

  const objectSchema = (type: TS.Type, at: string): JsonSchema => {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const property of checker.getPropertiesOfType(type)) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      if (!declaration) continue;
      const memberType = checker.getTypeOfSymbolAtLocation(property, declaration);
      // `member?: never` (the AWS SDK's way of making union members exclusive) is a member that cannot be there.
      if (memberType.flags & (ts.TypeFlags.Never | ts.TypeFlags.Undefined)) continue;
      properties[property.getName()] = toSchema(memberType, `${at}.${property.getName()}`);
      if (!(property.flags & ts.SymbolFlags.Optional)) required.push(property.getName());
    }
    const index = checker.getIndexInfoOfType(type, ts.IndexKind.String);
    return {
      type: 'object',
      properties,
      ...(required.length > 0 ? { required } : {}),
      ...(index ? { additionalProperties: toSchema(index.type, `${at}[key]`) } : {}),
    };
  };

  const ops: Distilled['operations'] = {};
  for (const op of operations) {
    const source = program.getSourceFile(join(root, op.file));
    if (!source) throw new DefinitionImportError(`${op.file} is not among the pinned files`);
    const moduleSymbol = checker.getSymbolAtLocation(source);
    const exported = moduleSymbol && checker.getExportsOfModule(moduleSymbol).find((s) => s.getName() === op.type);
    if (!exported) throw new DefinitionImportError(`${op.file} exports no ${op.type}`);
    /** `Name` in the operation's file, or `path#Name` in another pinned file (the stable API beside a beta one). */
    const exportedType = (typeName: string) => {
      const [file, name] = typeName.includes('#') ? typeName.split('#') : [op.file, typeName];
      const module =
        file === op.file ? moduleSymbol : checker.getSymbolAtLocation(program.getSourceFile(join(root, file!))!);
      const symbol = module && checker.getExportsOfModule(module).find((s) => s.getName() === name);
      if (!symbol) throw new DefinitionImportError(`${file} exports no ${name}`);
      return symbol;
    };
    /** A named answer or event type: an object type gets a def of its own name, a union (events) one of its branches. */
    const rootDef = (typeName: string): string => {
      const symbol = exportedType(typeName);
      const type = checker.getDeclaredTypeOfSymbol(symbol);
      const name = defName(symbol);
      if (defs[name]) return name;
      defs[name] = {};
      defs[name] = {
        ...(type.isUnion() ? toSchema(type, name) : objectSchema(type, name)),
        'x-source': declaredIn(symbol),
      };
      return name;
    };
    const type = checker.getDeclaredTypeOfSymbol(exported);
    const name = defName(exported);
    defs[name] = {};
    defs[name] = { ...objectSchema(type, name), 'x-source': declaredIn(exported) };
    ops[op.name] = {
      request: name,
      ...(op.response !== undefined ? { response: rootDef(op.response) } : {}),
      ...(op.events !== undefined ? { events: rootDef(op.events) } : {}),
    };
  }
  return {
    definition,
    format: 'typescript-sdk',
    sourceSha256,
    operations: ops,
    defs: operationDefs(defs, ops),
  };
}
