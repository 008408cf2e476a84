// Triage's charts at 900 px, half a large screen (test/support/triage-charts.ts says what is checked).
import { describeTriageCharts } from "../support/triage-charts";

describeTriageCharts([900]);
