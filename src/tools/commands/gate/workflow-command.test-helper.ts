/**
 * Reads a workflow command line as GitHub's runner does (actions/runner,
 * src/Runner.Common/ActionCommand.cs, TryParseV2): `::name key=value,key=value::data`, the command
 * ending at the first `::` after the leading one, properties split on `,` and each at its first `=`,
 * then the escapes undone (%0D, %0A, %3A, %2C in properties; %0D, %0A in data; %25 last). Tests
 * hold printed annotations to it: what it cannot read back, the runner cannot either.
 */
export interface WorkflowCommand {
  command: string;
  properties: Record<string, string>;
  data: string;
}

const unescapeData = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
const unescapeProperty = (s: string) =>
  s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');

export function parseWorkflowCommand(line: string): WorkflowCommand | undefined {
  if (!line.startsWith('::')) return undefined;
  const end = line.indexOf('::', 2);
  if (end < 0) return undefined;
  const info = line.slice(2, end);
  const space = info.indexOf(' ');
  const command = space < 0 ? info : info.slice(0, space);
  const properties: Record<string, string> = {};
  if (space >= 0) {
    for (const entry of info
      .slice(space + 1)
      .split(',')
      .filter((e) => e.trim() !== '')) {
      const eq = entry.indexOf('=');
      if (eq <= 0) continue;
      properties[entry.slice(0, eq).trim()] = unescapeProperty(entry.slice(eq + 1));
    }
  }
  return { command, properties, data: unescapeData(line.slice(end + 2)) };
}
