/**
 * A cache keyed by a region of text, with a hard bound on its size, for memoising per-shape work
 * over dumps of any size. The caller's region is hashed in place (FNV-1a over UTF-16 code units)
 * rather than by V8 on a fresh slice, and an entry's stored text is compared with the region
 * before its value is trusted, so equal hashes of different texts are harmless.
 *
 * Storage is open addressing over parallel arrays (hashes in an Int32Array), which keeps a lookup
 * in a table of 100,000 shapes to a couple of memory accesses, where a Map of entry objects
 * chases pointers. Two generations bound the size: entries go into the young table;
 * when it holds half the bound it becomes the old table and the previous old one is dropped. A hit
 * in the old table is copied back into the young one, so shapes that keep recurring survive while
 * one-off shapes age out.
 */
import { detach } from '../detach';

/** One generation: a linear-probing table that only grows until it is replaced. */
class Table<V> {
  /** hash + 1 per slot; 0 marks an empty slot. */
  hashes: Int32Array;
  keys: string[];
  values: (V | undefined)[];
  count = 0;

  /** `capacity` is a power of two; the table doubles when half full. */
  constructor(capacity = 64) {
    this.hashes = new Int32Array(capacity);
    this.keys = new Array<string>(capacity).fill('');
    this.values = new Array<V | undefined>(capacity).fill(undefined);
  }

  find(text: string, start: number, end: number, hash: number): V | undefined {
    const mask = this.hashes.length - 1;
    const tag = hash + 1;
    const length = end - start;
    for (let i = hash & mask; ; i = (i + 1) & mask) {
      const h = this.hashes[i];
      if (h === 0) return undefined;
      // A slice and `===` compare natively, faster than `startsWith` or a loop.
      if (h === tag && this.keys[i].length === length && text.slice(start, end) === this.keys[i])
        return this.values[i];
    }
  }

  /** Adds an entry for a key known not to be in this table. */
  add(key: string, hash: number, value: V): void {
    if ((this.count + 1) * 2 > this.hashes.length) this.grow();
    const mask = this.hashes.length - 1;
    let i = hash & mask;
    while (this.hashes[i] !== 0) i = (i + 1) & mask;
    this.hashes[i] = hash + 1;
    this.keys[i] = key;
    this.values[i] = value;
    this.count++;
  }

  private grow(): void {
    const { hashes, keys, values } = this;
    const size = hashes.length * 2;
    this.hashes = new Int32Array(size);
    this.keys = new Array<string>(size).fill('');
    this.values = new Array<V | undefined>(size).fill(undefined);
    this.count = 0;
    // Rehash into the doubled table.
    for (let i = 0; i < hashes.length; i++)
      if (hashes[i] !== 0) this.add(keys[i], hashes[i] - 1, values[i] as V);
  }
}

export class RegionCache<V> {
  private young = new Table<V>();
  private old = new Table<V>();
  private readonly generation: number;

  /** Holds at most `maxEntries` entries (at least 2). */
  constructor(maxEntries: number) {
    this.generation = Math.max(1, Math.floor(maxEntries / 2));
  }

  /** The value stored for the text `text[start, end)`, whose {@link regionHash} is `hash`. */
  get(text: string, start: number, end: number, hash: number): V | undefined {
    const hit = this.young.find(text, start, end, hash);
    if (hit !== undefined) return hit;
    const aged = this.old.find(text, start, end, hash);
    if (aged !== undefined) this.insert(detach(text.slice(start, end)), hash, aged);
    return aged;
  }

  /**
   * Stores `value` for the text `text[start, end)` (not already stored), whose {@link regionHash} is
   * `hash`. A caller that keeps a detached copy of that text already passes it as `copy`, which is
   * then stored rather than a second copy (when it is one).
   */
  set(text: string, start: number, end: number, hash: number, value: V, copy?: string): void {
    const same = copy !== undefined && copy.length === end - start && text.startsWith(copy, start);
    this.insert(same ? copy : detach(text.slice(start, end)), hash, value);
  }

  /** Number of entries held. */
  get size(): number {
    return this.young.count + this.old.count;
  }

  /** Adds `key`, a detached string (a plain slice would keep the whole, possibly 100 MB, text alive). */
  private insert(key: string, hash: number, value: V): void {
    if (this.young.count >= this.generation) {
      this.old = this.young;
      // The next generation will fill up the same way: start it at the size this one reached.
      this.young = new Table(this.old.hashes.length);
    }
    this.young.add(key, hash, value);
  }
}
