/** Why a pattern a spec names cannot be compiled, or undefined when it can: the lints report it with its pointer. */
export function badRegExp(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}
