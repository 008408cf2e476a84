// The compiled CLI of the test run (cli/.dist-test, built once by test/support/build-cli-once.ts), started as
// cli/jankbook.js starts cli/dist: tests spawn what ships, compiled from the sources under test, without sharing
// cli/dist with test/cli/build.test.ts (which rebuilds and marks it while other files run).
const { main } = await import(new URL("../../cli/.dist-test/main.js", import.meta.url).href);
process.exitCode = await main(process.argv);
