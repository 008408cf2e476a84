// The ftrace text inside each container systrace and atrace write: plain text, `atrace -z` output
// (`TRACE:\n` then a zlib stream, AOSP frameworks/native/cmds/atrace/atrace.cpp dumpTrace), systrace HTML with
// `<script class="trace-data" type="application/text">` blocks (catapult systrace/output_generator.py) or the
// older `var linuxPerfData = "...";` JavaScript string (catapult's first systrace.py), and that string's
// JS-escaped text saved on its own (`...\n\` line ends).

export type SystraceFlavour = "text" | "ctrace" | "html" | "html-legacy" | "js-escaped";

export interface UnwrappedSystrace {
  flavour: SystraceFlavour;
  /** the ftrace text blocks found, in file order */
  texts: string[];
  warnings: string[];
  /** the file ends before its container does (no final newline, unclosed block or string, cut zlib stream) */
  partial: boolean;
}

/** Inflates a zlib stream (node:zlib or a platform equivalent): what it inflates to, whether the stream reached
 * its end marker (false: cut short, `out` holds what the bytes present decode to) and how many input bytes the
 * stream took; throws on corrupt data. */
export type Inflate = (bytes: Uint8Array) => { out: Uint8Array; ended: boolean; used: number };

const TRACE_MARKER = "TRACE:\n";

/** Which flavour the bytes look like, or null when they are not systrace/atrace output. */
export function sniffSystrace(bytes: Uint8Array): SystraceFlavour | null {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 4096));
  const trace = head.indexOf(TRACE_MARKER);
  if (trace >= 0 && trace < 200 && bytes[trace + TRACE_MARKER.length] === 0x78) return "ctrace";
  if (/^\s*<(!doctype|html|head|!--)/i.test(head)) {
    const all = new TextDecoder("latin1").decode(bytes.subarray(0, Math.min(bytes.length, 64 << 20)));
    if (all.includes('class="trace-data"')) return "html";
    if (/var\s+linuxPerfData\s*=\s*"/.test(all)) return "html-legacy";
    return null;
  }
  if (/^# tracer: [^\n]*\\n\\\r?\n/.test(head.trimStart())) return "js-escaped";
  if (/^(TRACE:\n)?# tracer: /m.test(head.slice(0, 300))) return "text";
  // Headerless text (Perfetto's test files, cut-down traces): most of the first twenty lines are events.
  const lines = head
    .split("\n")
    .slice(0, 20)
    .filter((l) => l.trim() !== "");
  const events = lines.filter((l) => /-\d+\s+(\(\s*(\d+|-+)\s*\)\s+)?\[\d+\]\s.*\d+\.\d+: \S+:/.test(l));
  return events.length >= 2 && events.length * 2 >= lines.length ? "text" : null;
}

export function unwrapSystrace(bytes: Uint8Array, file: string, inflate: Inflate): UnwrappedSystrace {
  const flavour = sniffSystrace(bytes);
  const utf8 = () => new TextDecoder().decode(bytes);
  switch (flavour) {
    case "ctrace":
      return inflateTrace(bytes, file, inflate);
    case "html":
      return htmlEnd(htmlBlocks(utf8(), file), bytes, file);
    case "html-legacy": {
      const text = utf8();
      const m = /var\s+linuxPerfData\s*=\s*"/.exec(text)!;
      const s = readJsString(text, m.index + m[0].length);
      const warnings = s.closed
        ? []
        : [`${file}: linuxPerfData string not closed; read up to the end of the file`];
      return htmlEnd({ flavour, texts: [s.value], warnings, partial: !s.closed }, bytes, file);
    }
    case "js-escaped": {
      const text = utf8();
      const cut = lastLineCut(text, file);
      return { flavour, texts: [readJsString(text + '"', 0).value], warnings: cut, partial: cut.length > 0 };
    }
    case "text": {
      const text = utf8();
      const at = text.indexOf(TRACE_MARKER);
      const cut = lastLineCut(text, file);
      return {
        flavour,
        texts: [at >= 0 && at < 200 ? text.slice(at + TRACE_MARKER.length) : text],
        warnings: cut,
        partial: cut.length > 0,
      };
    }
    default:
      throw new Error(
        `${file}: not systrace or atrace output (no ftrace text, TRACE: header or systrace HTML)`,
      );
  }
}

// A text or JS-escaped file ends with a newline after its last line (ftrace prints whole lines; catapult's
// escaped text ends each line with `\n\`): a file ending without one may be cut inside its last line.
function lastLineCut(text: string, file: string): string[] {
  if (text === "" || text.endsWith("\n")) return [];
  const from = text.lastIndexOf("\n") + 1;
  const line = text.slice(0, from).split("\n").length;
  const byte = new TextEncoder().encode(text.slice(0, from)).length;
  return [
    `${file} line ${line} (byte ${byte}): no newline at the end: the file may be cut inside this line; import partial`,
  ];
}

// systrace HTML ends with `</html>` after the trace (catapult systrace/output_generator.py writes the template's
// tail after the data): without it the file was cut after or inside the trace.
function htmlEnd(u: UnwrappedSystrace, bytes: Uint8Array, file: string): UnwrappedSystrace {
  const tail = new TextDecoder("latin1").decode(bytes.subarray(Math.max(0, bytes.length - 64)));
  if (/<\/html>\s*$/i.test(tail)) return u;
  const warning = `${file} byte ${bytes.length}: no closing </html>: the file may be cut; import partial`;
  return { ...u, warnings: [...u.warnings, warning], partial: true };
}

function inflateTrace(bytes: Uint8Array, file: string, inflate: Inflate): UnwrappedSystrace {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 256));
  const start = head.indexOf(TRACE_MARKER) + TRACE_MARKER.length;
  const body = bytes.subarray(start);
  const read = (z: ReturnType<Inflate>, warnings: string[]): UnwrappedSystrace => {
    // Bytes after the stream's end marker and checksum (RFC 1950) are no part of the trace: said, not read.
    if (z.ended && z.used < body.length)
      warnings.push(
        `${file} byte ${start + z.used}: ${body.length - z.used} byte(s) after the zlib stream's end, not part of the trace, not read`,
      );
    // atrace writes the whole deflate stream (atrace.cpp dumpTrace, Z_FINISH): a stream without its end marker
    // was cut; what inflates before the cut is kept.
    if (!z.ended)
      warnings.push(
        `${file} byte ${bytes.length}: zlib stream (from byte ${start}) ends before its end marker: the file is cut; kept the ${z.out.length} bytes it inflates to; import partial`,
      );
    return { flavour: "ctrace", texts: [new TextDecoder().decode(z.out)], warnings, partial: !z.ended };
  };
  let first: ReturnType<Inflate> | null = null;
  let error: unknown = null;
  try {
    first = inflate(body);
    if (first.ended) return read(first, []);
  } catch (e) {
    // refused by size (collectors/import/bounded-inflate.ts): no retry can make it smaller
    if ((e as Error).name === "InflateLimitError")
      throw new Error(`${file}: byte ${start}: zlib stream after TRACE: ${(e as Error).message}`);
    error = e;
  }
  // `adb shell` on old devices turned \n into \r\n inside the binary stream; undo that once and retry.
  const fixed = undoCrlf(body);
  if (fixed.length !== body.length) {
    try {
      const z = inflate(fixed);
      if (z.ended || !first) return read(z, [`${file}: \\r\\n in the zlib stream undone (adb shell pty)`]);
    } catch {
      /* fall through to the original result or error */
    }
  }
  if (first) return read(first, []);
  throw new Error(
    `${file}: byte ${start}: zlib stream after TRACE: does not inflate (${(error as Error).message})`,
  );
}

function undoCrlf(b: Uint8Array): Uint8Array {
  const out = new Uint8Array(b.length);
  let n = 0;
  for (let i = 0; i < b.length; i++) if (!(b[i] === 0x0d && b[i + 1] === 0x0a)) out[n++] = b[i]!;
  return out.subarray(0, n);
}

function htmlBlocks(html: string, file: string): UnwrappedSystrace {
  const texts: string[] = [];
  const warnings: string[] = [];
  const open = /<script class="trace-data" type="application\/text">/g;
  let m: RegExpExecArray | null;
  let block = 0;
  while ((m = open.exec(html))) {
    block++;
    const start = m.index + m[0].length;
    const end = html.indexOf("</script>", start);
    const body = html.slice(start, end < 0 ? html.length : end);
    if (end < 0)
      warnings.push(`${file}: trace-data block ${block} not closed; read up to the end of the file`);
    const t = body.trimStart();
    if (t.startsWith("{") || t.startsWith("["))
      warnings.push(`${file}: trace-data block ${block} is JSON (Chrome trace events), skipped`);
    else if (t.length) texts.push(body.replace(/^\r?\n/, ""));
    open.lastIndex = end < 0 ? html.length : end;
  }
  return { flavour: "html", texts, warnings, partial: warnings.some((w) => /not closed/.test(w)) };
}

/** A JavaScript string literal's value from just after its opening quote up to the closing one. */
export function readJsString(src: string, from: number): { value: string; closed: boolean; end: number } {
  let out = "";
  let i = from;
  let run = i;
  while (i < src.length) {
    const c = src.charCodeAt(i);
    if (c === 0x22) return { value: out + src.slice(run, i), closed: true, end: i + 1 };
    if (c !== 0x5c) {
      i++;
      continue;
    }
    out += src.slice(run, i);
    const e = src[i + 1];
    i += 2;
    switch (e) {
      case "n":
        out += "\n";
        break;
      case "t":
        out += "\t";
        break;
      case "r":
        out += "\r";
        break;
      case "\r":
        if (src[i] === "\n") i++; // line continuation with CRLF
        break;
      case "\n":
        break; // line continuation
      case "x":
        out += String.fromCharCode(parseInt(src.slice(i, i + 2), 16));
        i += 2;
        break;
      case "u":
        out += String.fromCharCode(parseInt(src.slice(i, i + 4), 16));
        i += 4;
        break;
      case undefined:
        break;
      default:
        out += e; // \" \\ \' \/ and any other escaped character stand for themselves
    }
    run = i;
  }
  return { value: out + src.slice(run), closed: false, end: src.length };
}
