// The timeline's boxes painted straight into an RGBA pixel buffer, put on the canvas in one call. Tens of
// thousands of fillRect calls cost ~20 µs each in Chromium's software canvas (no GPU here), a frame of 30,000
// boxes 150+ ms; writing the pixels costs what the covered area costs (the plot is ~600 x 450 px), ~1 ms.
// A box covers device pixel columns [floor(x0), max(floor(x0) + 1, ceil(x1))): never less than one, as the
// level of detail assumes (cells/common/timeline-lod.ts).

/** A buffer of width x height RGBA pixels (an ImageData, or a plain object in tests). */
export interface PixelBuffer {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

export type Rgb = readonly [r: number, g: number, b: number];

const parsed = new Map<string, Rgb>();

/** #rgb or #rrggbb as numbers (cached: the same few colours are asked for per box per frame). */
export function parseColor(css: string): Rgb {
  let c = parsed.get(css);
  if (c) return c;
  const hex = css.startsWith("#") ? css.slice(1) : "";
  const full = hex.length === 3 ? [...hex].map((d) => d + d).join("") : hex;
  const n = /^[0-9a-f]{6}$/i.test(full) ? parseInt(full, 16) : 0x888888;
  c = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  parsed.set(css, c);
  return c;
}

/** Fills the buffer with one colour, opaque. */
export function fillBuffer(buf: PixelBuffer, rgb: Rgb): void {
  const d = buf.data;
  for (let i = 0; i < d.length; i += 4)
    ((d[i] = rgb[0]), (d[i + 1] = rgb[1]), (d[i + 2] = rgb[2]), (d[i + 3] = 255));
}

/**
 * Paints [x0, x1) x [y0, y1) (device pixels, fractional x) in rgb at opacity alpha over what is there; clipped
 * to the buffer. Rows are rounded; columns per the rule above.
 */
export function paintRect(
  buf: PixelBuffer,
  x0: number,
  x1: number,
  y0: number,
  y1: number,
  rgb: Rgb,
  alpha = 1,
): void {
  const first = Math.floor(x0);
  const from = Math.max(0, first);
  const to = Math.min(buf.width, Math.max(first + 1, Math.ceil(x1)));
  const top = Math.max(0, Math.round(y0));
  const bottom = Math.min(buf.height, Math.round(y1));
  if (from >= to || top >= bottom) return;
  const d = buf.data;
  const a = Math.max(0, Math.min(1, alpha));
  const [r, g, b] = rgb;
  for (let y = top; y < bottom; y++) {
    let i = (y * buf.width + from) * 4;
    const end = (y * buf.width + to) * 4;
    if (a >= 1) for (; i < end; i += 4) ((d[i] = r), (d[i + 1] = g), (d[i + 2] = b), (d[i + 3] = 255));
    else
      for (; i < end; i += 4) {
        d[i] = d[i]! + (r - d[i]!) * a;
        d[i + 1] = d[i + 1]! + (g - d[i + 1]!) * a;
        d[i + 2] = d[i + 2]! + (b - d[i + 2]!) * a;
        d[i + 3] = 255;
      }
  }
}
