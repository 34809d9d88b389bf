// A run's standard output on the page, drawn so that it never blocks: the
// bytes arrive in chunks (web/src/worker.js) and are all kept (the page
// keeps at most 16 MiB, web/wasm's MAX_OUTPUT) for a download, but only
// the first HEAD and the last TAIL characters are drawn, with a line
// saying how many bytes lie between them. Chunks are decoded as they come
// (a character split between chunks is joined) and drawn at most once an
// animation frame, by appending to the first part and replacing the last.

/** Characters drawn from the start of the output, and from its end. */
export const HEAD = 32 * 1024;
export const TAIL = 32 * 1024;

const encoder = new TextEncoder();

export class OutputView {
  /** `pre` the element to draw in; `fileName()` the download's name. */
  constructor(pre, fileName) {
    this.pre = pre;
    this.fileName = fileName;
    this.head = document.createTextNode('');
    this.tail = document.createTextNode('');
    this.note = document.createElement('span');
    this.note.className = 'hidden-note';
    this.noteText = document.createTextNode('');
    this.link = document.createElement('a');
    this.link.className = 'download-all';
    this.link.textContent = 'download all';
    this.link.href = '#';
    this.link.onclick = (event) => this.download(event);
    this.note.append(this.noteText, this.link, document.createTextNode(')\n'));
    this.reset();
  }

  /** Forgets the output and empties the view. */
  reset() {
    this.chunks = [];
    this.bytes = 0;
    this.decoder = new TextDecoder();
    this.headChars = 0;
    this.headBytes = 0;
    this.headText = '';
    this.tailText = '';
    this.trimmed = false;
    this.head.data = '';
    this.tail.data = '';
    this.pre.replaceChildren(this.head, this.tail);
    this.pre.dataset.bytes = '0';
    this.pre.dataset.hidden = '0';
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  /** Shows `text` as the whole output (a result that did not stream). */
  setText(text) {
    this.reset();
    this.append(encoder.encode(text));
    this.end();
  }

  /** Adds a chunk of bytes (a Uint8Array the view may keep). */
  append(bytes) {
    if (!bytes.length) return;
    this.chunks.push(bytes);
    this.bytes += bytes.length;
    this.take(this.decoder.decode(bytes, { stream: true }));
  }

  /** The output is complete: draws what a split character held back. */
  end() {
    this.take(this.decoder.decode());
    this.draw();
  }

  take(text) {
    if (!text) return;
    if (this.headChars < HEAD) {
      const part = text.slice(0, HEAD - this.headChars);
      this.headText += part;
      this.headChars += part.length;
      this.headBytes += encoder.encode(part).length;
      text = text.slice(part.length);
    }
    if (text) {
      this.tailText += text;
      if (this.tailText.length > 4 * TAIL) {
        this.tailText = this.tailText.slice(-TAIL);
        this.trimmed = true;
      }
    }
    if (!this.frame) this.frame = requestAnimationFrame(() => this.draw());
  }

  /** Brings the view up to date (once a frame at most). */
  draw() {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
    if (this.headText) {
      this.head.appendData(this.headText);
      this.headText = '';
    }
    if (this.tailText.length > TAIL) {
      this.tailText = this.tailText.slice(-TAIL);
      this.trimmed = true;
    }
    if (this.tail.data !== this.tailText) this.tail.data = this.tailText;
    let hidden = 0;
    if (this.trimmed) {
      hidden = this.bytes - this.headBytes - encoder.encode(this.tailText).length;
      if (!this.note.isConnected) this.pre.insertBefore(this.note, this.tail);
      const total = this.bytes.toLocaleString('en');
      this.noteText.data = `\n… ${hidden.toLocaleString('en')} bytes hidden (of ${total}: the first and last parts are shown; `;
    }
    this.pre.dataset.bytes = String(this.bytes);
    this.pre.dataset.hidden = String(Math.max(hidden, 0));
  }

  /** The output's bytes from `from` to `to` (offsets into all of it). */
  slice(from, to) {
    const out = new Uint8Array(Math.max(0, to - from));
    let at = 0;
    for (const chunk of this.chunks) {
      const end = at + chunk.length;
      if (end > from && at < to) {
        const part = chunk.subarray(Math.max(0, from - at), Math.min(chunk.length, to - at));
        out.set(part, Math.max(0, at - from));
      }
      at = end;
      if (at >= to) break;
    }
    return out;
  }

  /** The whole output as one Blob. */
  blob() {
    return new Blob(this.chunks, { type: 'text/plain' });
  }

  /** The whole output as text (for a small one: CHEG's answer). */
  text() {
    return new TextDecoder().decode(new Uint8Array(this.chunks.length === 1 ? this.chunks[0] : this.joined()));
  }

  joined() {
    const all = new Uint8Array(this.bytes);
    let at = 0;
    for (const c of this.chunks) {
      all.set(c, at);
      at += c.length;
    }
    return all;
  }

  download(event) {
    event.preventDefault();
    const a = document.createElement('a');
    a.href = URL.createObjectURL(this.blob());
    a.download = this.fileName();
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 60_000);
  }
}
