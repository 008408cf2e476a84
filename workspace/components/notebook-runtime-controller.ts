// <jb-notebook>'s reactive runtime, as a Lit ReactiveController: one NotebookRuntime per opened text and engine,
// with the inputs' starting values; one re-render per animation frame however many cells settle in it, in which
// only the cells whose state changed are rendered again (`version`); disposed when the element leaves the page
// (its cells stop, its queries are dropped).
import * as Inputs from "@observablehq/inputs";
import type { ReactiveController, ReactiveControllerHost } from "lit";
import type { SqlEngine } from "../db/engine";
import type { Notebook } from "../notebook/format";
import { NotebookRuntime, readsTables } from "../notebook/runtime";

export class NotebookRuntimeController implements ReactiveController {
  /** the runtime of the open notebook */
  rt: NotebookRuntime | undefined;
  private frame = 0;
  /** per cell id, bumped whenever its state is reported: a cell whose version is unchanged renders nothing new */
  private readonly versions = new Map<string, number>();

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  /** A fresh runtime for `nb` on `engine`; `inputs` are the starting values of the inputs so named. */
  start(nb: Notebook, engine: SqlEngine, inputs: Record<string, unknown> | undefined) {
    this.rt?.dispose();
    this.rt = new NotebookRuntime({
      engine,
      builtins: { Inputs },
      isGlobal: (name) => name in globalThis,
      yieldBetweenCells: true,
      onCell: (state) => {
        this.versions.set(state.id, (this.versions.get(state.id) ?? 0) + 1);
        this.schedule();
      },
    });
    this.setInputs(inputs);
    this.rt.load(nb);
  }

  /** Sets each named input (an input not there yet starts with the value). */
  setInputs(inputs: Record<string, unknown> | undefined) {
    for (const [name, value] of Object.entries(inputs ?? {})) this.rt?.setInput(name, value);
  }

  /** The runs changed: the cells that read tables re-run, so no answer is stale. */
  rerunTables() {
    this.rt?.rerun(readsTables);
  }

  /** How many times the cell `id`'s state has been reported. */
  version(id: string): number {
    return this.versions.get(id) ?? 0;
  }

  /** One re-render per animation frame, however many cells settle in it. */
  private schedule() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.host.requestUpdate();
    });
  }

  hostConnected() {}

  hostDisconnected() {
    this.rt?.dispose();
  }
}
