import { expect as baseExpect, test } from "@playwright/test";
import { base, check, landlordAPI } from "./helpers";

// Issue 49: the landlord's dashboard is GET /dashboard. Figures set up
// through the API (a charge overdue, one due this week, two open repairs)
// are shown as the API answers them, each block's heading leads to its
// screen, and a warning's message is the API's in the reader's language.
// Then the session: a token the API no longer takes is renewed or, when
// the API refuses that too, the reader is signed out with a message and
// brought back to the page after signing in again.

const expect = baseExpect.configure({ timeout: 30_000 });

const words = {
  de: { email: "E-Mail", password: "Passwort", signIn: "Anmelden", dashboard: "Übersicht", arrears: "Wer schuldet", week: "Diese Woche fällig", repairs: "Offene Reparaturen", bank: "Zu prüfende Kontoumsätze", ended: "Ihre Sitzung ist abgelaufen." },
  en: { email: "Email", password: "Password", signIn: "Sign in", dashboard: "Overview", arrears: "Who owes", week: "Due this week", repairs: "Open repairs", bank: "Bank lines to review", ended: "Your session has ended." },
} as const;

const locales = { de: "de-DE", en: "en-GB" } as const;
const day = (offset: number) => new Date(Date.now() + offset * 86400_000).toISOString().slice(0, 10);

for (const lng of ["de", "en"] as const) {
  const w = words[lng];
  test(`${lng}: the dashboard shows the API's figures, each block leads to its screen; an ended session signs out and back`, async ({ browser, request }) => {
    test.setTimeout(480_000);
    const stamp = `${lng}.${Date.now()}`;
    const email = `dana.${stamp}@example.com`;
    const landlord = await landlordAPI(request, email, "Dana Dashboard");
    const property = await landlord.post("/properties", { name: "Lindenhof 7", address: "Lindenstr. 7", city: "Berlin", postal_code: "10115", country_code: "DE" });
    await landlord.post(`/properties/${property.id}/charges`, { name: "Hausgeld Nachzahlung", amount: 123.45, due_date: day(-10) });
    await landlord.post(`/properties/${property.id}/charges`, { name: "Gartenpflege", amount: 67.89, due_date: day(2) });
    const boiler = await landlord.post(`/properties/${property.id}/repair-requests`, { title: "Heizung startet nicht", description: "Kein Warmwasser.", category: "heating", urgency: "urgent" });
    await landlord.post(`/properties/${property.id}/repair-requests`, { title: "Tür klemmt", description: "Die Haustür klemmt.", category: "other", urgency: "normal" });
    await landlord.post(`/properties/${property.id}/repair-requests/${boiler.id}/transition`, { to: "triaged" });

    // What the API answers is what the page must show.
    const board = await landlord.get(`/dashboard?locale=${lng}`);
    expect(board.arrears.map((a: { property_name: string; overdue: number }) => [a.property_name, a.overdue])).toEqual([["Lindenhof 7", 123.45]]);
    expect(board.due_this_week.map((c: { name: string; open_amount: number }) => [c.name, c.open_amount])).toEqual([["Gartenpflege", 67.89]]);
    expect([board.open_repairs.total, board.open_repairs.by_status.reported, board.open_repairs.by_status.triaged]).toEqual([2, 1, 1]);
    const money = (n: number) => new Intl.NumberFormat(locales[lng], { style: "currency", currency: "EUR" }).format(n);

    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: locales[lng] });
    const p = await ctx.newPage();
    await p.goto(`${base()}/app?lng=${lng}`);
    await p.getByLabel(w.email).fill(email);
    await p.getByRole("textbox", { name: w.password, exact: true }).fill("Tenancy2026ok");
    await p.getByRole("button", { name: w.signIn }).click();
    await expect(p.getByRole("heading", { name: w.dashboard, level: 1 })).toBeVisible();
    const [dash] = await Promise.all([p.waitForResponse((r) => r.url().includes("/api/v1/dashboard")), p.reload()]);
    expect(dash.status()).toBe(200);

    const arrears = p.getByRole("table", { name: w.arrears });
    await expect(arrears.getByRole("row").nth(1)).toContainText("Lindenhof 7");
    await expect(arrears.getByRole("row").nth(1)).toContainText(money(123.45));
    const week = p.getByRole("table", { name: w.week });
    await expect(week.getByRole("row").nth(1)).toContainText("Gartenpflege");
    await expect(week.getByRole("row").nth(1)).toContainText(money(67.89));
    await expect(p.getByText(lng === "de" ? "2 offen: 1 gemeldet, 1 geprüft" : "2 open: 1 reported, 1 triaged")).toBeVisible();
    await expect(p.getByRole("link", { name: "Heizung startet nicht" })).toHaveAttribute("href", `/app/repairs/${property.id}/${boiler.id}`);
    const bank = board.bank_lines_to_review;
    await expect(p.getByText(lng === "de" ? `${bank.unmatched} ohne Zuordnung` : `${bank.unmatched} without a match`)).toBeVisible();
    for (const wn of board.warnings as { message: string }[]) await expect(p.getByText(wn.message)).toBeVisible();
    await check(p, `${lng}-landlord-dashboard-figures`);

    // Each block's heading is the way to its screen.
    for (const [name, path] of [[w.arrears, "/app/reports"], [w.week, "/app/contracts"], [w.repairs, "/app/repairs"], [w.bank, "/app/bank"]] as const) {
      await expect(p.getByRole("heading", { name, level: 2 }).getByRole("link")).toHaveAttribute("href", path);
    }
    await p.getByRole("heading", { name: w.repairs, level: 2 }).getByRole("link").click();
    await expect(p).toHaveURL(/\/app\/repairs$/);

    // A token the API no longer takes (here: one it never issued), which
    // it also refuses to renew: signed out with a message, and back to
    // the page after signing in again.
    await p.evaluate(() => sessionStorage.setItem("propman.token", "eyJhbGciOiJIUzI1NiJ9.eyJleHAiOjQxMDI0NDQ4MDB9.invalid"));
    await p.goto(`${base()}/app/bank?lng=${lng}`);
    await expect(p).toHaveURL(/\/sign-in\?next=%2Fapp%2Fbank/);
    await expect(p.getByRole("status")).toContainText(w.ended);
    await p.getByLabel(w.email).fill(email);
    await p.getByRole("textbox", { name: w.password, exact: true }).fill("Tenancy2026ok");
    await p.getByRole("button", { name: w.signIn }).click();
    await expect(p).toHaveURL(/\/app\/bank/);
    await ctx.close();
  });
}
