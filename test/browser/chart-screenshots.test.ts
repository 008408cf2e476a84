// Triage's charts at 1440 px, a laptop's window (test/support/triage-charts.ts says what is checked); at 900 px in
// chart-screenshots-900.full.test.ts (`npm run test:full`), where rough-edges.test.ts and legible-charts.test.ts
// already check narrow widths by default.
import { describeTriageCharts } from "../support/triage-charts";

describeTriageCharts([1440]);
