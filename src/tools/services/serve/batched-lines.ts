/**
 * Log lines written in batches: every line handed in during one turn of the event loop goes out in one
 * write after it. Under load the parser hands serve many requests per turn, each of which wrote its
 * own line with its own system call; now they share one. `add` resolves once its line is written,
 * so serve still ends an answer only after its line is in the log (a client that reads the log
 * after its response finds its line).
 */
export class BatchedLines {
  private pending: string[] = [];
  private written: Promise<void> | undefined;

  /** @param write writes the joined lines; a throw is the caller's to handle (it is called outside any request). */
  constructor(private readonly write: (text: string) => void) {}

  add(line: string): Promise<void> {
    this.pending.push(line);
    return (this.written ??= new Promise<void>((resolve) =>
      setImmediate(() => {
        this.flush();
        resolve();
      }),
    ));
  }

  /** Writes what is pending now (at shutdown, or from the batch's own turn). */
  flush(): void {
    const lines = this.pending;
    this.pending = [];
    this.written = undefined;
    if (lines.length > 0) this.write(lines.join(''));
  }
}
