// Main-thread work cut into tasks by time, not by item: steps go on in the task that started them until it has
// spent SLICE_MS on them, then the next step waits for a task of its own. A slider's dependent cells and the charts
// they redraw (a few ms each) then run in the frame that asked for them, not one frame each, and a chain of heavy
// ones still never adds up to a long task (a 50 ms one is what the Long Tasks API reports as blocking input).
import { nextTask } from "./next-task";

/** How long one task may run steps: half a 60 Hz frame, so the frame they run in still renders on time. */
export const SLICE_MS = 8;

/** When the current slice's first step ran; undefined once a task posted behind it has run (the slice is over). */
let sliceStart: number | undefined;
/** bumped per slice, so an older slice's end marker does not end a newer one */
let sliceNumber = 0;

const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());

/** ms spent in the current slice, which starts here if none is open: a task posted now marks where it ends. */
function spent(): number {
  if (sliceStart === undefined) {
    sliceStart = now();
    const mine = ++sliceNumber;
    void nextTask().then(() => {
      if (sliceNumber === mine) sliceStart = undefined;
    });
  }
  return now() - sliceStart;
}

/**
 * Resolves in the current task while its slice has room for a step expected to take `expectedMs` (what it took
 * last time), else in a task of its own that starts a fresh slice. A step that waits on this never runs after a
 * long stretch of other steps without the page rendering in between, and a step known to be long is not added to
 * a task that has other work (a frame's callbacks, then its style, layout and paint).
 */
export async function yieldWhenSliceSpent(expectedMs = 0): Promise<void> {
  if (spent() + expectedMs < SLICE_MS) return;
  await nextTask();
  sliceStart = undefined;
  spent();
}
