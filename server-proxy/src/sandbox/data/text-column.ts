/**
 * A column of short ASCII strings packed into one Buffer (`\n` after every value), with the start
 * offset of each row's segment. A row may hold several values. Substring and exact searches run as
 * native `Buffer.indexOf` scans, which keeps a million rows in tens of megabytes and a few ms.
 */

export class TextColumn {
  private constructor(
    private readonly blob: Buffer,
    private readonly starts: Uint32Array,
    /** row id of each segment; identity when undefined */
    private readonly rowIds: Uint32Array | undefined,
  ) {}

  static builder(): TextColumnBuilder {
    return new TextColumnBuilder();
  }

  static of(blob: Buffer, starts: Uint32Array, rowIds: Uint32Array | undefined): TextColumn {
    return new TextColumn(blob, starts, rowIds);
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
    let from = 0;
    for (;;) {
      const at = this.blob.indexOf(pattern, from);
      if (at < 0) break;
      const segment = this.segmentAt(exact ? at + 1 : at);
      rows.push(this.rowIds ? (this.rowIds[segment] ?? 0) : segment);
      const next = this.starts[segment + 1] ?? this.blob.length;
      from = exact ? next - 1 : next;
    }
    return rows;
  }

  private segmentAt(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}

/** Size of the builder's chunks: big enough for few allocations, small enough to waste little. */
const CHUNK_BYTES = 1 << 20;

/**
 * Appends segments into 1 MiB chunks and joins them once, at the exact size, in `build()`. (Growing
 * one buffer by doubling and trimming it at the end left about twice the columns' size of freed
 * buffers behind at start-up, which the process's RSS kept.)
 */
export class TextColumnBuilder {
  private readonly chunks: Buffer[] = [];
  private chunk = Buffer.allocUnsafeSlow(CHUNK_BYTES);
  /** bytes used in the current chunk; the column starts with a `\n` */
  private used = 1;
  /** bytes in the whole column so far */
  private length = 1;
  private starts: number[] = [];
  private rowIds: number[] = [];

  constructor() {
    this.chunk[0] = 10;
  }

  private ensure(extra: number): void {
    if (this.used + extra <= this.chunk.length) return;
    this.chunks.push(this.chunk.subarray(0, this.used));
    this.chunk = Buffer.allocUnsafeSlow(Math.max(CHUNK_BYTES, extra));
    this.used = 0;
  }

  /** Append one segment (the values of one row). */
  add(row: number, values: readonly string[]): void {
    this.starts.push(this.length);
    this.rowIds.push(row);
    for (const v of values) {
      this.ensure(v.length + 1);
      const written = this.chunk.write(v, this.used, 'latin1');
      this.chunk[this.used + written] = 10;
      this.used += written + 1;
      this.length += written + 1;
    }
  }

  /** `sparse`: keep the explicit row ids (segments were added for some rows only). */
  build(sparse: boolean): TextColumn {
    const blob = Buffer.concat([...this.chunks, this.chunk.subarray(0, this.used)], this.length);
    return TextColumn.of(
      blob,
      Uint32Array.from(this.starts),
      sparse ? Uint32Array.from(this.rowIds) : undefined,
    );
  }
}
