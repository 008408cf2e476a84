// What every <jb-code-editor> shares: one IntersectionObserver that says when an editor comes near the viewport
// (its CodeMirror view is made then, one per task), and one document "selectionchange" listener for all views. CodeMirror adds
// one per view (@codemirror/view DOMObserver.addWindowListeners) and each reads the selection on every change,
// though it only acts for the view whose content has focus (DOMObserver.onSelectionChange): the shared listener
// hands the event to that view alone.
import type { EditorView } from "@codemirror/view";
import { nextTask } from "../notebook/next-task";

/** How far outside the viewport an editor is made, so scrolling finds it ready. */
const MARGIN = "400px 0px";

let observer: IntersectionObserver | undefined;
const waiting = new Map<Element, () => void>();
/** editors come into view, made one per task: a scroll that reveals ten does not make them in one long task */
const ready: Element[] = [];
let draining = false;

async function drain() {
  if (draining) return;
  draining = true;
  while (ready.length) {
    await nextTask();
    const el = ready.shift()!;
    const call = waiting.get(el);
    waiting.delete(el);
    call?.();
  }
  draining = false;
}

/** Calls `visible` once, when `el` first comes within MARGIN of the viewport; returns a function to stop. */
export function watchVisible(el: Element, visible: () => void): () => void {
  if (typeof IntersectionObserver === "undefined") {
    // no layout to observe (jsdom): made at once
    visible();
    return () => {};
  }
  observer ??= new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        if (!e.isIntersecting) continue;
        observer!.unobserve(e.target);
        ready.push(e.target);
      }
      void drain();
    },
    { rootMargin: MARGIN },
  );
  waiting.set(el, visible);
  observer.observe(el);
  return () => {
    waiting.delete(el);
    observer?.unobserve(el);
  };
}

interface SelectionObserver {
  win?: Window;
  onSelectionChange?: (e: Event) => void;
}
const views = new Map<EditorView, (e: Event) => void>();
let listening: Document | undefined;

function onSelectionChange(e: Event) {
  for (const [view, handler] of views)
    if ((view.root as Document | ShadowRoot).activeElement === view.contentDOM) handler(e);
}

/** Takes a new view's own selectionchange listener off the document; the shared one calls it when it has focus. */
export function adoptView(view: EditorView): void {
  // DOMObserver is CodeMirror's internal: when it is not as expected, the view keeps its own listener.
  const dom = (view as unknown as { observer?: SelectionObserver }).observer;
  const doc = dom?.win?.document;
  if (!doc || typeof dom.onSelectionChange !== "function") return;
  doc.removeEventListener("selectionchange", dom.onSelectionChange);
  views.set(view, dom.onSelectionChange);
  if (listening !== doc) {
    listening?.removeEventListener("selectionchange", onSelectionChange);
    doc.addEventListener("selectionchange", onSelectionChange);
    listening = doc;
  }
}

/** A view about to be destroyed. */
export function dropView(view: EditorView): void {
  views.delete(view);
}

/** Views made so far and not destroyed (tests). */
export function liveViews(): number {
  return views.size;
}
