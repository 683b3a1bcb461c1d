/** Splits text into a few chunks the way streaming servers do: order and joins must survive. */
export function chunkText(text: string, pieces = 3): string[] {
  if (text.length <= pieces) return text ? [text] : [];
  const size = Math.ceil(text.length / pieces);
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
