// The full run's browser parity (`npm run test:full`, and CI): every notebook of test/support/browser-parity.ts's
// ALL_PARITY that `npm test` does not already compare in test/browser/parity.test.ts.
import { describe } from "vitest";
import { ALL_PARITY, DEFAULT_PARITY, parityTests } from "../support/browser-parity";

describe("every other notebook gives the same values in Chromium and headless", () => {
  parityTests(ALL_PARITY.filter((p) => !DEFAULT_PARITY.includes(p)));
});
