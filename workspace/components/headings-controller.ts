// The notebook's headings for <jb-toc>, as a Lit ReactiveController: after each render the prose headings get
// ids (heading-ids.ts), and a "headings" event goes out when they changed.
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { headingIds } from "../app/heading-ids";
import type { TocHeading } from "./jb-toc";

export class HeadingsController implements ReactiveController {
  private key = "";

  constructor(private readonly host: ReactiveControllerHost & HTMLElement & { renderRoot: ParentNode }) {
    host.addController(this);
  }

  hostUpdated() {
    const found = [...this.host.renderRoot.querySelectorAll<HTMLElement>(".prose :is(h1, h2, h3)")];
    const ids = headingIds(found.map((h) => h.textContent ?? ""));
    const headings: TocHeading[] = found.map((h, i) => {
      // only when it differs: a notebook re-render must not touch prose it did not change
      if (h.id !== ids[i]) h.id = ids[i]!;
      return { id: ids[i]!, text: (h.textContent ?? "").trim(), level: Number(h.tagName[1]) };
    });
    const key = JSON.stringify(headings);
    if (key === this.key) return;
    this.key = key;
    this.host.dispatchEvent(new CustomEvent("headings", { detail: headings, bubbles: true, composed: true }));
  }
}
