// <jb-toc>: the notebook's headings as a table of contents that follows the reader: the section in
// view is highlighted as the page scrolls; a click scrolls to it. A sticky sidebar from 1200 px, a folded list
// below. Headings come in as data (jb-notebook's "headings" event); `target` is the element whose shadow root
// holds them.
import { LitElement, css, html, nothing } from "lit";

export interface TocHeading {
  id: string;
  text: string;
  level: number;
}

/** A heading counts as the one being read once its top is this close to the top of the window (px). */
const READING_LINE = 120;
const WIDE = "(min-width: 1200px)";

export class JbToc extends LitElement {
  static override properties = {
    headings: { attribute: false },
    target: { attribute: false },
  };
  headings: TocHeading[] = [];
  /** the element whose shadow root holds the headings (jb-notebook) */
  declare target: Element | undefined;
  /** the heading being read: set on scroll, re-rendered by hand (no reactive property per scroll frame) */
  private active: string | undefined;
  private frame = 0;
  private media = matchMedia(WIDE);
  private readonly onScroll = () => {
    if (!this.frame) this.frame = requestAnimationFrame(() => ((this.frame = 0), this.follow()));
  };
  private readonly onMedia = () => this.requestUpdate();

  static override styles = css`
    :host {
      display: block;
      font-size: 13px;
    }
    :host([wide]) {
      position: sticky;
      top: 0;
      max-height: 100vh;
      overflow-y: auto;
      box-sizing: border-box;
      padding: 16px 8px 16px 16px;
    }
    .title {
      font-weight: 600;
      color: var(--jb-muted, #5d6678);
      font-size: 12px;
      text-transform: uppercase;
      letter-spacing: 0.04em;
      margin: 0 0 6px;
    }
    summary {
      cursor: pointer;
      color: var(--jb-muted, #5d6678);
    }
    ol {
      list-style: none;
      margin: 0;
      padding: 0;
    }
    a {
      display: block;
      padding: 3px 8px;
      border-left: 2px solid transparent;
      color: var(--jb-fg, #1d2330);
      text-decoration: none;
      line-height: 1.3;
      overflow-wrap: anywhere;
    }
    a:hover {
      background: var(--jb-accent-soft, rgba(59, 91, 219, 0.12));
    }
    a.active {
      border-left-color: var(--jb-accent, #3b5bdb);
      color: var(--jb-accent, #3b5bdb);
      font-weight: 600;
    }
    .l2 a {
      padding-left: 18px;
    }
    .l3 a {
      padding-left: 28px;
      font-size: 12px;
    }
  `;

  override connectedCallback() {
    super.connectedCallback();
    addEventListener("scroll", this.onScroll, { passive: true });
    this.media.addEventListener("change", this.onMedia);
  }

  override disconnectedCallback() {
    super.disconnectedCallback();
    removeEventListener("scroll", this.onScroll);
    this.media.removeEventListener("change", this.onMedia);
    cancelAnimationFrame(this.frame);
  }

  override updated(changed: Map<string, unknown>) {
    this.toggleAttribute("wide", this.media.matches);
    if (changed.has("headings")) this.follow();
  }

  private element(id: string): HTMLElement | null {
    return this.target?.shadowRoot?.getElementById(id) ?? null;
  }

  /** The heading being read: the last one whose top has passed the reading line, else the first. */
  private follow() {
    let active = this.headings[0]?.id;
    for (const h of this.headings) {
      const top = this.element(h.id)?.getBoundingClientRect().top;
      if (top !== undefined && top <= READING_LINE) active = h.id;
    }
    if (active === this.active) return;
    this.active = active;
    this.requestUpdate();
  }

  private go(e: Event, id: string) {
    e.preventDefault();
    this.element(id)?.scrollIntoView({ block: "start" });
    this.active = id;
    this.requestUpdate();
  }

  override render() {
    if (this.headings.length === 0) return nothing;
    const list = html`<ol>
      ${this.headings.map(
        (h) =>
          html`<li class="l${h.level}">
            <a
              href="#${h.id}"
              class=${h.id === this.active ? "active" : ""}
              aria-current=${h.id === this.active ? "location" : "false"}
              @click=${(e: Event) => this.go(e, h.id)}
              >${h.text}</a
            >
          </li>`,
      )}
    </ol>`;
    return this.media.matches
      ? html`<nav aria-label="contents">
          <p class="title">Contents</p>
          ${list}
        </nav>`
      : html`<details>
          <summary>Contents (${this.headings.length} sections)</summary>
          <nav aria-label="contents">${list}</nav>
        </details>`;
  }
}
customElements.define("jb-toc", JbToc);
