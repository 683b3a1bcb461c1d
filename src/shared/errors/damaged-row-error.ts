import { InputError } from './input-error.js';

/** Where a row sits, for the message when it is damaged. */
export interface RowPlace {
  file: string;
  session: number;
  turn: number;
}

/** A stored row that does not hold a message (edited by hand, a foreign writer, disk damage). Exit 2. */
export class DamagedRowError extends InputError {
  constructor(place: RowPlace, column: string, problem: string) {
    super(
      place.file,
      `/sessions/${place.session}/turns/${place.turn}/${column}`,
      `session ${place.session}, turn ${place.turn}: ${problem}`,
      'the row was written outside reasoning-replay or the file is damaged; restore it from a backup, or branch the session before this turn (sessions branch)',
    );
  }
}
