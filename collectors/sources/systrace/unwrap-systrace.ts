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
}

/** Inflates a zlib stream (node:zlib inflateSync or a platform equivalent); throws on corrupt data. */
export type Inflate = (bytes: Uint8Array) => Uint8Array;

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
      return htmlBlocks(utf8(), file);
    case "html-legacy": {
      const text = utf8();
      const m = /var\s+linuxPerfData\s*=\s*"/.exec(text)!;
      const s = readJsString(text, m.index + m[0].length);
      const warnings = s.closed
        ? []
        : [`${file}: linuxPerfData string not closed; read up to the end of the file`];
      return { flavour, texts: [s.value], warnings };
    }
    case "js-escaped":
      return { flavour, texts: [readJsString(utf8() + '"', 0).value], warnings: [] };
    case "text": {
      const text = utf8();
      const at = text.indexOf(TRACE_MARKER);
      return {
        flavour,
        texts: [at >= 0 && at < 200 ? text.slice(at + TRACE_MARKER.length) : text],
        warnings: [],
      };
    }
    default:
      throw new Error(
        `${file}: not systrace or atrace output (no ftrace text, TRACE: header or systrace HTML)`,
      );
  }
}

function inflateTrace(bytes: Uint8Array, file: string, inflate: Inflate): UnwrappedSystrace {
  const head = new TextDecoder("latin1").decode(bytes.subarray(0, 256));
  const start = head.indexOf(TRACE_MARKER) + TRACE_MARKER.length;
  const body = bytes.subarray(start);
  try {
    return { flavour: "ctrace", texts: [new TextDecoder().decode(inflate(body))], warnings: [] };
  } catch (e) {
    // `adb shell` on old devices turned \n into \r\n inside the binary stream; undo that once and retry.
    const fixed = undoCrlf(body);
    if (fixed.length !== body.length) {
      try {
        const text = new TextDecoder().decode(inflate(fixed));
        return {
          flavour: "ctrace",
          texts: [text],
          warnings: [`${file}: \\r\\n in the zlib stream undone (adb shell pty)`],
        };
      } catch {
        /* fall through to the original error */
      }
    }
    throw new Error(
      `${file}: byte ${start}: zlib stream after TRACE: does not inflate (${(e as Error).message})`,
    );
  }
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
  return { flavour: "html", texts, warnings };
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
