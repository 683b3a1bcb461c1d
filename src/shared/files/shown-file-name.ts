/**
 * A file name as an error line shows it. A name is any bytes but `/` and NUL, so one holding a
 * newline made a two-line error that a reader or a CI log parser takes for two messages (issue 27).
 * A name that needs it is quoted JSON-style (control and line-separator characters escaped, quotes
 * and backslashes too, and edge spaces made visible); an ordinary name is shown as it is, the way
 * GNU `ls` quotes only the names that need it, so every other message stays as it reads today.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is looked for
const NEEDS_QUOTING = /[\u0000-\u001f\u007f-\u009f\u2028\u2029"\\]|^\s|\s$/;

export function shownFileName(name: string): string {
  if (!NEEDS_QUOTING.test(name)) return name;
  // JSON.stringify leaves U+2028/U+2029 raw, and a terminal may break the line on them.
  return JSON.stringify(name).replace(
    /[\u2028\u2029\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
