// A toast as a Lit ReactiveController: one message at a time, gone after `ms` (or when dismissed); the host
// re-renders on each change. <jb-notebook>'s undo toast and <jb-app>'s removed-run toast use it.
import type { ReactiveController, ReactiveControllerHost } from "lit";

export class ToastController<T = string> implements ReactiveController {
  /** the toast shown, or undefined */
  value: T | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `ms`: how long a toast stays; undefined: until dismissed or replaced */
  constructor(
    private readonly host: ReactiveControllerHost,
    private readonly ms?: number,
  ) {
    host.addController(this);
  }

  show(value: T) {
    this.value = value;
    clearTimeout(this.timer);
    if (this.ms !== undefined) this.timer = setTimeout(() => this.clear(), this.ms);
    this.host.requestUpdate();
  }

  clear() {
    clearTimeout(this.timer);
    if (this.value === undefined) return;
    this.value = undefined;
    this.host.requestUpdate();
  }

  hostDisconnected() {
    clearTimeout(this.timer);
  }
}
