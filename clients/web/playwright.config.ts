import { defineConfig } from "@playwright/test";

// The system's Chromium (Debian's package): no browser download
// (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 at install). The flags keep it off
// the network this machine does not have.
export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/server.ts",
  // One worker: the journeys share one server and the machine's two cores.
  workers: 1,
  timeout: 60_000,
  reporter: [["list"]],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
    trace: "off",
  },
});
