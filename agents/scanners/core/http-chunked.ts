// Chunked transfer coding decoded as bytes arrive, leniently as browsers do (a missing CRLF after a
// chunk's data is read on); a size line that is not one ends the body as broken.

/** Decodes chunked bodies as bytes arrive; `broken` once a chunk size is not one. */
export class ChunkedDecoder {
  private pending: Buffer = Buffer.alloc(0);
  private left = 0;
  private state: 'size' | 'data' | 'data-end' | 'done' = 'size';
  broken = false;

  get done(): boolean {
    return this.state === 'done' || this.broken;
  }

  /** Decoded bytes of `chunk`. */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let bytes = this.pending.length > 0 ? Buffer.concat([this.pending, chunk]) : chunk;
    this.pending = Buffer.alloc(0);
    while (bytes.length > 0 && !this.done) {
      if (this.state === 'data') {
        const part = bytes.subarray(0, this.left);
        out.push(part);
        this.left -= part.length;
        bytes = bytes.subarray(part.length);
        if (this.left === 0) {
          this.state = 'data-end';
        }
        continue;
      }
      const eol = bytes.indexOf(10);
      if (eol === -1) {
        // Guard: a size line that never ends (a drip of digits) breaks the body instead of growing.
        this.broken = bytes.length > 1024;
        this.pending = this.broken ? Buffer.alloc(0) : bytes;
        break;
      }
      const line = bytes.subarray(0, eol).toString('latin1').trim();
      bytes = bytes.subarray(eol + 1);
      if (this.state === 'data-end') {
        // The CRLF after a chunk's data; a server that leaves it out is read on (browsers do).
        this.state = 'size';
        if (line === '') {
          continue;
        }
      }
      const size = /^([0-9a-f]{1,12})\s*(;.*)?$/i.exec(line);
      if (!size) {
        this.broken = true;
        break;
      }
      this.left = parseInt(size[1]!, 16);
      this.state = this.left === 0 ? 'done' : 'data';
    }
    return out;
  }
}
