// <jb-app>'s drop target, as a Lit ReactiveController: while files are dragged over the page it says so
// (`dragging`), and the run bundles in a drop (folders walked, see dropped-files.ts) go to `onDrop`.
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { droppedSources } from "../../bundle/browser-sources";
import type { BundleSource } from "../../bundle/read-bundle";
import { filesFromDrop } from "../app/dropped-files";

export class DropController implements ReactiveController {
  /** files are being dragged over the page */
  dragging = false;
  private readonly over = (e: DragEvent) => {
    e.preventDefault();
    this.set(true);
  };
  private readonly leave = () => this.set(false);
  private readonly drop = (e: DragEvent) => void this.onDropped(e);

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    /** the bundles dropped, one per folder holding a manifest.json (none: the drop held no run) */
    private readonly onDrop: (sources: BundleSource[]) => unknown,
  ) {
    host.addController(this);
  }

  hostConnected() {
    this.host.addEventListener("dragover", this.over);
    this.host.addEventListener("dragleave", this.leave);
    this.host.addEventListener("drop", this.drop);
  }

  hostDisconnected() {
    this.host.removeEventListener("dragover", this.over);
    this.host.removeEventListener("dragleave", this.leave);
    this.host.removeEventListener("drop", this.drop);
  }

  private set(dragging: boolean) {
    if (this.dragging === dragging) return;
    this.dragging = dragging;
    this.host.requestUpdate();
  }

  private async onDropped(e: DragEvent) {
    e.preventDefault();
    this.set(false);
    if (!e.dataTransfer) return;
    await this.onDrop(droppedSources(await filesFromDrop(e.dataTransfer)));
  }
}
