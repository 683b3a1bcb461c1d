/**
 * The request URL for a path below a user's base URL. A query on the base URL (Gemini's `?key=`,
 * a proxy's routing parameter) is kept and stays last: `https://h/v1?key=K` + `/chat/completions`
 * is `https://h/v1/chat/completions?key=K`.
 */
export function endpointUrl(baseUrl: string, path: string): string {
  const url = new URL(baseUrl);
  const [pathPart, pathQuery] = path.split('?', 2) as [string, string | undefined];
  url.pathname = url.pathname.replace(/\/$/, '') + pathPart;
  if (pathQuery) {
    for (const [k, v] of new URLSearchParams(pathQuery)) url.searchParams.append(k, v);
  }
  return url.toString();
}
