/**
 * A cache of strings by string key, bounded in entries and in characters
 * (keys and values together), the least recently used going first. An entry
 * larger than a quarter of the bound is not kept: one caller's huge value must
 * not empty the cache for everyone else.
 */
export class BoundedCache {
  private readonly entries = new Map<string, string>();
  private chars = 0;

  constructor(readonly limits: { entries: number; chars: number }) {}

  get(key: string): string | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      // Most recently used last: a Map iterates in insertion order.
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: string): void {
    const chars = key.length + value.length;
    if (chars > this.limits.chars / 4) return;
    this.delete(key);
    for (const oldest of this.entries.keys()) {
      if (this.entries.size < this.limits.entries && this.chars + chars <= this.limits.chars) break;
      this.delete(oldest);
    }
    this.entries.set(key, value);
    this.chars += chars;
  }

  has(key: string): boolean {
    return this.entries.has(key);
  }

  get size(): { entries: number; chars: number } {
    return { entries: this.entries.size, chars: this.chars };
  }

  private delete(key: string): void {
    const value = this.entries.get(key);
    if (value === undefined) return;
    this.entries.delete(key);
    this.chars -= key.length + value.length;
  }
}
