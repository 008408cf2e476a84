// The workspace's sanitizer: sanitize.ts on the page's DOMPurify (one instance, hooks installed once).
import DOMPurify from "dompurify";
import { createSanitize } from "../../charts/sanitize";

export const sanitize = createSanitize(DOMPurify);
