/**
 * A provider answer that is not the shape its family documents. `pointer` is the JSON pointer of
 * the part that is wrong, so the message names where to look.
 */
export class ResponseShapeError extends Error {
  constructor(
    readonly pointer: string,
    problem: string,
  ) {
    super(`response ${pointer}: ${problem}`);
    this.name = 'ResponseShapeError';
  }
}
