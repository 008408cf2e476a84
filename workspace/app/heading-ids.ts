// Ids for a notebook's headings, so a table of contents can link to them and follow the reader.
// Derived from the heading text as GitHub derives its anchors: lower case, words joined by "-", repeats numbered.

/** One id per heading text, unique within the list ("results", "results-1", ...). */
export function headingIds(texts: readonly string[]): string[] {
  const seen = new Map<string, number>();
  return texts.map((text) => {
    const base =
      text
        .normalize("NFKD")
        .replace(/[\u0300-\u036f]/g, "")
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, "-")
        .replace(/^-+|-+$/g, "") || "section";
    let id = base;
    for (let n = seen.get(base) ?? 0; seen.has(id); n++) {
      id = `${base}-${n + 1}`;
      seen.set(base, n + 1);
    }
    seen.set(id, seen.get(id) ?? 0);
    return id;
  });
}
