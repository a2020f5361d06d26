/**
 * The values of a buffer assignment as columns of numbers, filled while a file is read: a 40 MB
 * file holds 400,000 values, and making an object, a name and two bigints for each while reading
 * spent three quarters of the time in the garbage collector. Each value keeps where its
 * instruction's name is written (in a piece of the text, which is kept) and numbers for the rest;
 * an allocation's values become objects when they are first asked for.
 */
import type { AssignedValue } from './types';

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

const PHI = 1;
const COLOR = 2;

/** Most distinct integers given one shared bigint per file. */
const MAX_SHARED_INTEGERS = 65_536;

export class ValueStore {
  private capacity = 1024;
  private count = 0;
  private ids = new Float64Array(this.capacity);
  private sizes = new Float64Array(this.capacity);
  private offsets = new Float64Array(this.capacity);
  private lines = new Int32Array(this.capacity);
  private colors = new Int32Array(this.capacity);
  private flags = new Uint8Array(this.capacity);
  private texts = new Int32Array(this.capacity);
  private nameStarts = new Int32Array(this.capacity);
  private nameEnds = new Int32Array(this.capacity);
  private shapeIds = new Int32Array(this.capacity);
  /** The pieces of text names are written in. */
  private readonly pieces: string[] = [];
  /** Distinct shape texts, by id. */
  private readonly shapes: string[] = [];
  /** Shape ids by a hash of their text (checked character by character on a hit). */
  private readonly shapeIdsByHash = new Map<number, number[]>();
  /** Exact sizes and offsets of 2^53 and more, by value (`size` or `offset` is NaN there). */
  private readonly largeSizes = new Map<number, bigint>();
  private readonly largeOffsets = new Map<number, bigint>();
  private readonly indices = new Map<number, readonly number[]>();
  private readonly integers = new Map<number, bigint>();

  get length(): number {
    return this.count;
  }

  private grow(): void {
    this.capacity *= 2;
    const f64 = (a: Float64Array) => {
      const b = new Float64Array(this.capacity);
      b.set(a);
      return b;
    };
    const i32 = (a: Int32Array) => {
      const b = new Int32Array(this.capacity);
      b.set(a);
      return b;
    };
    this.ids = f64(this.ids);
    this.sizes = f64(this.sizes);
    this.offsets = f64(this.offsets);
    this.lines = i32(this.lines);
    this.colors = i32(this.colors);
    const flags = new Uint8Array(this.capacity);
    flags.set(this.flags);
    this.flags = flags;
    this.texts = i32(this.texts);
    this.nameStarts = i32(this.nameStarts);
    this.nameEnds = i32(this.nameEnds);
    this.shapeIds = i32(this.shapeIds);
  }

  /** The id of the piece `text`, kept from now on (consecutive values share their piece). */
  piece(text: string): number {
    const last = this.pieces.length - 1;
    if (last >= 0 && this.pieces[last] === text) return last;
    this.pieces.push(text);
    return last + 1;
  }

  /**
   * The id of the shape text `text[start, end)`, found without cutting it out of the text (a dump
   * repeats a few hundred shapes); a new one is copied, so it keeps no piece alive on its own.
   */
  shape(text: string, start: number, end: number): number {
    // FNV-1a over the whole text: shapes of one dump often differ only in one dimension.
    let hash = 0x811c9dc5;
    for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
    const bucket = this.shapeIdsByHash.get(hash);
    if (bucket !== undefined) {
      for (const id of bucket) {
        const s = this.shapes[id];
        if (s.length !== end - start) continue;
        let same = true;
        for (let i = 0; i < s.length && same; i++) same = s.charCodeAt(i) === text.charCodeAt(start + i);
        if (same) return id;
      }
    }
    const id = this.shapes.length;
    this.shapes.push((' ' + text.slice(start, end)).slice(1));
    if (bucket !== undefined) bucket.push(id);
    else this.shapeIdsByHash.set(hash, [id]);
    return id;
  }

  /**
   * Adds a value: its name is `pieces[piece].slice(nameStart, nameEnd)`; `size` and `offset` are
   * exact numbers below 2^53, else NaN with the exact value in `largeSize` / `largeOffset`.
   */
  add(
    id: number,
    piece: number,
    nameStart: number,
    nameEnd: number,
    index: readonly number[] | undefined,
    phi: boolean,
    color: number | undefined,
    size: number | bigint,
    offset: number | bigint,
    shapeId: number,
    line: number,
  ): void {
    if (this.count === this.capacity) this.grow();
    const i = this.count++;
    this.ids[i] = id;
    this.texts[i] = piece;
    this.nameStarts[i] = nameStart;
    this.nameEnds[i] = nameEnd;
    if (index !== undefined) this.indices.set(i, index);
    this.flags[i] = (phi ? PHI : 0) | (color !== undefined ? COLOR : 0);
    this.colors[i] = color ?? 0;
    if (typeof size === 'bigint') {
      this.sizes[i] = NaN;
      this.largeSizes.set(i, size);
    } else this.sizes[i] = size;
    if (typeof offset === 'bigint') {
      this.offsets[i] = NaN;
      this.largeOffsets.set(i, offset);
    } else this.offsets[i] = offset;
    this.shapeIds[i] = shapeId;
    this.lines[i] = line;
  }

  private integer(n: number): bigint {
    let b = this.integers.get(n);
    if (b === undefined) {
      b = BigInt(n);
      if (this.integers.size < MAX_SHARED_INTEGERS) this.integers.set(n, b);
    }
    return b;
  }

  /** Values [from, to) as objects. */
  values(from: number, to: number): AssignedValue[] {
    const out: AssignedValue[] = [];
    for (let i = from; i < to; i++) {
      const size = this.sizes[i];
      const offset = this.offsets[i];
      const v: Mutable<AssignedValue> = {
        id: this.ids[i],
        instruction: this.pieces[this.texts[i]].slice(this.nameStarts[i], this.nameEnds[i]),
        phi: (this.flags[i] & PHI) !== 0,
        size: Number.isNaN(size) ? this.largeSizes.get(i)! : this.integer(size),
        offset: Number.isNaN(offset) ? this.largeOffsets.get(i)! : this.integer(offset),
        shape: this.shapes[this.shapeIds[i]],
        line: this.lines[i],
      };
      const index = this.indices.get(i);
      if (index !== undefined) v.shapeIndex = index;
      if ((this.flags[i] & COLOR) !== 0) v.color = this.colors[i];
      out.push(v);
    }
    return out;
  }
}
