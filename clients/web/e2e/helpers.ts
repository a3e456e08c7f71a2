import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type Locator, type Page } from "@playwright/test";
import { mkdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";

// What the journeys share: the server e2e/server.ts started, the mails its
// log mailer wrote, and the check every visited page passes.

export const base = () => process.env.E2E_BASE!;
const shots = resolve(import.meta.dirname, "../../../docs/screenshots");
mkdirSync(shots, { recursive: true });

function log(): string {
  return readFileSync(process.env.E2E_LOG!, "utf8");
}

// The last mail to `to` whose line matches `pattern` (its first group), as
// the log mailer wrote it.
export async function fromMail(to: string, pattern: RegExp): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const lines = log()
      .split("\n")
      .filter((l) => l.includes("mail (log: mailer") && l.includes(`to=${to}`));
    for (const line of lines.reverse()) {
      const m = pattern.exec(line);
      if (m) return m[1];
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`no mail to ${to} matching ${pattern}`);
}

// The registration code ends the subject ("...code: 504004"). Only that
// passes for it: not six digits of another mail's body or link (an
// invitation's token), nor a receipt number's ("Receipt 2026-000001"),
// mails that may reach the same address after the code's.
export const code = (to: string) => fromMail(to, /subject="[^"]*?(?<![\d-])(\d{6})"/);

// mask: what changes from run to run (a time stamped by the server), drawn
// over in the screenshot so that reruns keep its bytes where they can.
export async function check(page: Page, name: string, mask: Locator[] = []) {
  await page.waitForLoadState("networkidle");
  const result = await new AxeBuilder({ page }).analyze();
  const bad = result.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ") + " " + n.html.slice(0, 160) + " " + (n.failureSummary ?? "").slice(0, 200)).join(", ")})`)).toEqual([]);
  await page.screenshot({ path: `${shots}/${name}.png`, fullPage: true, mask, maskColor: "#dee2e6" });
}


// A landlord (or any user: name) registered and signed in through the API,
// for journeys whose subject is another page; returns POST and GET helpers
// with their token.
export async function landlordAPI(request: APIRequestContext, email: string, name = "Lena Landlord") {
  const password = "Tenancy2026ok";
  const call = async (path: string, data: object, headers: Record<string, string> = {}) => {
    const res = await request.post(`${base()}/api/v1${path}`, { headers, data });
    expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
    return res.json();
  };
  await call("/auth/register", { name, email });
  await call("/auth/register/verify", { email, code: await code(email), password, country_code: "DE" });
  const { token } = await call("/auth/login", { email, password });
  const auth = { Authorization: `Bearer ${token}` };
  return {
    token: token as string,
    auth,
    post: (path: string, data: object = {}) => call(path, data, auth),
    get: async (path: string) => {
      const res = await request.get(`${base()}/api/v1${path}`, { headers: auth });
      expect(res.status(), `${path}: ${await res.text()}`).toBe(200);
      return res.json();
    },
  };
}
