/**
 * Characters XML 1.0 forbids outright (C0 controls other than tab, LF, CR; U+FFFE/U+FFFF; lone
 * surrogates) are replaced with U+FFFD, since no escape makes them legal. Escaping of the legal
 * characters is left to whoever writes the markup (the XML builder, or escapeXml below).
 */
export function xmlSafe(text: string): string {
  return (
    text
      // Control characters are exactly what this replaces: XML 1.0 forbids them in a document.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD')
      .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
  );
}

/** Escapes text for HTML content and attribute values (the HTML report is written as a template). */
export function escapeXml(text: string): string {
  return xmlSafe(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * One line of at most `max` characters: runs of whitespace (newlines included) become one space,
 * and a cut line ends with an ellipsis, so a summary never spills over or runs on.
 */
export function oneLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}
