import { expect, test } from "@playwright/test";
import { base } from "./helpers";

// Issue 49's budgets for the first page (sign-in): its JavaScript under
// 250 KB as sent (gzip), which the test holds (bytes do not depend on the
// machine's load), and interactive in under 1.5 s from a cold cache, the
// median of 3, which it measures and prints but does not assert: a timing
// on a shared machine is a measurement for docs/PERFORMANCE.md, not a test.
test("the first page: JS under 250 KB gzipped; time to interactive printed", async ({ browser, request }) => {
  const html = await (await request.get(`${base()}/sign-in`)).text();
  // The entry and the chunks it imports statically (preloaded as modules):
  // the build may split code the lazily loaded pages share out of the entry.
  const scripts = [
    ...[...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]),
    ...[...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1]),
  ];
  expect(scripts.length).toBeGreaterThan(0);
  // The tenant portal is its own chunk, fetched when a portal page opens.
  expect(html).not.toMatch(/Portal-[\w-]+\.js/);
  // So are the landlord's screens (src/landlord/routes.tsx, src/desk/routes.tsx).
  expect(html).not.toMatch(/(Dashboard|Properties|Buildings|Tenants|Contracts|Books|Calendar|Team)-[\w-]+\.js/);
  let gzipped = 0;
  for (const src of scripts) {
    const res = await request.get(`${base()}${src}`, { headers: { "Accept-Encoding": "gzip" } });
    expect(res.headers()["content-encoding"]).toBe("gzip");
    gzipped += Number(res.headers()["content-length"]);
  }
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    // A new context has an empty cache.
    const context = await browser.newContext();
    const page = await context.newPage();
    const start = Date.now();
    await page.goto(`${base()}/sign-in?lng=en`);
    await expect(page.getByRole("button", { name: "Sign in" })).toBeEnabled();
    times.push(Date.now() - start);
    await context.close();
  }
  const median = times.sort((a, b) => a - b)[1];
  console.log(`first page: JS ${(gzipped / 1024).toFixed(1)} KB gzipped; interactive ${times.join(", ")} ms, median ${median} ms`);
  expect(gzipped).toBeLessThan(250 * 1024);
});
