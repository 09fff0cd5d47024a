/**
 * Stop sequences matched on decoded text across token boundaries. Text that may
 * be the start of a stop sequence is held back until it is decided.
 */
export class StopMatcher {
  private readonly stops: readonly string[];

  constructor(stops: readonly string[]) {
    this.stops = stops.filter((stop) => stop.length > 0);
  }

  /** The earliest index where any stop sequence occurs in `text`, or -1. */
  find(text: string): number {
    let earliest = -1;
    for (const stop of this.stops) {
      const at = text.indexOf(stop);
      if (at >= 0 && (earliest < 0 || at < earliest)) earliest = at;
    }
    return earliest;
  }

  /** Length of the longest suffix of `text` that is a proper prefix of a stop sequence (must be held back). */
  heldSuffix(text: string): number {
    let held = 0;
    for (const stop of this.stops) {
      for (let length = Math.min(stop.length - 1, text.length); length > held; length--) {
        if (text.endsWith(stop.slice(0, length))) {
          held = length;
          break;
        }
      }
    }
    return held;
  }
}
