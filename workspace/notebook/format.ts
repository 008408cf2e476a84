// The notebook file format (docs/architecture.md, "Data flow"): Markdown with front matter, ```sql id=name
// cells, ```ts cells, prose between. The model keeps every byte of the file, so
// serializeNotebook(parseNotebook(x)) === x for every string x, and editing one cell's source re-serializes
// the rest untouched (marimo's rule: the file is the program; no outputs, no ids stored).
//
//   const nb = parseNotebook(text);
//   nb.frontMatter?.title, nb.frontMatter?.runs        // parsed view of the front matter (raw kept verbatim)
//   nb.blocks: (Prose | Cell)[]                        // in file order
//   cells(nb)                                          // just the cells
//   withCellSource(nb, id, source) -> Notebook         // a new notebook with one cell's code replaced
//   insertCell(nb, index, kind, source, name?)         // a new notebook with a cell added before block index
//   removeCell(nb, id)                                  // a new notebook without that cell (and its fences)
//   serializeNotebook(nb) -> string
//
// Rules:
// - Front matter: the file starts with a line `---` and a later line `---` (or `...`) closes it. Keys read:
//   `title: text` and `runs:` (a flow list `[a, b]`, a block list of `- item` lines, or one scalar); every
//   other key is kept in `fields` as its raw text. Anything else (no closing line) is prose.
// - Cells: a top-level fenced block (CommonMark: 3+ backticks or tildes, indented at most 3 spaces) whose info
//   string's first word is `sql` or `ts`. The rest of the info string is `key=value` attributes; `id=name` on a
//   sql cell binds its result to `name`. Any other fence (```js, ```text, ...) stays prose, and a ```sql inside it
//   is not a cell. An unclosed fence runs to the end of the file (CommonMark), with an empty closing fence.
// - Cell ids are derived, never stored: `kind:` + a hash of (kind, info string, source, occurrence index among
//   cells with the same kind, info and source). Editing a cell therefore gives it a new id.

export type CellKind = "sql" | "ts";

export interface FrontMatter {
  /** the whole block, fences and final newline included, exactly as in the file */
  raw: string;
  title?: string;
  /** run folders or globs (see workspace/notebook/runs.ts for how they resolve) */
  runs: string[];
  /** every key of the front matter (title and runs included) with its raw value text, in file order */
  fields: [key: string, value: string][];
}

export interface Prose {
  type: "prose";
  /** exact text, line terminators included */
  text: string;
}

export interface Cell {
  type: "cell";
  id: string;
  kind: CellKind;
  /** sql: the `id=` attribute (the variable the result binds to); ts: undefined */
  name?: string;
  /** info string after the language word, verbatim (e.g. ` id=frames`) */
  info: string;
  attributes: Record<string, string>;
  /** the opening fence line, terminator included, e.g. "```sql id=frames\n" */
  open: string;
  /** the code between the fences, exactly (its last line terminator included when there is one) */
  source: string;
  /** the closing fence line, terminator included if any; "" when the fence is unclosed at end of file */
  close: string;
}

export type Block = Prose | Cell;

export interface Notebook {
  frontMatter: FrontMatter | null;
  blocks: Block[];
}

const CELL_KINDS: Record<string, CellKind> = { sql: "sql", ts: "ts" };

/** Splits into lines that keep their terminators (\n, \r\n or \r), so joining them gives the text back. */
function splitLines(text: string): string[] {
  const out: string[] = [];
  const re = /[^\r\n]*(\r\n|\r|\n)|[^\r\n]+$/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    if (m[0] === "") break;
    out.push(m[0]);
  }
  return out;
}

function stripEol(line: string): string {
  return line.replace(/(\r\n|\r|\n)$/, "");
}

const OPEN_FENCE = /^ {0,3}(`{3,}|~{3,})(.*)$/;

export function parseNotebook(text: string): Notebook {
  const lines = splitLines(text);
  let i = 0;
  let frontMatter: FrontMatter | null = null;
  if (lines.length > 0 && stripEol(lines[0]!) === "---") {
    for (let j = 1; j < lines.length; j++) {
      const l = stripEol(lines[j]!);
      if (l === "---" || l === "...") {
        frontMatter = parseFrontMatter(lines.slice(0, j + 1).join(""), lines.slice(1, j).map(stripEol));
        i = j + 1;
        break;
      }
    }
  }
  const blocks: Block[] = [];
  let prose = "";
  const seen = new Map<string, number>();
  while (i < lines.length) {
    const line = lines[i]!;
    const m = OPEN_FENCE.exec(stripEol(line));
    // Backtick fences cannot have backticks in their info string (CommonMark 4.5).
    if (!m || (m[1]![0] === "`" && m[2]!.includes("`"))) {
      prose += line;
      i++;
      continue;
    }
    const fence = m[1]!;
    const closeRe = new RegExp(`^ {0,3}${fence[0] === "`" ? "`" : "~"}{${fence.length},}[ \\t]*$`);
    let j = i + 1;
    while (j < lines.length && !closeRe.test(stripEol(lines[j]!))) j++;
    const bodyLines = lines.slice(i + 1, j);
    const close = j < lines.length ? lines[j]! : "";
    const infoFull = m[2]!.trim();
    const word = infoFull.split(/\s+/)[0] ?? "";
    const kind = CELL_KINDS[word];
    if (!kind) {
      prose += line + bodyLines.join("") + close;
      i = j + 1;
      continue;
    }
    if (prose) blocks.push({ type: "prose", text: prose });
    prose = "";
    const info = m[2]!.slice(m[2]!.indexOf(word) + word.length);
    const source = bodyLines.join("");
    const attributes = parseAttributes(info);
    const key = `${kind}\u0000${info}\u0000${source}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    blocks.push({
      type: "cell",
      id: cellId(kind, info, source, occurrence),
      kind,
      name: kind === "sql" ? attributes.id : undefined,
      info,
      attributes,
      open: line,
      source,
      close,
    });
    i = j + 1;
  }
  if (prose) blocks.push({ type: "prose", text: prose });
  return { frontMatter, blocks };
}

export function serializeNotebook(nb: Notebook): string {
  let out = nb.frontMatter?.raw ?? "";
  for (const b of nb.blocks) out += b.type === "prose" ? b.text : b.open + b.source + b.close;
  return out;
}

export function cells(nb: Notebook): Cell[] {
  return nb.blocks.filter((b): b is Cell => b.type === "cell");
}

/** Re-derives every cell's id (after an edit changed sources or order). */
function reidentify(nb: Notebook): Notebook {
  const seen = new Map<string, number>();
  const blocks = nb.blocks.map((b) => {
    if (b.type !== "cell") return b;
    const key = `${b.kind}\u0000${b.info}\u0000${b.source}`;
    const occurrence = seen.get(key) ?? 0;
    seen.set(key, occurrence + 1);
    return { ...b, id: cellId(b.kind, b.info, b.source, occurrence) };
  });
  return { ...nb, blocks };
}

/** A new notebook in which the cell `id` has `source` (a final newline is added if missing, so the fence stays on its own line). */
export function withCellSource(nb: Notebook, id: string, source: string): Notebook {
  const index = nb.blocks.findIndex((b) => b.type === "cell" && b.id === id);
  if (index < 0) throw new Error(`no cell with id ${id}`);
  const text = source === "" || /(\r\n|\r|\n)$/.test(source) ? source : source + "\n";
  const blocks = nb.blocks.slice();
  blocks[index] = {
    ...(blocks[index] as Cell),
    source: text,
    close: (blocks[index] as Cell).close || "```\n",
  };
  return reidentify({ ...nb, blocks });
}

/** A new notebook with a cell inserted before block `index` (prose around it gets blank-line separation). */
export function insertCell(
  nb: Notebook,
  index: number,
  kind: CellKind,
  source: string,
  name?: string,
): Notebook {
  const info = name ? ` id=${name}` : "";
  const text = source === "" || source.endsWith("\n") ? source : source + "\n";
  const cell: Cell = {
    type: "cell",
    id: "",
    kind,
    name: kind === "sql" ? name : undefined,
    info,
    attributes: parseAttributes(info),
    open: "```" + kind + info + "\n",
    source: text,
    close: "```\n",
  };
  const blocks = nb.blocks.slice();
  const prev = blocks[index - 1];
  // Keep the previous block ending in a newline so the fence starts a line.
  if (prev && prev.type === "prose" && !prev.text.endsWith("\n"))
    blocks[index - 1] = { ...prev, text: prev.text + "\n" };
  if (prev && prev.type === "cell" && prev.close !== "" && !prev.close.endsWith("\n"))
    blocks[index - 1] = { ...prev, close: prev.close + "\n" };
  blocks.splice(index, 0, cell, { type: "prose", text: "\n" });
  return reidentify({ ...nb, blocks: mergeProse(blocks) });
}

export function removeCell(nb: Notebook, id: string): Notebook {
  const blocks = nb.blocks.filter((b) => !(b.type === "cell" && b.id === id));
  if (blocks.length === nb.blocks.length) throw new Error(`no cell with id ${id}`);
  return reidentify({ ...nb, blocks: mergeProse(blocks) });
}

function mergeProse(blocks: Block[]): Block[] {
  const out: Block[] = [];
  for (const b of blocks) {
    const last = out[out.length - 1];
    if (b.type === "prose" && last?.type === "prose")
      out[out.length - 1] = { type: "prose", text: last.text + b.text };
    else out.push(b);
  }
  return out;
}

function parseAttributes(info: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of info.matchAll(/([A-Za-z_][\w-]*)=("([^"]*)"|[^\s]+)/g)) out[m[1]!] = m[3] ?? m[2]!;
  return out;
}

function unquote(v: string): string {
  const t = v.trim();
  if (
    (t.startsWith('"') && t.endsWith('"') && t.length >= 2) ||
    (t.startsWith("'") && t.endsWith("'") && t.length >= 2)
  )
    return t.slice(1, -1);
  return t;
}

function parseFrontMatter(raw: string, body: string[]): FrontMatter {
  const fields: [string, string][] = [];
  for (let k = 0; k < body.length; k++) {
    const m = /^([A-Za-z_][\w-]*)\s*:(.*)$/.exec(body[k]!);
    if (!m) {
      // Continuation lines (block lists, indented text) belong to the previous key.
      const last = fields[fields.length - 1];
      if (last) last[1] += "\n" + body[k];
      continue;
    }
    fields.push([m[1]!, m[2]!]);
  }
  const fm: FrontMatter = { raw, runs: [], fields };
  for (const [key, value] of fields) {
    if (key === "title") fm.title = unquote(value.split("\n")[0]!);
    if (key === "runs") fm.runs = parseList(value);
  }
  return fm;
}

function parseList(value: string): string[] {
  const [first, ...rest] = value.split("\n");
  const head = first!.trim();
  if (head.startsWith("[")) {
    const inner = value.trim().replace(/^\[/, "").replace(/\]$/, "");
    return inner
      .split(",")
      .map(unquote)
      .filter((s) => s !== "");
  }
  if (head !== "") return [unquote(head)];
  return rest
    .map((l) => /^\s*-\s+(.*)$/.exec(l)?.[1])
    .filter((s): s is string => s !== undefined)
    .map(unquote);
}

/** FNV-1a 32-bit, twice with different seeds: short, stable, and the same in Node and the browser. */
function hash(text: string): string {
  let h1 = 0x811c9dc5;
  let h2 = 0x01000193 ^ 0x5bd1e995;
  for (let k = 0; k < text.length; k++) {
    const c = text.charCodeAt(k);
    h1 = Math.imul(h1 ^ c, 0x01000193);
    h2 = Math.imul(h2 ^ c, 0x5bd1e995);
    h2 ^= h2 >>> 15;
  }
  return (h1 >>> 0).toString(36).padStart(7, "0") + (h2 >>> 0).toString(36).padStart(7, "0");
}

export function cellId(kind: CellKind, info: string, source: string, occurrence: number): string {
  return `${kind}-${hash(`${kind}\u0000${info}\u0000${source}\u0000${occurrence}`)}`;
}
