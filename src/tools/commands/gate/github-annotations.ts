/**
 * GitHub Actions workflow commands (`::error file=F,line=N,title=T::message`). Values are escaped
 * as the runner unescapes them (actions/toolkit packages/core/src/command.ts, actions/runner
 * src/Runner.Common/ActionCommand.cs): %, CR and LF in the message; also : and , in a property,
 * since `,` separates properties and `::` ends them. Unescaped, a detail with a newline would cut the
 * annotation short and a title with a comma would lose its tail.
 */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export type AnnotationLevel = 'error' | 'warning' | 'notice';

/** One annotation line; `file` and `line` place it on the pull request's diff, both optional. */
export function annotation(
  level: AnnotationLevel,
  where: { file?: string; line?: number; title?: string },
  message: string,
): string {
  const properties = [
    ...(where.file !== undefined ? [`file=${escapeProperty(where.file)}`] : []),
    ...(where.line !== undefined ? [`line=${where.line}`] : []),
    ...(where.title !== undefined ? [`title=${escapeProperty(where.title)}`] : []),
  ];
  return `::${level}${properties.length ? ' ' + properties.join(',') : ''}::${escapeData(message)}`;
}

export function errorAnnotation(file: string, line: number, title: string, message: string): string {
  return annotation('error', { file, line, title }, message);
}

export function warningAnnotation(file: string, line: number, title: string, message: string): string {
  return annotation('warning', { file, line, title }, message);
}
