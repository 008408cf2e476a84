// Input cells stick under the notebook's toolbar while their section is on screen, stacked in notebook order:
// each one's `top` is the toolbar's height plus the heights of the input cells above it in its section. Heights
// come from a ResizeObserver (read after layout, so a render never forces one) and are written only when they change.
import type { ReactiveController, ReactiveControllerHost } from "lit";

export class StickyInputsController implements ReactiveController {
  private observer: ResizeObserver | undefined;
  private readonly watched = new Set<Element>();

  constructor(private readonly host: ReactiveControllerHost & HTMLElement & { renderRoot: ParentNode }) {
    host.addController(this);
  }

  hostConnected() {
    if (typeof ResizeObserver === "undefined") return;
    this.observer = new ResizeObserver(() => this.place());
  }

  hostDisconnected() {
    this.observer?.disconnect();
    this.watched.clear();
  }

  hostUpdated() {
    if (!this.observer) return;
    const root = this.host.renderRoot;
    const now = new Set<Element>(root.querySelectorAll(".toolbar, .nb-section > .block.cell.input"));
    let changed = false;
    for (const el of this.watched)
      if (!now.has(el)) {
        this.observer.unobserve(el);
        this.watched.delete(el);
        changed = true;
      }
    for (const el of now)
      if (!this.watched.has(el)) {
        this.observer.observe(el);
        this.watched.add(el);
        changed = true;
      }
    // a new input cell is placed by the observer's first report; one removed moves those below it up
    if (changed) requestAnimationFrame(() => this.place());
  }

  private place() {
    const root = this.host.renderRoot;
    const toolbar = root.querySelector<HTMLElement>(".toolbar")?.offsetHeight ?? 0;
    const tops: [HTMLElement, string][] = [];
    for (const section of root.querySelectorAll(".nb-section")) {
      let top = toolbar;
      for (const cell of section.querySelectorAll<HTMLElement>(":scope > .block.cell.input")) {
        tops.push([cell, `${top}px`]);
        top += cell.offsetHeight;
      }
    }
    for (const [cell, top] of tops) if (cell.style.top !== top) cell.style.top = top;
  }
}
