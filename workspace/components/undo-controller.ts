// An undo stack as a Lit ReactiveController: each structural change pushes what was there before; the host
// re-renders when the stack empties or fills (its Undo button is disabled on an empty stack).
import type { ReactiveController, ReactiveControllerHost } from "lit";

export class UndoController<S> implements ReactiveController {
  private readonly stack: S[] = [];

  constructor(private readonly host: ReactiveControllerHost) {
    host.addController(this);
  }

  get canUndo(): boolean {
    return this.stack.length > 0;
  }

  push(state: S) {
    this.stack.push(state);
    if (this.stack.length === 1) this.host.requestUpdate();
  }

  /** The state before the last change, taken off the stack; undefined when there is none. */
  pop(): S | undefined {
    const state = this.stack.pop();
    if (state !== undefined && this.stack.length === 0) this.host.requestUpdate();
    return state;
  }

  /** The stack outlives a reconnection (a move in the page): nothing to reset. */
  hostConnected() {}
}
