// jsdom lays nothing out: CodeMirror measures text ranges (no rectangles: nothing is drawn, nothing is asked), and
// outputs observe their size. Imported for its effect by the element tests that mount editors and outputs in jsdom.
Range.prototype.getClientRects = () => [] as unknown as DOMRectList;
Range.prototype.getBoundingClientRect = () => new DOMRect();
globalThis.ResizeObserver ??= class {
  observe() {}
  unobserve() {}
  disconnect() {}
} as unknown as typeof ResizeObserver;
