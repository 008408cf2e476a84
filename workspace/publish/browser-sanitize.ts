// The workspace's sanitizer: sanitize.ts on DOMPurify instances of the page's window (one per kind).
import DOMPurify from "dompurify";
import { createSanitize } from "../../charts/sanitize";

export const sanitize = createSanitize(() => DOMPurify(window));
