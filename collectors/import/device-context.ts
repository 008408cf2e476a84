// Importers for the device-context outputs a user saves beside a trace: getprop, `wm size`,
// `dumpsys display` and `dumpsys battery` (the same parsers the live collector uses). Each gives context
// fields and no tables; several of them fill one run's context.
import type { RunContext } from "../../bundle/manifest";
import {
  contextFromGetprop,
  parseBattery,
  parseDisplayRefresh,
  parseGetprop,
  parseWmSize,
} from "../sources/device-props";
import type { TextImport } from "./framestats";

function contextImport(
  kind: string,
  file: string,
  context: Partial<RunContext>,
  warnings: string[],
): TextImport {
  const found = Object.values(context).some((v) => v !== null && v !== undefined);
  if (!found) warnings.push(`${file}: a ${kind} output with nothing jankbook could read`);
  return {
    context: { app: "unknown", ...context },
    tables: {},
    warnings,
    complete: warnings.length === 0,
    source: { kind, origin: file },
  };
}

export function importGetprop(text: string, file: string): TextImport {
  const { props, warnings } = parseGetprop(text, file);
  return contextImport("getprop", file, contextFromGetprop(props), warnings.slice(0, 20));
}

export function importWmSize(text: string, file: string): TextImport {
  const size = parseWmSize(text);
  return contextImport(
    "wm-size",
    file,
    size ? { screen_width: size.width, screen_height: size.height } : {},
    [],
  );
}

export function importDumpsysDisplay(text: string, file: string): TextImport {
  const hz = parseDisplayRefresh(text);
  return contextImport("dumpsys-display", file, hz !== null && hz > 0 ? { refresh_hz: hz } : {}, []);
}

export function importDumpsysBattery(text: string, file: string): TextImport {
  const level = parseBattery(text).level;
  return contextImport("dumpsys-battery", file, level !== null ? { battery_level: level } : {}, []);
}
