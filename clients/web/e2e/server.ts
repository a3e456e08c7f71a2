import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

// Builds propman (or takes E2E_PROPMAN, a built binary) and starts it on a free port with a
// fresh SQLite file and the log mailer, whose log the journeys read codes
// and links from, as the README's walk-through does (CODE_FROM_LOG).
async function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => ok(port));
    });
  });
}

export default async function globalSetup() {
  const root = resolve(import.meta.dirname, "../../..");
  const dir = mkdtempSync(join(tmpdir(), "propman-e2e-"));
  let bin = process.env.E2E_PROPMAN;
  if (!bin) {
    bin = join(dir, "propman");
    execFileSync("go", ["build", "-o", bin, "./cmd/propman"], { cwd: root, stdio: "inherit" });
  }
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const log = join(dir, "log");
  const { openSync } = await import("node:fs");
  const out = openSync(log, "a");
  const server = spawn(bin, [], {
    cwd: dir,
    stdio: ["ignore", out, out],
    // Only this machine's basics: a PROPMAN_* variable of the caller's
    // would configure the server under test.
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      PROPMAN_HTTP_ADDR: `127.0.0.1:${port}`,
      PROPMAN_DATABASE_URL: `sqlite:${join(dir, "propman.db")}`,
      PROPMAN_MAIL_URL: "log:",
      // Mailed links point at this server, so the journeys open them.
      PROPMAN_HTTP_PUBLICURL: base,
      // Every journey registers its people from 127.0.0.1: the per-IP
      // limit (20 registrations an hour) would refuse the later specs of
      // one run. The per-account limits still hold.
      PROPMAN_RATELIMIT_ENABLED: "false",
    },
  });
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/v1/health`)).ok) break;
    } catch {
      // not up yet
    }
    if (i > 150 || server.exitCode !== null) {
      throw new Error(`propman did not start:\n${readFileSync(log, "utf8").slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  process.env.E2E_BASE = base;
  process.env.E2E_LOG = log;
  return async () => {
    server.kill("SIGTERM");
  };
}
