import type { Argv } from 'yargs';

/** The part of yargs' usage object this file touches; yargs exposes it through getInternalMethods, untyped. */
interface UsageInstance {
  cacheHelpMessage(): void;
  hasCachedHelpMessage(): boolean;
}

/** Reaches yargs' usage object (public at run time since yargs 17, absent from its types). */
export function usageInstance(parser: Argv): UsageInstance {
  return (parser as unknown as { getInternalMethods(): { getUsageInstance(): UsageInstance } })
    .getInternalMethods()
    .getUsageInstance();
}

/**
 * yargs renders a command's whole help text each time the command's handler starts, so that a later failure can show
 * it: about 160 ms of a `check`, spent on every successful run. Our fail handler prints one line and never the help,
 * and `--help` builds its text when asked, so the cached copy is never read: it is not built.
 */
export function skipHelpCache<T>(parser: Argv<T>): Argv<T> {
  usageInstance(parser).cacheHelpMessage = () => undefined;
  return parser;
}
