// Every analysis, one namespace per paper, as notebooks see them (the `jb` builtin).
export * as common from "./common/index";
export * as dune from "./dune/index";
export * as diagdroid from "./diagdroid/index";
export * as draw from "./draw/index";
export * as androscope from "./androscope/index";
export * as compare from "./compare/index";
