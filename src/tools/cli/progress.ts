/**
 * A one-line progress counter on stderr for people at a terminal; silent in CI and pipes, where a
 * redrawn line is noise in the log.
 */
export function progressLine(
  label: string,
  enabled = process.stderr.isTTY === true && !process.env.CI,
): {
  update(done: number, total: number, note?: string): void;
  done(): void;
} {
  let shown = false;
  return {
    update(done, total, note) {
      if (!enabled) return;
      shown = true;
      process.stderr.write(`\r${label} ${done}/${total}${note ? ` ${note}` : ''}\x1b[K`);
    },
    done() {
      if (enabled && shown) process.stderr.write('\r\x1b[K');
    },
  };
}
