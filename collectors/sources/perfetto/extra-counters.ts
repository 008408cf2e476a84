// Counter values carried on a TrackEvent beside its slice (track_event.proto: extra_counter_values 12 with
// extra_counter_track_uuids 31, extra_double_counter_values 46 with extra_double_counter_track_uuids 45), and the
// same uuids in TrackEventDefaults (track_event.proto TrackEventDefaults 31 and 45), which an event without its own
// uses (trace processor's track_event_tokenizer.cc TokenizeTrackEventPacket).
import { WIRE_LEN, type ProtoReader } from "./proto-reader";

export interface ExtraCounterTracks {
  intTracks: number[];
  doubleTracks: number[];
  ints: number[];
  doubles: number[];
}

export const newExtra = (): ExtraCounterTracks => ({
  intTracks: [],
  doubleTracks: [],
  ints: [],
  doubles: [],
});

/** One of the four fields (packed or not) into `e`. */
export function readExtraCounter(r: ProtoReader, field: number, wt: number, e: ExtraCounterTracks): void {
  if (field === 31) r.packedVarints(wt, e.intTracks);
  else if (field === 45) r.packedVarints(wt, e.doubleTracks);
  else if (field === 12) r.packedVarints(wt, e.ints, true);
  else if (wt === 1) e.doubles.push(r.double());
  else if (wt === WIRE_LEN) {
    const m = r.message();
    while (m.more()) e.doubles.push(m.double());
  } else r.skip(wt);
}
