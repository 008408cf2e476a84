// A display rendered by renderDisplay (publish.ts) in the headless runner's cell worker, placed as it is: sanitizing
// it twice would drop the data: links of embedded tables, which renderTable builds itself. Its own module, so the
// runner's thread can hold one without loading publish.ts and Plot.
export class PreRendered {
  constructor(readonly html: string) {}
}
