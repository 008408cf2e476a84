// Prose to safe HTML, the same for the page (prose blocks, md`...` values) and for published reports.
import MarkdownIt from "markdown-it";
import type { Sanitize } from "../../charts/sanitize";

const markdown = new MarkdownIt({ html: true, linkify: true });

export function renderMarkdown(text: string, sanitize: Sanitize): string {
  return sanitize(markdown.render(text), "prose");
}
