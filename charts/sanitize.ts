// The one sanitize entry point (docs/architecture.md, "Decisions"), so no host strips less: every host (the
// published page, the workspace's Markdown and outputs, the headless runner) builds its sanitizer here from
// its DOMPurify instance. Two kinds:
//   prose  Markdown, md`` values, DOM nodes a cell displays: no <style> and no style= at all, so no text can
//          restyle the rest of the page (hide a failed check's marker, cover it with a fixed box)
//   plot   Plot's SVG: its own <style> and style= stay, with every remote URL taken out of the CSS
// In both, an image that is not a data: URL loses its src (the page is self-contained; the CSP blocks it anyway).

/** HTML and SVG (plots), no forms or controls (dead weight in a page that runs nothing, and phishing bait). */
export const PURIFY_CONFIG = {
  USE_PROFILES: { html: true, svg: true, svgFilters: true },
  FORBID_TAGS: ["form", "input", "button", "textarea", "select"],
};

const PROSE_CONFIG = {
  ...PURIFY_CONFIG,
  FORBID_TAGS: [...PURIFY_CONFIG.FORBID_TAGS, "style"],
  FORBID_ATTR: ["style"],
};

export type SanitizeKind = "prose" | "plot";
export type Sanitize = (html: string, kind?: SanitizeKind) => string;

/** What is used of a DOMPurify instance (its own types overload addHook per entry point). */
interface Purifier {
  sanitize(html: string): unknown;
  setConfig(config: typeof PURIFY_CONFIG): void;
  addHook(entry: "afterSanitizeAttributes", hook: (node: Element) => void): void;
}

/**
 * CSS with every way to fetch from elsewhere removed: url() other than data:, image-set(), @import. CSS escapes
 * can spell any of them (`\75 rl(`), so CSS holding a backslash is dropped whole.
 */
export function stripRemoteCss(css: string): string {
  if (css.includes("\\")) return "";
  return css
    .replace(/@import[^;]*;?/gi, "")
    .replace(/image-set\([^)]*\)/gi, "none")
    .replace(/url\(\s*(["']?)([^)]*?)\1\s*\)/gi, (whole, _q: string, url: string) =>
      /^data:/i.test(url.trim()) ? whole : "none",
    );
}

/**
 * The sanitizer of one host: `makePurifier()` gives a fresh DOMPurify instance, one per kind, configured once.
 * DOMPurify parses a configuration handed to sanitize() again on every call (its tag and attribute sets rebuilt:
 * the largest allocation of a Markdown redraw during a slider drag); a configuration set on an instance is kept.
 */
export function createSanitize(makePurifier: () => Purifier): Sanitize {
  const purifiers = new Map<SanitizeKind, Purifier>();
  const purifier = (kind: SanitizeKind) => {
    let p = purifiers.get(kind);
    if (!p) {
      p = makePurifier();
      p.setConfig(kind === "plot" ? PURIFY_CONFIG : PROSE_CONFIG);
      p.addHook("afterSanitizeAttributes", keepNothingRemote);
      purifiers.set(kind, p);
    }
    return p;
  };
  return (html, kind = "prose") => purifier(kind).sanitize(html) as string;
}

/** No remote URL survives in CSS, an <img>'s src or an SVG <image>'s href: the page is self-contained. */
function keepNothingRemote(node: Element) {
  const tag = node.tagName?.toLowerCase();
  if (tag === "style" && node.textContent) node.textContent = stripRemoteCss(node.textContent);
  if (tag === "img" && !/^data:image\//i.test(node.getAttribute("src") ?? "")) node.removeAttribute("src");
  if (tag === "image")
    for (const a of ["href", "xlink:href"])
      if (!/^data:image\//i.test(node.getAttribute(a) ?? "")) node.removeAttribute(a);
  const style = node.getAttribute?.("style");
  if (style) {
    const clean = stripRemoteCss(style);
    if (clean.trim()) node.setAttribute("style", clean);
    else node.removeAttribute("style");
  }
}
