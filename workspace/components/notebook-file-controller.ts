// <jb-app>'s notebook file, as a Lit ReactiveController: the file it was opened from (Save writes back there),
// the draft recovered from a crash or reload, and Publish (a self-contained HTML download).
import type { ReactiveController, ReactiveControllerHost } from "lit";
import { clearDraft } from "../app/autosave";
import { openNotebookFile, saveNotebookFile } from "../app/notebook-files";
import type { LoadedRun } from "../app/session";
import { parseNotebook } from "../notebook/format";
import { version } from "../../package.json";
import type { JbNotebook } from "./jb-notebook";
import { ToastController } from "./toast-controller";

/** What Publish did: the file downloaded and its size, or why nothing was. */
export interface PublishOutcome {
  ok: boolean;
  message: string;
}

export class NotebookFileController implements ReactiveController {
  /** when unsaved edits were recovered (a draft newer than the file), shown until discarded or saved */
  recovered: string | undefined;
  private handle?: FileSystemFileHandle;
  /** Publish's outcome: a download starts silently, so the page says it happened (or why not) */
  readonly published: ToastController<PublishOutcome>;

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
    this.published = new ToastController<PublishOutcome>(host, 10_000);
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

  /** Downloads the notebook as self-contained HTML, with its runs' and inputs' provenance; the toast says how it went. */
  async publish(nb: JbNotebook, path: string, runs: readonly LoadedRun[]) {
    try {
      const file = await this.download(nb, path, runs);
      const kb = Math.max(1, Math.round(file.bytes / 1024)).toLocaleString("en-US");
      this.published.show({ ok: true, message: `Published ${file.name} (${kb} KB): see your downloads` });
    } catch (e) {
      this.published.show({ ok: false, message: `Publish failed: ${(e as Error).message}` });
    }
  }

  private async download(nb: JbNotebook, path: string, runs: readonly LoadedRun[]) {
    const rt = nb.runtime;
    if (!rt) throw new Error("the notebook has not started yet");
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
    const blob = new Blob([html], { type: "text/html" });
    const name = path.replace(/\.md$/, ".html");
    const a = Object.assign(document.createElement("a"), { href: URL.createObjectURL(blob), download: name });
    a.click();
    return { name: name.split("/").pop()!, bytes: blob.size };
  }
}
