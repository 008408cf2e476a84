// A choice survives the re-run of the cell that made its input. When a cell re-runs (its data changed: τ moved, the
// outlier factor changed) it makes a fresh input; the runtime hands it the previous input's value if the user chose
// one (it differs from that input's default) and the new input still offers it, else the new input keeps its own
// default. "Offers" per kind:
//   plot({select})   a mark whose `select` column has that value is still drawn (plotOffers)
//   plot.brushX      the window still overlaps the chart's x extent: kept clipped to it (brushWindowOn)
//   headless Inputs  its offers(): an option of a select/radio, options of a checkbox, a number within the extent
//   browser Inputs   the form takes the value: set it, read it back (a select ignores an unknown option, a range
//                    clamps), and restore the default when it did not take
// Values that are objects (Inputs.search's rows, row objects) are never carried: a fresh cell's rows are new objects.
import { brushDomain, brushWindowOn, isBrushX, isPlotSpec, plotOffers } from "../../charts/plot-spec";
import { sameValue, type InputElementLike } from "./view-input";

/** Could `value` carry over at all: a primitive, a Date, or an array of those (a window, several choices). */
function carriable(value: unknown): boolean {
  const plain = (v: unknown) =>
    v === null || v instanceof Date || (typeof v !== "object" && typeof v !== "function");
  return Array.isArray(value) ? value.every(plain) : plain(value);
}

/**
 * Gives a re-made input `next` the previous input's chosen value when `next` still offers it; returns whether it did.
 * `next` is fresh from its cell (its value is its default) and not yet shown or read by anyone.
 */
export function carryInput(next: InputElementLike, chosen: unknown): boolean {
  if (!carriable(chosen)) return false;
  if (isBrushX(next)) {
    if (
      chosen !== null &&
      !(Array.isArray(chosen) && chosen.length === 2 && chosen.every((x) => Number.isFinite(Number(x))))
    )
      return false;
    const window = chosen === null ? null : brushWindowOn(chosen as [number, number], brushDomain(next));
    if (chosen !== null && window === null) return false;
    next.value = window;
    return true;
  }
  if (isPlotSpec(next)) {
    if (chosen !== null && !plotOffers(next, chosen)) return false;
    next.value = chosen;
    return true;
  }
  const offers = (next as { offers?: (v: unknown) => boolean }).offers;
  if (typeof offers === "function") {
    if (!offers.call(next, chosen)) return false;
    next.value = chosen;
    return true;
  }
  const initial = next.value;
  next.value = chosen;
  if (sameValue(next.value, chosen)) return true;
  next.value = initial;
  return false;
}
