// <jb-app>'s notebook file, as a Lit ReactiveController: the file it was opened from (Save writes back there),
// the draft recovered from a crash or reload, and Publish (a self-contained HTML download).
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { clearDraft } from "../app/autosave";
import { openNotebookFile, saveNotebookFile } from "../app/notebook-files";
import type { LoadedRun } from "../app/session";
import { parseNotebook } from "../notebook/format";
import { version } from "../../package.json";
import type { JbNotebook } from "./jb-notebook";

export class NotebookFileController implements ReactiveController {
  /** when unsaved edits were recovered (a draft newer than the file), shown until discarded or saved */
  recovered: string | undefined;
  private handle?: FileSystemFileHandle;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  hostConnected() {}

  setRecovered(at: string | undefined) {
    this.recovered = at;
    this.host.requestUpdate();
  }

  /** The file picker: the chosen file's name and text (its handle kept for Save); undefined when cancelled. */
  async open(): Promise<{ name: string; text: string } | undefined> {
    const file = await openNotebookFile();
    if (!file) return undefined;
    this.handle = file.handle;
    return file;
  }

  async save(nb: JbNotebook, path: string) {
    this.handle = await saveNotebookFile(path, nb.currentText(), this.handle);
    nb.markSaved();
    this.setRecovered(undefined);
  }

  /** The recovered draft is dropped: the notebook goes back to `original`. */
  discard(path: string) {
    clearDraft(path);
    this.setRecovered(undefined);
  }

  /** Downloads the notebook as self-contained HTML, with its runs' and inputs' provenance. */
  async publish(nb: JbNotebook, path: string, runs: readonly LoadedRun[]) {
    const rt = nb.runtime;
    if (!rt) return;
    await rt.settled(30_000).catch(() => undefined);
    // Publishing pulls the runtime, markdown-it and DOMPurify: loaded on first use, not at page start.
    const [{ publishNotebook }, { sanitize }, { notebookProvenance, runProvenance }] = await Promise.all([
      import("../publish/publish"),
      import("../publish/browser-sanitize"),
      import("../publish/provenance"),
    ]);
    const html = publishNotebook(rt.notebook, rt.states(), {
      document,
      sanitize,
      provenance: notebookProvenance({
        notebook: path,
        title: parseNotebook(nb.currentText()).frontMatter?.title,
        runs: runs.flatMap((r) => (r.manifest ? [runProvenance(r.manifest)] : [])),
        jankbookVersion: version,
        inputs: rt.inputs(),
      }),
    });
    const a = Object.assign(document.createElement("a"), {
      href: URL.createObjectURL(new Blob([html], { type: "text/html" })),
      download: path.replace(/\.md$/, ".html"),
    });
    a.click();
  }
}
