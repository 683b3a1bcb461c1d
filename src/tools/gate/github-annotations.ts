/**
 * GitHub Actions workflow commands. Values are escaped as the runner expects (%, CR, LF in the
 * message; also : and , in properties), or a detail with a newline would cut the annotation short.
 */
function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

export function errorAnnotation(file: string, line: number, title: string, message: string): string {
  return `::error file=${escapeProperty(file)},line=${line},title=${escapeProperty(title)}::${escapeData(message)}`;
}
