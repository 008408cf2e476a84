// The md`...` builtin's value: Markdown text that the UI and publish render (and sanitize); the runtime never
// turns it into HTML itself, so headless runs and snapshots keep plain text.
export interface MarkdownValue {
  __markdown: true;
  text: string;
}

export function isMarkdown(value: unknown): value is MarkdownValue {
  return (
    typeof value === "object" && value !== null && (value as { __markdown?: unknown }).__markdown === true
  );
}

/** md`...`: markdown text with interpolated values, rendered (and sanitized) by the UI and publish. */
export function md(strings: TemplateStringsArray | string, ...values: unknown[]): MarkdownValue {
  if (typeof strings === "string") return { __markdown: true, text: strings };
  let text = strings[0]!;
  for (let k = 0; k < values.length; k++) text += String(values[k]) + strings[k + 1]!;
  return { __markdown: true, text };
}
