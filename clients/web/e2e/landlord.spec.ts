import { expect as baseExpect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { base, check, code, landlordAPI } from "./helpers";

// Issue 49, slice 3: the landlord's daily work through its screens, in
// German and English. A landlord registers and lands on the dashboard,
// adds a property, a tenant and a contract (from the agreement blocks),
// activates it, bills, records a payment and downloads its receipt (a PDF
// under the server's name); each step is checked back through the API.
// Then buildings with the CSV import of units (the dry run, its per-line
// errors, the import) and the tenants' CSV import, and the shell on a
// phone. Every page passes axe-core and is screenshot.

const words = {
  de: {
    register: "Registrieren", name: "Ihr Name", email: "E-Mail", sendCode: "Code senden", code: "Code aus der E-Mail", password: "Passwort", create: "Konto anlegen",
    dashboard: "Übersicht", properties: "Objekte", newProperty: "Neues Objekt", propName: "Bezeichnung", street: "Straße und Hausnummer", postal: "Postleitzahl", city: "Ort", country: "Land",
    save: "Speichern", tenants: "Mieter", newTenant: "Neuer Mieter", tenantName: "Name", tenantEmail: "E-Mail",
    newContract: "Neuer Mietvertrag", property: "Objekt", number: "Vertragsnummer", rent: "Monatliche Miete", deposit: "Kaution (Monatsmieten)", saveDraft: "Entwurf speichern",
    contract: "Mietvertrag", activate: "Aktivieren", sign: "Unterschreiben und aktivieren", active: "laufend", bill: "Fälliges abrechnen", billed: "Erstellte Forderungen:",
    record: "Zahlung erfassen", amount: "Betrag", reference: "Verwendungszweck", book: "Zahlung buchen", payments: "Zahlungen", receipts: "Quittungen", charges: "Forderungen",
    receipt: "Quittung", outstanding: "Noch zu zahlen", arrears: "Wer schuldet", draft: "Entwurf",
    buildings: "Gebäude", newBuilding: "Neues Gebäude", importUnits: "Einheiten importieren (CSV)", csv: "CSV-Datei", dryRun: "Datei prüfen", importRun: "Importieren",
    lineErrors: "Zeilen, die die API abgelehnt hat", would: "Die Datei würde 2 Einheiten hinzufügen, 0 ändern und 0 unverändert lassen.", imported: "Importiert: 2 hinzugefügt, 0 geändert, 0 unverändert.",
    importTenants: "Mieter importieren (CSV)", added: "Angelegt: 2.", menu: "Menü öffnen",
  },
  en: {
    register: "Register", name: "Your name", email: "Email", sendCode: "Send the code", code: "Code from the mail", password: "Password", create: "Create the account",
    dashboard: "Overview", properties: "Properties", newProperty: "New property", propName: "Name", street: "Street and number", postal: "Postal code", city: "City", country: "Country",
    save: "Save", tenants: "Tenants", newTenant: "New tenant", tenantName: "Name", tenantEmail: "Email",
    newContract: "New contract", property: "Property", number: "Contract number", rent: "Monthly rent amount", deposit: "Security deposit (months of rent)", saveDraft: "Save the draft",
    contract: "Contract", activate: "Activate", sign: "Sign and activate", active: "active", bill: "Bill what is due", billed: "Charges made:",
    record: "Record a payment", amount: "Amount", reference: "Reference", book: "Record the payment", payments: "Payments", receipts: "Receipts", charges: "Charges",
    receipt: "Receipt", outstanding: "Still to pay", arrears: "Who owes", draft: "draft",
    buildings: "Buildings", newBuilding: "New building", importUnits: "Import units (CSV)", csv: "CSV file", dryRun: "Check the file", importRun: "Import",
    lineErrors: "Lines the API refused", would: "The file would add 2, change 0 and leave 0 units as they are.", imported: "Imported: 2 added, 0 changed, 0 unchanged.",
    importTenants: "Import tenants (CSV)", added: "Added: 2.", menu: "Open the menu",
  },
} as const;

const locales = { de: "de-DE", en: "en-GB" } as const;

// Each step waits for the API's answers; on a busy shared machine a page
// may take longer than the default 5 s.
const expect = baseExpect.configure({ timeout: 20_000 });

async function nav(page: Page, name: string) {
  await page.getByRole("navigation").getByRole("link", { name, exact: true }).click();
}

for (const lng of ["de", "en"] as const) {
  const w = words[lng];
  test(`${lng}: a landlord registers, adds a property, a tenant and a contract, bills, records a payment and downloads the receipt`, async ({ browser, request }) => {
    test.setTimeout(400_000);
    const stamp = `${lng}.${Date.now()}`;
    const email = `lotte.${stamp}@example.com`;
    const password = "Tenancy2026ok";
    const desk = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: locales[lng] });
    const page = await desk.newPage();

    // Registration ends on the dashboard.
    await page.goto(`${base()}/?lng=${lng}`);
    await page.getByRole("link", { name: w.register }).click();
    await page.getByLabel(w.name).fill("Lotte Landlord");
    await page.getByLabel(w.email).fill(email);
    await page.getByRole("button", { name: w.sendCode }).click();
    await page.getByLabel(w.code).fill(await code(email));
    await page.getByRole("textbox", { name: w.password, exact: true }).fill(password);
    await page.getByRole("button", { name: w.create }).click();
    await expect(page).toHaveURL(/\/app$/);
    await expect(page.getByRole("heading", { name: w.dashboard, level: 1 })).toBeVisible();
    await check(page, `${lng}-landlord-dashboard-empty`);
    const token = (await page.evaluate(() => sessionStorage.getItem("propman.token")))!;
    const api = async (path: string) => {
      const res = await request.get(`${base()}/api/v1${path}`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status(), path).toBe(200);
      return res.json();
    };

    // A property.
    await nav(page, w.properties);
    await page.getByRole("link", { name: w.newProperty }).click();
    const flat = lng === "de" ? "Wohnung 2, Lindenstr. 7" : "Flat 2, 7 Linden Street";
    await page.getByLabel(w.propName).fill(flat);
    await page.getByLabel(w.street).fill("Lindenstr. 7");
    await page.getByLabel(w.postal).fill("10969");
    await page.getByLabel(w.city).fill("Berlin");
    await page.getByLabel(w.country).selectOption("DE");
    await check(page, `${lng}-landlord-property-new`);
    await page.getByRole("button", { name: w.save }).click();
    await expect(page.getByRole("heading", { name: flat, level: 1 })).toBeVisible();
    await check(page, `${lng}-landlord-property`);
    const props = await api("/properties");
    expect(props.properties.map((p: { name: string; city: string; country_code: string }) => [p.name, p.city, p.country_code])).toEqual([[flat, "Berlin", "DE"]]);
    await nav(page, w.properties);
    await expect(page.getByRole("link", { name: flat })).toBeVisible();
    await check(page, `${lng}-landlord-properties`);

    // A tenant.
    await nav(page, w.tenants);
    await page.getByRole("link", { name: w.newTenant }).click();
    await page.getByLabel(w.tenantName).fill("Theo Tenant");
    await page.getByLabel(w.tenantEmail).fill(`theo.${stamp}@example.com`);
    await check(page, `${lng}-landlord-tenant-new`);
    await page.getByRole("button", { name: w.save }).click();
    await expect(page.getByRole("heading", { name: "Theo Tenant", level: 1 })).toBeVisible();
    await check(page, `${lng}-landlord-tenant`);

    // A contract from the tenant's page, from the blocks of Germany.
    await page.getByRole("link", { name: w.newContract }).click();
    await page.getByLabel(w.property).selectOption({ label: flat });
    await page.getByLabel(w.number).fill(`2026/${lng}-7`);
    await page.getByLabel(w.rent).fill(lng === "de" ? "950,00" : "950.00");
    await page.getByLabel(w.deposit).fill("2");
    await check(page, `${lng}-landlord-contract-new`);
    await page.getByRole("button", { name: w.saveDraft }).click();
    await expect(page.getByRole("heading", { name: `${w.contract} 2026/${lng}-7`, level: 1 })).toBeVisible();
    await expect(page.getByText(w.draft, { exact: true })).toBeVisible();

    // Activation shows the terms and what each means before signing.
    await page.getByRole("button", { name: w.activate, exact: true }).click();
    await expect(page.getByRole("dialog")).toContainText(w.rent);
    await check(page, `${lng}-landlord-contract-activate`);
    await page.getByRole("button", { name: w.sign }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(page.getByText(w.active, { exact: true })).toBeVisible();
    const contracts = await api("/contracts");
    const contract = contracts.contracts[0];
    expect([contract.number, contract.status, contract.rent, contract.deposit]).toEqual([`2026/${lng}-7`, "active", 950, 1900]);

    // Billing: activation billed what was due; billing again makes nothing new.
    await page.getByRole("tab", { name: w.charges }).click();
    await page.getByRole("button", { name: w.bill }).click();
    await expect(page.getByRole("status")).toContainText(w.billed);
    const money = (n: number) => new Intl.NumberFormat(locales[lng], { style: "currency", currency: "EUR" }).format(n);
    const balance = await api(`/properties/${contract.property_id}/balance?contract_id=${contract.id}`);
    await expect(page.getByText(w.outstanding, { exact: true }).locator("..")).toContainText(money(balance.outstanding));
    await check(page, `${lng}-landlord-contract`);

    // A payment of a month's rent.
    await page.getByRole("button", { name: w.record }).click();
    await page.getByRole("dialog").getByLabel(w.amount).fill(lng === "de" ? "950,00" : "950.00");
    await page.getByRole("dialog").getByLabel(w.reference).fill("Miete");
    await check(page, `${lng}-landlord-payment`);
    await page.getByRole("button", { name: w.book }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    const after = await api(`/properties/${contract.property_id}/balance?contract_id=${contract.id}`);
    expect(after.paid).toBe(950);
    await expect(page.getByText(w.outstanding, { exact: true }).locator("..")).toContainText(money(after.outstanding));
    await page.getByRole("tab", { name: w.payments }).click();
    await expect(page.getByRole("cell", { name: money(950) }).first()).toBeVisible();
    await check(page, `${lng}-landlord-contract-payments`);
    const payments = await api(`/properties/${contract.property_id}/payments?contract_id=${contract.id}`);
    expect(payments.payments.map((p: { amount: number; status: string; reference: string }) => [p.amount, p.status, p.reference])).toEqual([[950, "posted", "Miete"]]);

    // Its receipt, as a PDF under the server's name.
    await page.getByRole("tab", { name: w.receipts }).click();
    await expect(page.getByText(new RegExp(`^${w.receipt} \\d{4}-\\d{6}$`))).toBeVisible();
    await check(page, `${lng}-landlord-contract-receipts`);
    const [pdf, file] = await Promise.all([
      page.waitForResponse((r) => r.url().includes("/print-forms/receipts/")),
      page.waitForEvent("download"),
      page.getByRole("button", { name: /PDF/ }).first().click(),
    ]);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
    expect(pdf.request().url()).not.toContain(token);
    expect(readFileSync(await file.path()).subarray(0, 5).toString()).toBe("%PDF-");
    expect(file.suggestedFilename()).toMatch(/^[\w.-]+\.pdf$/);
    const disposition = pdf.headers()["content-disposition"] ?? "";
    expect(disposition).toContain(file.suggestedFilename());

    await page.getByRole("tab", { name: w.charges }).click();
    await check(page, `${lng}-landlord-contract-charges`);

    // The dashboard: the deposit still owed, as the arrears report says.
    await nav(page, w.dashboard);
    await expect(page.getByRole("heading", { name: w.arrears })).toBeVisible();
    await check(page, `${lng}-landlord-dashboard`);
    await desk.close();
  });

  test(`${lng}: buildings, the units' CSV import with its dry run, the tenants' import, the shell on a phone`, async ({ browser, request }) => {
    test.setTimeout(300_000);
    const stamp = `${lng}.${Date.now()}`;
    const landlord = await landlordAPI(request, `bea.${stamp}@example.com`, "Bea Building");
    for (const name of ["WE 1", "WE 2"]) await landlord.post("/properties", { name, city: "Berlin", postal_code: "10115", country_code: "DE" });
    const desk = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: locales[lng] });
    await desk.addInitScript((t) => sessionStorage.setItem("propman.token", t), landlord.token);
    const page = await desk.newPage();
    await page.goto(`${base()}/app/buildings?lng=${lng}`);
    await page.getByRole("button", { name: w.newBuilding }).click();
    await page.getByRole("dialog").getByLabel(w.propName).fill("Hauptstr. 1");
    await page.getByRole("dialog").getByRole("button", { name: w.save }).click();
    await page.getByRole("link", { name: "Hauptstr. 1" }).click();
    await expect(page.getByRole("heading", { name: "Hauptstr. 1", level: 1 })).toBeVisible();

    // A bad file: every line's error, nothing written.
    await page.getByRole("button", { name: w.importUnits }).click();
    const upload = (body: string) => page.getByRole("dialog").locator('input[type="file"]').setInputFiles({ name: "units.csv", mimeType: "text/csv", buffer: Buffer.from(body) });
    await upload("Einheit;Wohnfläche;Zimmer\nWE 1;-5;2\n");
    await page.getByRole("button", { name: w.dryRun }).click();
    await expect(page.getByRole("alert")).toContainText(w.lineErrors);
    await expect(page.getByRole("alert")).toContainText("line 2");
    await check(page, `${lng}-landlord-units-import-errors`);
    // A good one: the dry run's lines, then the import.
    await upload("Einheit;Wohnfläche;Zimmer;Etage\nWE 1;54,5;2;0\nWE 2;71;3;1\n");
    await page.getByRole("button", { name: w.dryRun }).click();
    await expect(page.getByRole("status")).toContainText(w.would);
    await check(page, `${lng}-landlord-units-import-dry-run`);
    await page.getByRole("button", { name: w.importRun, exact: true }).click();
    await expect(page.getByRole("status")).toContainText(w.imported);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("link", { name: "WE 2" })).toBeVisible();
    await check(page, `${lng}-landlord-building`);
    const buildings = await landlord.get("/buildings");
    const units = await landlord.get(`/buildings/${buildings.buildings[0].id}/units`);
    expect(units.units.map((u: { name: string; living_area: number; rooms: number }) => [u.name, u.living_area, u.rooms]).sort()).toEqual([["WE 1", 54.5, 2], ["WE 2", 71, 3]]);

    // The tenants' import: all lines or none.
    await nav(page, w.tenants);
    await page.getByRole("button", { name: w.importTenants }).click();
    await page.getByRole("dialog").locator('input[type="file"]').setInputFiles({ name: "tenants.csv", mimeType: "text/csv", buffer: Buffer.from("name,kind,roles,email\nAnna Alt,person,tenant,anna@example.com\nBen Bau,person,tenant,ben@example.com\n") });
    await page.getByRole("button", { name: w.importRun, exact: true }).click();
    await expect(page.getByRole("status")).toHaveText(w.added);
    await page.keyboard.press("Escape");
    await expect(page.getByRole("link", { name: "Ben Bau" })).toBeVisible();
    await check(page, `${lng}-landlord-tenants`);
    await desk.close();

    // On a phone the navigation folds into the menu button.
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, locale: locales[lng] });
    await phone.addInitScript((t) => sessionStorage.setItem("propman.token", t), landlord.token);
    const p = await phone.newPage();
    await p.goto(`${base()}/app?lng=${lng}`);
    await expect(p.getByRole("heading", { name: w.dashboard, level: 1 })).toBeVisible();
    // Folded, the side bar is moved out of the screen.
    await expect(p.getByRole("navigation").getByRole("link", { name: w.tenants })).not.toBeInViewport();
    await p.getByRole("button", { name: w.menu }).click();
    await expect(p.getByRole("navigation").getByRole("link", { name: w.tenants })).toBeInViewport();
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await check(p, `${lng}-landlord-phone-menu`);
    await phone.close();
  });
}
