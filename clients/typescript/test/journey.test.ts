// The journey of a new landlord through the generated client, against a
// real propman (SQLite in a temporary folder, mail written to the log):
// register -> verify (code read from the log) -> login -> me -> create a
// property -> create an expense -> refresh-all -> list charges. Every step
// checks the status and the body. Run with `npm test` (node --test).
//
// JOURNEY_BIN: a built propman binary; otherwise it is built from the
// repository with `go build`. The server gets no PROPMAN_* variable of the
// caller's environment, only its own.
import { after, before, describe, it } from "node:test";
import assert from "node:assert/strict";
import { spawn, execFileSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";

import { bearer, createPropmanClient, type PropmanClient, type Schemas } from "../src/index.js";

const repo = resolve(fileURLToPath(import.meta.url), "../../../../..");
const dir = mkdtempSync(join(tmpdir(), "propman-journey-"));
let server: ChildProcess | undefined;
let exited: Promise<void> = Promise.resolve();
const logLines: string[] = [];

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.once("error", fail);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => ok(port));
    });
  });
}

async function waitHealthy(api: PropmanClient, deadline: number): Promise<void> {
  for (;;) {
    try {
      const { response } = await api.GET("/api/v1/health");
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (server?.exitCode !== null && server?.exitCode !== undefined) {
      throw new Error(`propman exited with ${server.exitCode}:\n${logLines.join("\n")}`);
    }
    if (Date.now() > deadline) throw new Error(`propman did not become healthy:\n${logLines.join("\n")}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The first group of `pattern` in the last email to `email` in the log that has it. */
function fromLastMail(email: string, pattern: RegExp): string | undefined {
  let found: string | undefined;
  for (const line of logLines) {
    let rec: { msg?: string; to?: unknown; text?: string };
    try {
      rec = JSON.parse(line);
    } catch {
      continue;
    }
    const to = Array.isArray(rec.to) ? rec.to.join(",") : String(rec.to ?? "");
    if (rec.msg?.startsWith("mail") && to.includes(email) && rec.text) {
      found = pattern.exec(rec.text)?.[1] ?? found;
    }
  }
  return found;
}

/** The 6-digit code of the last verification email to `email` in the log. */
function codeFromLog(email: string): string | undefined {
  return fromLastMail(email, /\b(\d{6})\b/);
}

let api: PropmanClient;
let token: string | undefined;

before(async () => {
  let bin = process.env.JOURNEY_BIN;
  if (!bin) {
    bin = join(dir, "propman");
    execFileSync("go", ["build", "-o", bin, "./cmd/propman"], { cwd: repo, stdio: "inherit" });
  }
  const port = await freePort();
  server = spawn(bin, ["serve"], {
    cwd: dir,
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("PROPMAN_"))),
      PROPMAN_HTTP_ADDR: `127.0.0.1:${port}`,
      PROPMAN_DATABASE_URL: `sqlite:${join(dir, "propman.db")}`,
      PROPMAN_AUTH_SECRET: randomBytes(32).toString("hex"),
      PROPMAN_MAIL_URL: "log:",
      PROPMAN_LOG_FORMAT: "json",
      PROPMAN_LOG_LEVEL: "info",
      PROPMAN_RATELIMIT_ENABLED: "false",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const child = server;
  exited = new Promise((ok) => child.once("exit", () => ok()));
  let rest = "";
  const collect = (chunk: Buffer) => {
    const text = rest + chunk.toString("utf8");
    const lines = text.split("\n");
    rest = lines.pop() ?? "";
    logLines.push(...lines);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);

  api = createPropmanClient(`http://127.0.0.1:${port}`);
  api.use(bearer(() => token));
  await waitHealthy(api, Date.now() + 60_000);
});

after(async () => {
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    const timer = setTimeout(() => server?.kill("SIGKILL"), 25_000);
    await exited;
    clearTimeout(timer);
  }
  rmSync(dir, { recursive: true, force: true });
});

describe("a landlord's first visit, through the generated client", () => {
  const email = `journey-${randomBytes(4).toString("hex")}@example.com`;
  const password = "Journey-Pass-2026";
  let propertyId = "";
  let expense: Schemas["Expense"] | undefined;

  it("registers (step 1: a code is emailed)", async () => {
    const { data, error, response } = await api.POST("/api/v1/auth/register", {
      body: { name: "Journey Landlord", email, locale: "en" },
    });
    assert.equal(response.status, 200, JSON.stringify(error));
    assert.equal(data?.success, true);
  });

  it("verifies with the code from the log (step 2: the account is created)", async () => {
    let code: string | undefined;
    for (let i = 0; i < 50 && !code; i++) {
      code = codeFromLog(email);
      if (!code) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(code, "no verification code for the email in the log");
    const { data, error, response } = await api.POST("/api/v1/auth/register/verify", {
      body: { email, code, password, country_code: "DE" },
    });
    assert.equal(response.status, 201, JSON.stringify(error));
    assert.equal(data?.user.email, email);
  });

  it("logs in", async () => {
    const { data, error, response } = await api.POST("/api/v1/auth/login", { body: { email, password } });
    assert.equal(response.status, 200, JSON.stringify(error));
    assert.ok(data?.token && data.token.split(".").length === 3, "not a JWT");
    token = data.token;
  });

  it("reads the signed-in user", async () => {
    const { data, error, response } = await api.GET("/api/v1/auth/me");
    assert.equal(response.status, 200, JSON.stringify(error));
    assert.equal(data?.email, email);
    assert.deepEqual(data?.roles, ["ROLE_USER"]);
    assert.equal(data?.country.code, "DE");
  });

  it("creates a property", async () => {
    const { data, error, response } = await api.POST("/api/v1/properties", {
      body: { name: "Flat in Berlin", city: "Berlin", country_code: "DE" },
    });
    assert.equal(response.status, 201, JSON.stringify(error));
    assert.ok(data);
    assert.equal(data.name, "Flat in Berlin");
    assert.equal(data.currency, "EUR", "the currency defaults to the country's");
    propertyId = data.id;
  });

  it("creates a monthly expense", async () => {
    const { data, error, response } = await api.POST("/api/v1/properties/{propertyId}/expenses", {
      params: { path: { propertyId } },
      body: { name: "Rent", type: "MONTHLY", amount: 1200.5, start_date: "2020-01-01", due_day: 5 },
    });
    assert.equal(response.status, 201, JSON.stringify(error));
    assert.ok(data);
    assert.equal(data.property_id, propertyId);
    assert.equal(data.amount, 1200.5);
    assert.equal(data.currency, "EUR");
    assert.equal(data.is_active, true);
    expense = data;
  });

  it("refreshes: one charge for the current month", async () => {
    const { data, error, response } = await api.POST("/api/v1/properties/{propertyId}/expenses/refresh-all", {
      params: { path: { propertyId } },
    });
    assert.equal(response.status, 200, JSON.stringify(error));
    assert.deepEqual(data, { created: 1, skipped: 0, errors: 0 });
  });

  it("lists the charge", async () => {
    const { data, error, response } = await api.GET("/api/v1/properties/{propertyId}/charges", {
      params: { path: { propertyId }, query: { status: "unpaid" } },
    });
    assert.equal(response.status, 200, JSON.stringify(error));
    assert.ok(data && expense);
    assert.equal(data.total, 1);
    const [charge] = data.charges;
    assert.ok(charge);
    const now = new Date();
    const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
    assert.equal(charge.expense_id, expense.id);
    assert.equal(charge.period, month);
    assert.equal(charge.due_date, `${month}-05`);
    assert.equal(charge.amount, 1200.5);
    assert.equal(charge.status, "unpaid");
  });

  it("answers 401 without a token, as documented", async () => {
    const saved = token;
    token = undefined;
    try {
      const { error, response } = await api.GET("/api/v1/auth/me");
      assert.equal(response.status, 401);
      assert.ok(error && "code" in error, "not the {code, message} body of a 401");
      assert.equal(error.code, 401);
    } finally {
      token = saved;
    }
  });
});

/** The token of the last invitation link mailed to `email`, from the log. */
function inviteTokenFromLog(email: string): string | undefined {
  return fromLastMail(email, /token=([A-Za-z0-9_-]+)/);
}

async function waitFor<T>(get: () => T | undefined, what: string): Promise<T> {
  for (let i = 0; i < 50; i++) {
    const v = get();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not found in the log`);
}

/** Registers, verifies and signs in a new account; returns its token. */
async function signUp(name: string, email: string): Promise<string> {
  const password = "Journey-Pass-2026";
  const reg = await api.POST("/api/v1/auth/register", { body: { name, email, locale: "en" } });
  assert.equal(reg.response.status, 200, JSON.stringify(reg.error));
  const code = await waitFor(() => codeFromLog(email), `the code for ${email}`);
  const ver = await api.POST("/api/v1/auth/register/verify", { body: { email, code, password, country_code: "DE" } });
  assert.equal(ver.response.status, 201, JSON.stringify(ver.error));
  const login = await api.POST("/api/v1/auth/login", { body: { email, password } });
  assert.equal(login.response.status, 200, JSON.stringify(login.error));
  assert.ok(login.data);
  return login.data.token;
}

describe("a team and a tenant: the landlord invites a manager, who records a payment the tenant sees", () => {
  const tag = randomBytes(4).toString("hex");
  const emails = { landlord: `owner-${tag}@example.com`, manager: `manager-${tag}@example.com`, tenant: `tenant-${tag}@example.com` };
  const tokens: Record<string, string> = {};
  let workspaceId = 0;
  let propertyId = "";
  let contractId = "";
  let tenantId = "";

  it("signs up the landlord, the manager and the tenant", async () => {
    tokens.landlord = await signUp("Team Landlord", emails.landlord);
    tokens.manager = await signUp("Team Manager", emails.manager);
    tokens.tenant = await signUp("Team Tenant", emails.tenant);
  });

  it("the landlord's own workspace is their default", async () => {
    token = tokens.landlord;
    const { data, error, response } = await api.GET("/api/v1/workspaces");
    assert.equal(response.status, 200, JSON.stringify(error));
    assert.equal(data?.workspaces.length, 1);
    const [own] = data?.workspaces ?? [];
    assert.ok(own);
    assert.equal(own.role, "owner");
    assert.equal(own.is_default, true);
    workspaceId = own.id;
    const profile = await api.GET("/api/v1/user/profile");
    assert.equal(profile.data?.default_workspace_id, workspaceId);
  });

  it("the landlord lets a flat: property, tenant, active contract", async () => {
    token = tokens.landlord;
    const prop = await api.POST("/api/v1/properties", { body: { name: "Team flat", city: "Berlin", country_code: "DE" } });
    assert.equal(prop.response.status, 201, JSON.stringify(prop.error));
    propertyId = prop.data?.id ?? "";
    const tenant = await api.POST("/api/v1/contragents", {
      body: { kind: "person", roles: ["tenant"], name: "Team Tenant", email: emails.tenant },
    });
    assert.equal(tenant.response.status, 201, JSON.stringify(tenant.error));
    tenantId = tenant.data?.id ?? "";
    const start = new Date().toISOString().slice(0, 8) + "01";
    const contract = await api.POST("/api/v1/contracts", {
      body: {
        property_id: propertyId, tenant_id: tenantId, number: `T-${tag}`,
        terms: [
          { code: "MONTHLY_RENT_AMOUNT", value: 800 },
          { code: "CONTRACT_START_DATE", value: start },
          { code: "PAYMENT_DAY_OF_MONTH", value: 3 },
        ],
      },
    });
    assert.equal(contract.response.status, 201, JSON.stringify(contract.error));
    contractId = contract.data?.id ?? "";
    const active = await api.POST("/api/v1/contracts/{contractId}/activate", { params: { path: { contractId } } });
    assert.equal(active.response.status, 200, JSON.stringify(active.error));
  });

  it("the landlord invites the manager, who accepts", async () => {
    token = tokens.landlord;
    const inv = await api.POST("/api/v1/workspaces/{workspaceId}/invitations", {
      params: { path: { workspaceId: String(workspaceId) } },
      body: { email: emails.manager, role: "manager" },
    });
    assert.equal(inv.response.status, 201, JSON.stringify(inv.error));
    const invite = await waitFor(() => inviteTokenFromLog(emails.manager), "the manager's invitation");
    token = tokens.manager;
    const acc = await api.POST("/api/v1/invitations/{token}/accept", { params: { path: { token: invite } } });
    assert.equal(acc.response.status, 200, JSON.stringify(acc.error));
    assert.equal(acc.data?.id, workspaceId);
    assert.equal(acc.data?.role, "manager");
  });

  it("the manager records the tenant's payment in the landlord's workspace", async () => {
    token = tokens.manager;
    const header = { "X-Workspace-ID": workspaceId };
    const refresh = await api.POST("/api/v1/properties/{propertyId}/expenses/refresh-all", {
      params: { path: { propertyId }, header },
    });
    assert.equal(refresh.response.status, 200, JSON.stringify(refresh.error));
    const pay = await api.POST("/api/v1/properties/{propertyId}/payments", {
      params: { path: { propertyId }, header },
      body: { amount: 800, method: "bank_transfer", contract_id: contractId, reference: `rent ${tag}` },
    });
    assert.equal(pay.response.status, 201, JSON.stringify(pay.error));
    // Without the header the manager is in their own workspace: the
    // landlord's property is another's.
    const own = await api.GET("/api/v1/properties/{propertyId}", { params: { path: { propertyId } } });
    assert.equal(own.response.status, 403);
  });

  it("the landlord invites the tenant to the portal; the tenant sees the receipt", async () => {
    token = tokens.landlord;
    const inv = await api.POST("/api/v1/contragents/{contragentId}/portal-invitation", {
      params: { path: { contragentId: tenantId } },
    });
    assert.equal(inv.response.status, 201, JSON.stringify(inv.error));
    const invite = await waitFor(() => inviteTokenFromLog(emails.tenant), "the tenant's invitation");
    token = tokens.tenant;
    const acc = await api.POST("/api/v1/tenancy/invitations/{token}/accept", { params: { path: { token: invite } } });
    assert.equal(acc.response.status, 200, JSON.stringify(acc.error));
    const mine = await api.GET("/api/v1/tenancy/contracts");
    assert.equal(mine.response.status, 200, JSON.stringify(mine.error));
    assert.deepEqual(mine.data?.contracts.map((c) => c.id), [contractId]);
    const receipts = await api.GET("/api/v1/tenancy/contracts/{contractId}/receipts", { params: { path: { contractId } } });
    assert.equal(receipts.response.status, 200, JSON.stringify(receipts.error));
    assert.equal(receipts.data?.receipts.length, 1);
    assert.equal(receipts.data?.receipts[0]?.amount, 800);
    const balance = await api.GET("/api/v1/tenancy/contracts/{contractId}/balance", { params: { path: { contractId } } });
    assert.equal(balance.response.status, 200, JSON.stringify(balance.error));
    assert.equal(balance.data?.paid, 800);
    // The landlord's routes are 404 to the tenant, not 403.
    const prop = await api.GET("/api/v1/properties/{propertyId}", {
      params: { path: { propertyId }, header: { "X-Workspace-ID": workspaceId } },
    });
    assert.equal(prop.response.status, 404);
  });
});

describe("a move-out: check-in, termination, check-out, the deposit settled and refunded", () => {
  const tag = randomBytes(4).toString("hex");
  let propertyId = "";
  let contractId = "";
  let sofaId = "";
  let settlementId = "";
  let refundId = "";
  const today = new Date().toISOString().slice(0, 10);
  const start = today.slice(0, 8) + "01";

  it("lets a flat with a deposit, which the tenant pays with the first rent", async () => {
    token = await signUp("Moving Landlord", `mover-${tag}@example.com`);
    const prop = await api.POST("/api/v1/properties", { body: { name: "Flat to leave", city: "Köln", country_code: "DE" } });
    assert.equal(prop.response.status, 201, JSON.stringify(prop.error));
    propertyId = prop.data?.id ?? "";
    const tenant = await api.POST("/api/v1/contragents", { body: { kind: "person", roles: ["tenant"], name: "Moving Tenant" } });
    assert.equal(tenant.response.status, 201, JSON.stringify(tenant.error));
    const contract = await api.POST("/api/v1/contracts", {
      body: {
        property_id: propertyId, tenant_id: tenant.data?.id ?? "", number: `M-${tag}`, locale: "de",
        terms: [
          { code: "MONTHLY_RENT_AMOUNT", value: 700 },
          { code: "CONTRACT_START_DATE", value: start },
          { code: "DEPOSIT_AMOUNT", value: 1500 },
        ],
      },
    });
    assert.equal(contract.response.status, 201, JSON.stringify(contract.error));
    contractId = contract.data?.id ?? "";
    const active = await api.POST("/api/v1/contracts/{contractId}/activate", { params: { path: { contractId } } });
    assert.equal(active.response.status, 200, JSON.stringify(active.error));
    const refresh = await api.POST("/api/v1/properties/{propertyId}/expenses/refresh-all", { params: { path: { propertyId } } });
    assert.equal(refresh.response.status, 200, JSON.stringify(refresh.error));
    const pay = await api.POST("/api/v1/properties/{propertyId}/payments", {
      params: { path: { propertyId } },
      body: { amount: 2200, method: "bank_transfer", contract_id: contractId, reference: `deposit and rent ${tag}` },
    });
    assert.equal(pay.response.status, 201, JSON.stringify(pay.error));
  });

  it("records the inventory and the check-in", async () => {
    const sofa = await api.POST("/api/v1/properties/{propertyId}/assets", {
      params: { path: { propertyId } },
      body: { name: "Sofa", category: "furniture", condition: "good", value: 900 },
    });
    assert.equal(sofa.response.status, 201, JSON.stringify(sofa.error));
    sofaId = sofa.data?.id ?? "";
    const checkIn = await api.POST("/api/v1/properties/{propertyId}/assets/inspections", {
      params: { path: { propertyId } },
      body: { contract_id: contractId, kind: "check_in", inspected_on: start, items: [{ asset_id: sofaId, condition: "good" }] },
    });
    assert.equal(checkIn.response.status, 201, JSON.stringify(checkIn.error));
    assert.equal(checkIn.data?.changes, null);
  });

  it("terminates the contract and records the check-out, which shows the worn sofa", async () => {
    const end = await api.POST("/api/v1/contracts/{contractId}/terminate", {
      params: { path: { contractId } },
      body: { date: today, reason: "Moving out" },
    });
    assert.equal(end.response.status, 200, JSON.stringify(end.error));
    const checkOut = await api.POST("/api/v1/properties/{propertyId}/assets/inspections", {
      params: { path: { propertyId } },
      body: { contract_id: contractId, kind: "check_out", inspected_on: today, items: [{ asset_id: sofaId, condition: "fair", notes: "Stains" }] },
    });
    assert.equal(checkOut.response.status, 201, JSON.stringify(checkOut.error));
    assert.deepEqual(checkOut.data?.changes, [{ asset_id: sofaId, name: "Sofa", before: "good", after: "fair" }]);
    const pdf = await api.GET("/api/v1/print-forms/inspections/{inspectionId}", {
      params: { path: { inspectionId: checkOut.data?.id ?? "" } },
      parseAs: "arrayBuffer",
    });
    assert.equal(pdf.response.status, 200);
    assert.equal(pdf.response.headers.get("content-type"), "application/pdf");
  });

  it("settles the deposit with an agreed deduction: the rest is refunded", async () => {
    const st = await api.POST("/api/v1/properties/{propertyId}/compensations/deposit-settlements", {
      params: { path: { propertyId } },
      body: { contract_id: contractId, deductions: [{ reason: "Sofa cleaning", amount: 200 }] },
    });
    assert.equal(st.response.status, 201, JSON.stringify(st.error));
    assert.ok(st.data);
    assert.equal(st.data.deposit_held, 1500);
    assert.equal(st.data.owed, 0);
    assert.equal(st.data.deductions_total, 200);
    assert.equal(st.data.refund, 1300);
    assert.equal(st.data.still_owed, 0);
    assert.equal(st.data.matching, false);
    assert.equal(st.data.statutory, false);
    settlementId = st.data.id;
    refundId = st.data.compensation_id ?? "";
    const again = await api.POST("/api/v1/properties/{propertyId}/compensations/deposit-settlements", {
      params: { path: { propertyId } },
      body: { contract_id: contractId },
    });
    assert.equal(again.response.status, 409);
  });

  it("pays the refund out and prints the statement", async () => {
    const paid = await api.POST("/api/v1/properties/{propertyId}/compensations/{compensationId}/pay-out", {
      params: { path: { propertyId, compensationId: refundId } },
      body: { method: "bank_transfer", reference: `refund ${tag}` },
    });
    assert.equal(paid.response.status, 200, JSON.stringify(paid.error));
    assert.equal(paid.data?.kind, "deposit_refund");
    assert.equal(paid.data?.status, "paid_out");
    assert.equal(paid.data?.amount, 1300);
    const pdf = await api.GET("/api/v1/print-forms/deposit-settlements/{settlementId}", {
      params: { path: { settlementId } },
      parseAs: "arrayBuffer",
    });
    assert.equal(pdf.response.status, 200);
    assert.equal(pdf.response.headers.get("content-type"), "application/pdf");
  });
});
