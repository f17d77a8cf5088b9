/**
 * A column of short ASCII strings packed into Buffer chunks (`\n` after every value), with the start
 * offset of each row's segment. A row may hold several values. Substring and exact searches run as
 * native `Buffer.indexOf` scans, which keeps a million rows in tens of megabytes and a few ms.
 *
 * The chunks are kept as built rather than joined into one buffer: a join copied every column once
 * at start-up and left the chunks behind as garbage (about 100 MB at 1,000,000 rows), which the
 * process's RSS kept until a full collection. A segment never straddles two chunks, so each chunk
 * is searched on its own. Offsets are virtual: chunk k starts at `bases[k]`, the sum of the sizes
 * of the chunks before it, and every chunk starts with a `\n` that belongs to no value (so an exact
 * match `\nvalue\n` also finds a chunk's first value).
 */

const NEWLINE = 10;
/** Size of the builder's chunks: big enough for few allocations, small enough to waste little. */
const CHUNK_BYTES = 1 << 20;

export class TextColumn {
  private constructor(
    private readonly chunks: readonly Buffer[],
    /** virtual offset of each chunk's first byte */
    private readonly bases: Uint32Array,
    /** virtual offset of each segment's first byte */
    private readonly starts: Uint32Array,
    /** row id of each segment; identity when undefined */
    private readonly rowIds: Uint32Array | undefined,
    /** virtual size of the whole column */
    private readonly length: number,
  ) {}

  /**
   * `rows`: a dense column of exactly that many segments, added in row order (row i is segment i),
   * with no row ids stored. Without it the column is sparse: segments for some rows only, with
   * their row ids kept. `chunkBytes` is for tests (small chunks put many segments at a boundary).
   */
  static builder(rows?: number, chunkBytes = CHUNK_BYTES): TextColumnBuilder {
    return new TextColumnBuilder(rows, chunkBytes);
  }

  /** @internal for the builder */
  static of(
    chunks: readonly Buffer[],
    bases: Uint32Array,
    starts: Uint32Array,
    rowIds: Uint32Array | undefined,
    length: number,
  ): TextColumn {
    return new TextColumn(chunks, bases, starts, rowIds, length);
  }

  /** Number of segments. */
  get segments(): number {
    return this.starts.length;
  }

  /** Number of chunks (for tests). */
  get chunkCount(): number {
    return this.chunks.length;
  }

  /**
   * Row ids with a value that contains `needle`, equals it (`exact`) or ends with it (`suffix`);
   * each row once, ascending.
   */
  find(needle: string, mode: 'contains' | 'exact' | 'suffix' = 'contains'): number[] {
    if (!needle || needle.includes('\n')) return [];
    const exact = mode === 'exact';
    const text = exact ? `\n${needle}\n` : mode === 'suffix' ? `${needle}\n` : needle;
    const pattern = Buffer.from(text, 'latin1');
    const rows: number[] = [];
    this.chunks.forEach((chunk, c) => {
      const base = this.bases[c] ?? 0;
      let from = 0;
      for (;;) {
        const at = chunk.indexOf(pattern, from);
        if (at < 0) break;
        const segment = this.segmentAt(base + (exact ? at + 1 : at));
        rows.push(this.rowIds ? (this.rowIds[segment] ?? 0) : segment);
        // The next segment may start in the next chunk: then `from` is past this one's end.
        const next = (this.starts[segment + 1] ?? this.length) - base;
        from = exact ? next - 1 : next;
        if (from >= chunk.length) break;
      }
    });
    return rows;
  }

  /** The `index`-th value of a segment (0 = first), or undefined when it has fewer values. */
  value(segment: number, index = 0): string | undefined {
    const start = this.starts[segment];
    if (start === undefined) return undefined;
    const c = this.chunkAt(start);
    const chunk = this.chunks[c];
    if (chunk === undefined) return undefined;
    const base = this.bases[c] ?? 0;
    const end = Math.min(chunk.length, (this.starts[segment + 1] ?? this.length) - base);
    let from = start - base;
    for (let i = 0; from < end; i += 1) {
      const stop = chunk.indexOf(NEWLINE, from);
      if (stop < 0 || stop >= end) return undefined;
      if (i === index) return chunk.toString('latin1', from, stop);
      from = stop + 1;
    }
    return undefined;
  }

  private chunkAt(offset: number): number {
    return lastAtMost(this.bases, offset);
  }

  private segmentAt(offset: number): number {
    return lastAtMost(this.starts, offset);
  }
}

/** Index of the last element ≤ `value` in an ascending array (0 when none). */
function lastAtMost(sorted: Uint32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((sorted[mid] ?? 0) <= value) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A Uint32Array that grows by doubling (for sparse columns, whose size is not known up front). */
class GrowableU32 {
  private data: Uint32Array;
  length = 0;

  constructor(capacity: number) {
    this.data = new Uint32Array(Math.max(16, capacity));
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const bigger = new Uint32Array(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length] = value;
    this.length += 1;
  }

  /** The values at their exact size (a copy only when there is slack). */
  build(): Uint32Array {
    return this.length === this.data.length ? this.data : this.data.slice(0, this.length);
  }
}

/**
 * Appends segments into 1 MiB chunks, each starting with `\n`; a segment that does not fit opens
 * a new chunk. Dense columns write their segment starts straight into a typed array of the final
 * size (a JS array of a million numbers, grown by pushes, was old-space garbage at start-up).
 */
export class TextColumnBuilder {
  private readonly chunks: Buffer[] = [];
  private readonly bases: number[] = [];
  private chunk: Buffer = Buffer.alloc(0);
  /** bytes used in the current chunk */
  private used = 0;
  /** virtual offset of the current chunk */
  private base = 0;
  private readonly denseStarts: Uint32Array | undefined;
  private readonly sparseStarts: GrowableU32 | undefined;
  private readonly rowIds: GrowableU32 | undefined;
  private count = 0;

  constructor(
    rows: number | undefined,
    private readonly chunkBytes: number,
  ) {
    if (rows === undefined) {
      this.sparseStarts = new GrowableU32(1024);
      this.rowIds = new GrowableU32(1024);
    } else {
      this.denseStarts = new Uint32Array(rows);
    }
    this.open(chunkBytes);
  }

  private open(size: number): void {
    if (this.used > 0) {
      this.chunks.push(this.chunk.subarray(0, this.used));
      this.bases.push(this.base);
      this.base += this.used;
    }
    this.chunk = Buffer.allocUnsafeSlow(size);
    this.chunk[0] = NEWLINE;
    this.used = 1;
  }

  /** Append one segment (the values of one row). */
  add(row: number, values: readonly string[]): void {
    let bytes = 0;
    for (const v of values) bytes += v.length + 1;
    if (this.used + bytes > this.chunk.length) this.open(Math.max(this.chunkBytes, bytes + 1));
    const start = this.base + this.used;
    if (this.denseStarts) {
      if (row !== this.count) throw new Error(`dense column: row ${row} added as segment ${this.count}`);
      this.denseStarts[this.count] = start;
    } else {
      this.sparseStarts?.push(start);
      this.rowIds?.push(row);
    }
    this.count += 1;
    for (const v of values) {
      // Byte by byte, as latin1 (the low byte of each code unit): for values this short a loop
      // is cheaper than Buffer#write's per-call overhead, a tenth of start-up at 1,000,000 rows.
      const chunk = this.chunk;
      let at = this.used;
      for (let i = 0; i < v.length; i += 1) chunk[at++] = v.charCodeAt(i) & 0xff;
      chunk[at] = NEWLINE;
      this.used = at + 1;
    }
  }

  build(): TextColumn {
    if (this.denseStarts && this.count !== this.denseStarts.length) {
      throw new Error(`dense column: ${this.count} of ${this.denseStarts.length} rows added`);
    }
    // The last chunk is copied at its exact size, so its unused tail is not kept.
    const last = Buffer.allocUnsafeSlow(this.used);
    this.chunk.copy(last, 0, 0, this.used);
    const chunks = [...this.chunks, last];
    const bases = Uint32Array.from([...this.bases, this.base]);
    this.chunk = Buffer.alloc(0);
    return TextColumn.of(
      chunks,
      bases,
      this.denseStarts ?? this.sparseStarts?.build() ?? new Uint32Array(0),
      this.rowIds?.build(),
      this.base + this.used,
    );
  }
}
