import { expect as baseExpect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { base, check, fromMail, landlordAPI } from "./helpers";

// A lazily loaded page (the reports carry the charts) and the API's
// answers take their time on a shared machine: waits are generous, and
// no duration is asserted.
const expect = baseExpect.configure({ timeout: 30_000 });

// Issue 49, slice 3 (the landlord's office): the bank review queue and the
// reports, in German and English. The landlord's side (two contracts, a
// supplier, a bank account with a saved CSV mapping) is set up through the
// API; in the browser the landlord imports a statement, reads its
// summary, posts a suggestion and an unmatched line, ignores a debit
// (its bill proposal shown), imports the same file again (all
// duplicates), then opens every report and downloads its files. Each
// decision is checked back through the API. Every page passes axe-core
// and is screenshot.

const words = {
  de: {
    email: "E-Mail", password: "Passwort", signIn: "Anmelden", bank: "Bankabgleich", file: "Kontoauszugsdatei", mapping: "CSV-Spaltenzuordnung",
    import: "Importieren", imported: "Kontoauszug importiert (CSV)", lines: "Buchungen", duplicates: "Doppelte übersprungen", posted: "Gebucht",
    suggested: "Vorgeschlagen", unmatched: "Nicht zugeordnet", debits: "Abbuchungen", accept: "Auf den vorgeschlagenen Vertrag buchen",
    postTo: "Auf Vertrag buchen", post: "Buchen", ignore: "Ignorieren", postedBadge: "gebucht", ignoredBadge: "ignoriert",
    weak: "Nur ein schwacher Hinweis auf den Vertrag.", proposal: "Vorgeschlagene Rechnung", reports: "Berichte", arrears: "Rückstände",
    rentRoll: "Mieterliste", income: "Einnahmen", owner: "Eigentümerabrechnung", trial: "Summen- und Saldenliste", tax: "Steuerjahr",
    csv: "CSV herunterladen", xlsx: "Excel herunterladen", pdf: "PDF herunterladen", property: "Objekt", chart: "Einnahmen nach Monat",
    age: "Rückstände nach Alter",
  },
  en: {
    email: "Email", password: "Password", signIn: "Sign in", bank: "Bank review", file: "Statement file", mapping: "CSV column mapping",
    import: "Import", imported: "Statement imported (CSV)", lines: "Lines", duplicates: "Duplicates skipped", posted: "Posted",
    suggested: "Suggested", unmatched: "Unmatched", debits: "Debits", accept: "Post to the suggested contract",
    postTo: "Post to contract", post: "Post", ignore: "Ignore", postedBadge: "posted", ignoredBadge: "ignored",
    weak: "Only a weak sign of the contract.", proposal: "Proposed bill", reports: "Reports", arrears: "Arrears",
    rentRoll: "Rent roll", income: "Income", owner: "Owner statement", trial: "Trial balance", tax: "Tax year",
    csv: "Download CSV", xlsx: "Download Excel", pdf: "Download PDF", property: "Property", chart: "Income by month",
    age: "Arrears by age",
  },
} as const;

const locales = { de: "de-DE", en: "en-GB" } as const;

// The import's figure named `label`, as the summary shows it.
async function figure(p: Page, label: string) {
  return (await p.getByRole("status").getByText(label, { exact: true }).locator("xpath=following-sibling::*[1]").textContent())?.trim();
}

// The file a button saves: the API's response and the saved bytes.
async function save(p: Page, name: string, urlPart: string) {
  const [res, file] = await Promise.all([
    p.waitForResponse((r) => r.url().includes(urlPart) && r.request().headers()["authorization"]?.startsWith("Bearer ") === true),
    p.waitForEvent("download"),
    p.getByRole("button", { name }).click(),
  ]);
  expect(res.status()).toBe(200);
  // The token travels in the header, never in the address.
  expect(res.url()).not.toMatch(/token|Bearer/i);
  return { res, bytes: readFileSync(await file.path()), name: file.suggestedFilename() };
}

for (const lng of ["de", "en"] as const) {
  const w = words[lng];
  test(`${lng}: a landlord reviews the bank and reads the reports`, async ({ browser, request }) => {
    test.setTimeout(300_000);
    const stamp = `${lng}.${Date.now()}`;
    const email = `lea.${stamp}@example.com`;
    const landlord = await landlordAPI(request, email, "Lea Landlord");
    const property = await landlord.post("/properties", { name: "Haus am See 1", address: "Seestr. 1", city: "Berlin", postal_code: "10115", country_code: "DE" });
    const garage = await landlord.post("/properties", { name: "Garage 4", address: "Seestr. 1", city: "Berlin", postal_code: "10115", country_code: "DE" });
    const tina = await landlord.post("/contragents", { kind: "person", roles: ["tenant"], name: "Tina Tenant", email: `tina.${stamp}@example.com` });
    const otto = await landlord.post("/contragents", { kind: "person", roles: ["tenant"], name: "Otto Owens", email: `otto.${stamp}@example.com` });
    await landlord.post("/contragents", { kind: "company", roles: ["provider"], name: "Stadtwerke Berlin", email: `sw.${stamp}@example.com` });
    const start = new Date().toISOString().slice(0, 8) + "01";
    const contract = async (propertyId: string, tenantId: string, number: string, rent: number) => {
      const c = await landlord.post("/contracts", {
        property_id: propertyId, tenant_id: tenantId, number, locale: lng,
        terms: [
          { code: "MONTHLY_RENT_AMOUNT", value: rent },
          { code: "CONTRACT_START_DATE", value: start },
          { code: "PAYMENT_DAY_OF_MONTH", value: 1 },
        ],
      });
      await landlord.post(`/contracts/${c.id}/activate`);
      return c;
    };
    const flat = await contract(property.id, tina.id, `MV-2026-${lng}`, 950);
    const box = await contract(garage.id, otto.id, `GA-7-${lng}`, 80);
    const account = await landlord.post("/bank-accounts", { holder: "Lea Landlord", iban: "DE89 3704 0044 0532 0130 00", label: lng === "de" ? "Mietkonto" : "Rent account" });
    await landlord.post(`/bank-accounts/${account.id}/csv-mappings`, {
      name: "Sparkasse",
      mapping: { delimiter: ";", date_format: "DD.MM.YYYY", decimal_comma: true, date: "Buchungstag", amount: "Betrag", name: "Name", iban: "IBAN", text: "Verwendungszweck" },
    });
    const today = new Date().toISOString().slice(0, 10);
    const day = `${today.slice(8, 10)}.${today.slice(5, 7)}.${today.slice(0, 4)}`;
    const csv = [
      "Buchungstag;Betrag;Name;IBAN;Verwendungszweck",
      `${day};950,00;Tina Tenant;DE02120300000000202051;Miete MV-2026-${lng}`,
      `${day};12,34;Otto Owens;DE02500105170137075030;Miete`,
      `${day};20,00;Max Fremd;DE75512108001245126199;Geschenk`,
      `${day};-50,00;Stadtwerke Berlin;DE12500105170648489890;Strom Abschlag`,
    ].join("\n");

    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: locales[lng] });
    const p = await ctx.newPage();
    await p.goto(`${base()}/app/bank?lng=${lng}`);
    await expect(p).toHaveURL(/\/sign-in\?next=%2Fapp%2Fbank/);
    await p.getByLabel(w.email).fill(email);
    await p.getByRole("textbox", { name: w.password, exact: true }).fill("Tenancy2026ok");
    await p.getByRole("button", { name: w.signIn }).click();
    await expect(p.getByRole("heading", { name: w.bank, level: 1 })).toBeVisible();

    // The import, and its summary.
    await p.getByLabel(w.mapping).selectOption({ label: "Sparkasse" });
    await p.locator('input[type="file"]').setInputFiles({ name: "umsaetze.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await p.getByRole("button", { name: w.import, exact: true }).click();
    await expect(p.getByRole("status")).toContainText(w.imported);
    expect(await Promise.all([w.lines, w.duplicates, w.posted, w.suggested, w.unmatched, w.debits].map((l) => figure(p, l)))).toEqual(["4", "0", "1", "1", "1", "1"]);
    const card = (counterparty: string) => p.getByRole("listitem").filter({ hasText: counterparty });
    await expect(card("Otto Owens")).toContainText(w.weak);
    await expect(card("Otto Owens")).toContainText(`GA-7-${lng}`);
    await expect(card("Stadtwerke Berlin")).toContainText(w.proposal);
    await check(p, `${lng}-office-bank`);

    // The suggestion posted to its contract; the unmatched line to Tina's;
    // the debit ignored.
    await card("Otto Owens").getByRole("button", { name: w.accept }).click();
    await expect(card("Otto Owens").getByText(w.postedBadge, { exact: true })).toBeVisible();
    await card("Max Fremd").getByLabel(w.postTo).selectOption({ label: `MV-2026-${lng}` });
    await card("Max Fremd").getByRole("button", { name: w.post, exact: true }).click();
    await expect(card("Max Fremd").getByText(w.postedBadge, { exact: true })).toBeVisible();
    await card("Stadtwerke Berlin").getByRole("button", { name: w.ignore }).click();
    await expect(card("Stadtwerke Berlin").getByText(w.ignoredBadge, { exact: true })).toBeVisible();
    const { bank_lines: lines } = await landlord.get(`/bank-lines?bank_account_id=${account.id}`);
    const state = Object.fromEntries(lines.map((l: { counterparty_name: string; status: string; contract_id: string | null }) => [l.counterparty_name, [l.status, l.contract_id]]));
    expect(state).toEqual({
      "Tina Tenant": ["posted", flat.id],
      "Otto Owens": ["posted", box.id],
      "Max Fremd": ["posted", flat.id],
      "Stadtwerke Berlin": ["ignored", null],
    });

    // The same file again: every line a duplicate.
    await p.locator('input[type="file"]').setInputFiles({ name: "umsaetze.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await p.getByRole("button", { name: w.import, exact: true }).click();
    await expect.poll(() => figure(p, w.duplicates)).toBe("4");
    await check(p, `${lng}-office-bank-decided`);

    // The reports.
    await p.getByRole("link", { name: w.reports }).click();
    await expect(p.getByRole("heading", { name: w.reports, level: 1 })).toBeVisible();
    await expect(p.getByRole("heading", { name: w.arrears, level: 2 })).toBeVisible();
    await check(p, `${lng}-office-reports-arrears`);
    const arrears = await save(p, w.csv, "/reports/arrears");
    expect(arrears.res.headers()["content-type"]).toContain("text/csv");
    expect(arrears.name).toMatch(/\.csv$/);

    await p.getByRole("tab", { name: w.rentRoll }).click();
    await expect(p.getByRole("cell", { name: `Tina Tenant (MV-2026-${lng})` })).toBeVisible();
    await check(p, `${lng}-office-reports-rent-roll`);
    const roll = await save(p, w.xlsx, "/reports/rent-roll");
    expect(roll.bytes.subarray(0, 2).toString()).toBe("PK");

    await p.getByRole("tab", { name: w.income }).click();
    await expect(p.getByText(new RegExp(`^${w.chart}`))).toBeVisible();
    // The collected column is the API's, in the reader's format.
    const income = await landlord.get(`/reports/income`);
    const money = (n: number) => new Intl.NumberFormat(locales[lng], { style: "currency", currency: "EUR" }).format(n);
    await expect(p.locator("tfoot")).toContainText(money(income.totals[0].collected));
    await check(p, `${lng}-office-reports-income`);

    await p.getByRole("tab", { name: w.owner }).click();
    await p.getByLabel(w.property).selectOption({ label: "Haus am See 1" });
    const owner = await save(p, w.pdf, "/reports/owner-statement");
    expect(owner.bytes.subarray(0, 5).toString()).toBe("%PDF-");
    await check(p, `${lng}-office-reports-owner`);

    await p.getByRole("tab", { name: w.trial }).click();
    await expect(p.getByRole("heading", { name: w.trial, level: 2 })).toBeVisible();
    await check(p, `${lng}-office-reports-trial-balance`);

    await p.getByRole("tab", { name: w.tax }).click();
    await expect(p.getByRole("heading", { name: w.tax, level: 2 })).toBeVisible();
    await check(p, `${lng}-office-reports-tax-year`);
    const tax = await save(p, w.pdf, "/reports/tax-year");
    expect(tax.bytes.subarray(0, 5).toString()).toBe("%PDF-");
    await ctx.close();
  });
}

const opWords = {
  de: {
    email: "E-Mail", password: "Passwort", signIn: "Anmelden", title: "Betriebskostenabrechnungen", compute: "Berechnen", draft: "Entwurf",
    post: "Buchen", posted: "gebucht", send: "An die Mieter senden", sent: "An alle Mieter gesendet.", letter: "Schreiben (PDF)",
    confirm: "Neue Vorauszahlung bestätigen", applied: "Neue Vorauszahlung gilt ab", waste: "Müllbeseitigung", due: "Nachzahlung",
  },
  en: {
    email: "Email", password: "Password", signIn: "Sign in", title: "Operating-cost statements", compute: "Compute", draft: "draft",
    post: "Post", posted: "posted", send: "Send to the tenants", sent: "Sent to every tenant.", letter: "Letter (PDF)",
    confirm: "Confirm the new prepayment", applied: "New prepayment applies from", waste: "Waste collection", due: "Balance due",
  },
} as const;

for (const lng of ["de", "en"] as const) {
  const w = opWords[lng];
  test(`${lng}: a landlord draws up, posts and sends an operating-cost statement`, async ({ browser, request }) => {
    test.setTimeout(300_000);
    const stamp = `${lng}.${Date.now()}`;
    const email = `ole.${stamp}@example.com`;
    const landlord = await landlordAPI(request, email, "Ole Owner");
    const year = new Date().getUTCFullYear() - 1;
    const building = await landlord.post("/buildings", { name: `Lindenstraße 5 (${lng})`, address: "Lindenstraße 5", postal_code: "10969", city: "Berlin", country_code: "DE" });
    const flat = await landlord.post("/properties", { name: "WE 1", country_code: "DE", living_area: 80 });
    const put = await request.put(`${base()}/api/v1/buildings/${building.id}/units/${flat.id}`, { headers: landlord.auth, data: { share: 100 } });
    expect(put.status(), await put.text()).toBe(200);
    const tenant = await landlord.post("/contragents", { kind: "person", roles: ["tenant"], name: "Tom Tenant" });
    const contract = await landlord.post("/contracts", {
      property_id: flat.id, tenant_id: tenant.id, number: `A-1-${lng}`, locale: lng,
      terms: [
        { code: "MONTHLY_RENT_AMOUNT", value: 500 },
        { code: "CONTRACT_START_DATE", value: `${year}-01-01` },
        { code: "UTILITY_PREPAYMENT_AMOUNT", value: 50 },
        { code: "PAYMENT_DAY_OF_MONTH", value: 1 },
      ],
    });
    await landlord.post(`/contracts/${contract.id}/activate`);
    const supplier = await landlord.post("/contragents", { kind: "company", roles: ["provider"], name: "BSR" });
    await landlord.post(`/properties/${flat.id}/bills`, {
      supplier_id: supplier.id, bill_date: `${year}-06-30`, amount: 1200, category: "operating", operating_cost_category: "waste", allocable: true,
    });

    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: locales[lng] });
    const p = await ctx.newPage();
    await p.goto(`${base()}/sign-in?next=%2Fapp%2Fopcosts&lng=${lng}`);
    await p.getByLabel(w.email).fill(email);
    await p.getByRole("textbox", { name: w.password, exact: true }).fill("Tenancy2026ok");
    await p.getByRole("button", { name: w.signIn }).click();
    await expect(p.getByRole("heading", { name: w.title, level: 1 })).toBeVisible();
    await expect(p.getByRole("link", { name: building.name })).toBeVisible();
    await check(p, `${lng}-office-opcosts`);

    await p.getByRole("link", { name: building.name }).click();
    await p.getByRole("button", { name: w.compute, exact: true }).click();
    const card = p.getByRole("region").filter({ hasText: w.waste });
    await expect(card.getByText(w.draft, { exact: true })).toBeVisible();
    const [drawn] = (await landlord.get(`/buildings/${building.id}/opcost-statements`)).statements;
    const line = drawn.contracts[0];
    const money = (n: number) => new Intl.NumberFormat(locales[lng], { style: "currency", currency: "EUR" }).format(n);
    await expect(card.getByRole("row", { name: w.due })).toContainText(money(Math.abs(line.result)));
    await check(p, `${lng}-office-opcosts-draft`);

    await card.getByRole("button", { name: w.post, exact: true }).click();
    await expect(card.getByText(w.posted, { exact: true })).toBeVisible();
    await card.getByRole("button", { name: w.send }).click();
    await expect(card.getByText(w.sent)).toBeVisible();
    const [pdf, file] = await Promise.all([p.waitForResponse((r) => r.url().endsWith("/pdf")), p.waitForEvent("download"), card.getByRole("button", { name: w.letter }).click()]);
    expect(pdf.status()).toBe(200);
    expect(readFileSync(await file.path()).subarray(0, 5).toString()).toBe("%PDF-");
    await card.getByRole("button", { name: w.confirm }).click();
    await expect(card.getByText(w.applied)).toBeVisible();
    const after = await landlord.get(`/buildings/${building.id}/opcost-statements/${drawn.id}`);
    expect([after.status, after.contracts[0].message_id !== null, after.contracts[0].proposal_applied_from !== null]).toEqual(["posted", true, true]);
    await check(p, `${lng}-office-opcosts-posted`);
    await ctx.close();
  });
}

const repWords = {
  de: {
    email: "E-Mail", password: "Passwort", signIn: "Anmelden", title: "Reparaturen", reported: "gemeldet", triage: "Zur Reparatur annehmen",
    provider: "Handwerker", order: "Auftrag senden", invoice: "Rechnung:", close: "Meldung abschließen", closed: "abgeschlossen",
    charge: "Dem Mieter berechnen", charged: "Dem Mieter berechnet:", repair: "Küchenarmatur tropft",
  },
  en: {
    email: "Email", password: "Password", signIn: "Sign in", title: "Repairs", reported: "reported", triage: "Accept for repair",
    provider: "Service provider", order: "Send the work order", invoice: "Invoice:", close: "Close the request", closed: "closed",
    charge: "Charge the tenant", charged: "Charged to the tenant:", repair: "Kitchen tap drips",
  },
} as const;

for (const lng of ["de", "en"] as const) {
  const w = repWords[lng];
  test(`${lng}: a landlord takes a repair from report to order`, async ({ browser, request }) => {
    test.setTimeout(300_000);
    const stamp = `${lng}.${Date.now()}`;
    const email = `rita.${stamp}@example.com`;
    const landlord = await landlordAPI(request, email, "Rita Landlord");
    const property = await landlord.post("/properties", { name: "Flat 7", address: "Hauptstr. 7", city: "Berlin", postal_code: "10115", country_code: "DE" });
    const tenant = await landlord.post("/contragents", { kind: "person", roles: ["tenant"], name: "Tim Tenant" });
    const contract = await landlord.post("/contracts", {
      property_id: property.id, tenant_id: tenant.id, number: `R-1-${lng}`, locale: lng,
      terms: [
        { code: "MONTHLY_RENT_AMOUNT", value: 700 },
        { code: "CONTRACT_START_DATE", value: new Date().toISOString().slice(0, 8) + "01" },
        { code: "PAYMENT_DAY_OF_MONTH", value: 3 },
        { code: "DE_KLEINREPARATUREN_LIMIT", value: 100 },
        { code: "DE_KLEINREPARATUREN_YEARLY_CAP", value: 150 },
      ],
    });
    await landlord.post(`/contracts/${contract.id}/activate`);
    const providerEmail = `fix.${stamp}@example.com`;
    await landlord.post("/contragents", { kind: "company", roles: ["provider"], name: "Fix & Co", email: providerEmail });
    const repair = await landlord.post(`/properties/${property.id}/repair-requests`, { title: w.repair, description: lng === "de" ? "Sie tropft auch, wenn sie zu ist." : "It drips even when closed.", category: "plumbing", urgency: "normal", contract_id: contract.id });

    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: locales[lng] });
    const p = await ctx.newPage();
    await p.goto(`${base()}/sign-in?next=%2Fapp%2Frepairs&lng=${lng}`);
    await p.getByLabel(w.email).fill(email);
    await p.getByRole("textbox", { name: w.password, exact: true }).fill("Tenancy2026ok");
    await p.getByRole("button", { name: w.signIn }).click();
    await expect(p.getByRole("heading", { name: w.title, level: 1 })).toBeVisible();
    await expect(p.getByRole("heading", { name: new RegExp(`^${w.reported} \\(1\\)`, "i"), level: 3 })).toBeVisible();
    await check(p, `${lng}-office-repairs`, [p.getByRole("listitem").locator("p")]);

    await p.getByRole("link", { name: w.repair }).first().click();
    await expect(p.getByRole("heading", { name: w.repair, level: 1 })).toBeVisible();
    await p.getByRole("button", { name: w.triage }).click();
    await p.getByLabel(w.provider).selectOption({ label: "Fix & Co" });
    await p.getByRole("button", { name: w.order }).click();
    await expect(p.getByText("Fix & Co")).toBeVisible();
    // The provider accepts through the work order's link; marking it done
    // needs a visit the tenant booked (a tenant account: portal.spec walks
    // that), so the invoice, the recharge and the close are not walked here.
    const token = await fromMail(providerEmail, /\/work-orders\/([A-Za-z0-9_-]+)/);
    const res = await request.post(`${base()}/api/v1/work-orders/${token}/accept`, { data: {} });
    expect(res.status(), await res.text()).toBeLessThan(300);
    await p.reload();
    await expect(p.getByText("Fix & Co")).toBeVisible();
    const after = await landlord.get(`/properties/${property.id}/repair-requests/${repair.id}`);
    expect([after.status, after.work_order?.status]).toEqual(["ordered", "accepted"]);
    await check(p, `${lng}-office-repair`, [p.getByText(/\d{1,2}:\d{2}/)]);
    await ctx.close();
  });
}
