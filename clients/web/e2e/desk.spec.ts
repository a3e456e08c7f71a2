import { expect as baseExpect, test, type Page } from "@playwright/test";
import { base, check, fromMail, landlordAPI } from "./helpers";

// Issue 49, slice 4 (the landlord's desk), in German and English: a bill
// recorded in the browser (a new supplier added from the form, the amount
// typed as the language writes it) and seen in the list, in the trial
// balance and in its account's movements; the tax year opened; the
// calendar: an event added and seen in the month's agenda, the iCal
// feed's address made; the team: a member invited (the mail sent);
// letting: a listing drafted and published, an application shortlisted;
// the settings: a notice switched off. Each change is checked back through
// the API; the books are also opened on a 375 px phone without the page
// growing sideways. Every page passes axe-core and is screenshot.

const expect = baseExpect.configure({ timeout: 30_000 });

const words = {
  de: {
    email: "E-Mail", password: "Passwort", signIn: "Anmelden", books: "Buchhaltung", newBill: "Neue Rechnung", property: "Objekt", newSupplier: "Oder Name eines neuen Lieferanten",
    addSupplier: "Lieferant anlegen", supplier: "Lieferant", date: "Rechnungsdatum", amount: "Betrag", vatRate: "USt.-Satz (%)", category: "Kategorie", repairs: "Instandhaltung und Reparaturen",
    paidOn: "Bezahlt am", save: "Speichern", typed: "1.190,00", shown: /1\.190,00\s€/, trial: "Summen- und Saldenliste", expense: "Aufwand", bill: "Rechnung", tax: "Steuerjahr", year: "Jahr",
    calendar: "Kalender", newEvent: "Neuer Termin", title: "Titel", kind: "Art", viewing: "Besichtigung", day: "Tag", feedMake: "Abo-Adresse erzeugen", feedUrl: "Abo-Adresse",
    team: "Team", invite: "Einladen", role: "Rolle", accountant: "Buchhalter", pending: "offen", settings: "Einstellungen", receipts: "Quittungen für Zahlungen", saved: "Gespeichert.",
    movements: "Die Buchungen des Kontos, älteste zuerst", letting: "Vermietung", newListing: "Neues Inserat", listing: "Inserat", rent: "Monatliche Miete", saveDraft: "Entwurf speichern", publish: "Veröffentlichen", published: "veröffentlicht",
    shortlist: "Vormerken", shortlisted: "vorgemerkt", rentTyped: "990,50",
    notices: "Mitteilungen an Mieter", members: "Mitglieder", menu: "Menü öffnen", noBills: "Noch keine Rechnungen.",
  },
  en: {
    email: "Email", password: "Password", signIn: "Sign in", books: "Books", newBill: "New bill", property: "Property", newSupplier: "Or a new supplier's name",
    addSupplier: "Add supplier", supplier: "Supplier", date: "Bill date", amount: "Amount", vatRate: "VAT rate (%)", category: "Category", repairs: "Repairs and maintenance",
    paidOn: "Paid on", save: "Save", typed: "1,190.00", shown: /€1,190\.00/, trial: "Trial balance", expense: "expense", bill: "bill", tax: "Tax year", year: "Year",
    calendar: "Calendar", newEvent: "New event", title: "Title", kind: "Kind", viewing: "viewing", day: "Day", feedMake: "Make a feed address", feedUrl: "Feed address",
    team: "Team", invite: "Invite", role: "Role", accountant: "Accountant", pending: "pending", settings: "Settings", receipts: "Receipts for payments", saved: "Saved.",
    movements: "The account's movements, oldest first", letting: "Letting", newListing: "New listing", listing: "Listing", rent: "Monthly rent", saveDraft: "Save the draft", publish: "Publish", published: "published",
    shortlist: "Shortlist", shortlisted: "shortlisted", rentTyped: "990.50",
    notices: "Notices to tenants", members: "Members", menu: "Open the menu", noBills: "No bills yet.",
  },
} as const;

const locales = { de: "de-DE", en: "en-GB" } as const;

async function nav(page: Page, name: string) {
  await page.getByRole("navigation").getByRole("link", { name, exact: true }).click();
}

for (const lng of ["de", "en"] as const) {
  const w = words[lng];
  test(`${lng}: a landlord records a bill, reads the trial balance and the tax year, adds an event, invites a member, publishes a listing`, async ({ browser, request }) => {
    test.setTimeout(300_000);
    const stamp = `${lng}.${Date.now()}`;
    const email = `dora.${stamp}@example.com`;
    const landlord = await landlordAPI(request, email, "Dora Desk");
    const property = await landlord.post("/properties", { name: "Haus am See 1", address: "Seestr. 1", city: "Berlin", postal_code: "10115", country_code: "DE" });
    const today = new Date().toISOString().slice(0, 10);

    const ctx = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: locales[lng] });
    const p = await ctx.newPage();
    await p.goto(`${base()}/app/books?lng=${lng}`);
    await expect(p).toHaveURL(/\/sign-in\?next=%2Fapp%2Fbooks/);
    await p.getByLabel(w.email).fill(email);
    await p.getByRole("textbox", { name: w.password, exact: true }).fill("Tenancy2026ok");
    await p.getByRole("button", { name: w.signIn }).click();
    await expect(p.getByRole("heading", { name: w.books, level: 1 })).toBeVisible();
    await expect(p.getByText(w.noBills)).toBeVisible();
    await check(p, `${lng}-desk-bills-empty`);

    // A bill, paid today, of a supplier added from the form.
    await p.getByRole("button", { name: w.newBill }).click();
    const form = p.getByRole("dialog");
    await form.getByRole("combobox", { name: w.property }).selectOption({ label: "Haus am See 1" });
    await form.getByLabel(w.newSupplier).fill("Dachdecker Müller");
    await form.getByRole("button", { name: w.addSupplier }).click();
    await expect(form.getByRole("combobox", { name: w.supplier })).toHaveValue(/[0-9a-f-]{36}/);
    await form.getByLabel(w.date).fill(today);
    await form.getByLabel(w.amount).fill(w.typed);
    await form.getByLabel(w.vatRate).fill("19");
    await form.getByRole("combobox", { name: w.category }).selectOption({ label: w.repairs });
    await form.getByLabel(w.paidOn).fill(today);
    await check(p, `${lng}-desk-bill-form`);
    await form.getByRole("button", { name: w.save }).click();
    await expect(form).toBeHidden();
    const row = p.getByRole("row").filter({ hasText: "Dachdecker Müller" });
    await expect(row).toContainText(w.shown);
    await expect(row).toContainText("Haus am See 1");
    await check(p, `${lng}-desk-bills`);
    const { bills } = await landlord.get("/bills");
    expect(bills.map((b: { amount: number; vat_rate: number; category: string; property_id: string; paid_on: string }) => [b.amount, b.vat_rate, b.category, b.property_id, b.paid_on])).toEqual([
      [1190, 19, "repairs", property.id, today],
    ]);

    // The trial balance has it; its expense account's movements show the bill.
    await p.getByRole("tab", { name: w.trial }).click();
    const expenseRow = p.getByRole("row").filter({ hasText: w.expense }).filter({ hasText: w.shown });
    await expect(expenseRow).toHaveCount(1);
    await check(p, `${lng}-desk-trial`);
    await expenseRow.getByRole("link").click();
    await expect(p).toHaveURL(/\/app\/books\/accounts\//);
    await expect(p.getByRole("table", { name: w.movements }).getByRole("row").filter({ hasText: w.shown })).toContainText(w.bill);
    await check(p, `${lng}-desk-account`);
    await p.goBack();

    // The tax year of this year (cash basis: the bill was paid today).
    await p.getByRole("tab", { name: w.tax }).click();
    await p.getByRole("textbox", { name: w.year, exact: true }).fill(today.slice(0, 4));
    await expect(p.getByRole("heading", { name: "Haus am See 1", level: 3 })).toBeVisible();
    await expect(p.getByRole("table").first().getByRole("row").nth(1)).toBeVisible();
    await check(p, `${lng}-desk-tax`);

    // The calendar: an event today, in the month's agenda; the feed's address.
    await nav(p, w.calendar);
    await expect(p.getByRole("heading", { name: w.calendar, level: 1 })).toBeVisible();
    await p.getByRole("button", { name: w.newEvent }).click();
    const ev = p.getByRole("dialog");
    await ev.getByLabel(w.title).fill("Besichtigung Seestr. 1");
    await ev.getByLabel(w.kind).selectOption({ label: w.viewing });
    await ev.getByRole("textbox", { name: w.day }).fill(today);
    await ev.getByRole("button", { name: w.save }).click();
    await expect(ev).toBeHidden();
    await expect(p.getByRole("listitem").filter({ hasText: "Besichtigung Seestr. 1" })).toContainText("10:00");
    await p.getByRole("button", { name: w.feedMake }).click();
    await expect(p.getByLabel(w.feedUrl)).toHaveValue(/\/api\/v1\/calendar\/feed\/[^/]+\.ics$/);
    const feed = await p.getByLabel(w.feedUrl).inputValue();
    const ics = await request.get(feed);
    expect(ics.status()).toBe(200);
    expect(await ics.text()).toContain("Besichtigung Seestr. 1");
    await check(p, `${lng}-desk-calendar`, [p.getByLabel(w.feedUrl)]);

    // The team: a member invited as accountant; the mail goes out.
    const mia = `mia.${stamp}@example.com`;
    await nav(p, w.team);
    await expect(p.getByRole("heading", { name: w.members, level: 2 })).toBeVisible();
    await expect(p.getByRole("row").filter({ hasText: email })).toBeVisible();
    await p.getByRole("textbox", { name: w.email }).fill(mia);
    await p.getByLabel(w.role, { exact: true }).last().selectOption({ label: w.accountant });
    await p.getByRole("button", { name: w.invite, exact: true }).click();
    const invited = p.getByRole("row").filter({ hasText: mia });
    await expect(invited).toContainText(w.pending);
    await expect(invited).toContainText(w.accountant);
    await fromMail(mia, /(accept-invitation\?token=)/);
    const { workspaces } = await landlord.get("/workspaces");
    const { invitations } = await landlord.get(`/workspaces/${workspaces[0].id}/invitations`);
    expect(invitations.map((i: { email: string; role: string; status: string }) => [i.email, i.role, i.status])).toEqual([[mia, "accountant", "pending"]]);
    await check(p, `${lng}-desk-team`);

    // Letting: a listing drafted and published; an application (made and
    // confirmed through the public API) shortlisted.
    await nav(p, w.letting);
    await p.getByRole("button", { name: w.newListing }).click();
    const ad = p.getByRole("dialog");
    await ad.getByRole("textbox", { name: w.listing }).fill("Helle 2-Zimmer-Wohnung");
    await ad.getByRole("textbox", { name: w.rent }).fill(w.rentTyped);
    await ad.getByRole("button", { name: w.saveDraft }).click();
    await expect(ad).toBeHidden();
    await p.getByRole("link", { name: "Helle 2-Zimmer-Wohnung" }).click();
    await p.getByRole("button", { name: w.publish }).click();
    await expect(p.getByText(w.published, { exact: true })).toBeVisible();
    const { proposals } = await landlord.get(`/properties/${property.id}/proposals`);
    expect(proposals.map((x: { rent: number; status: string }) => [x.rent, x.status])).toEqual([[990.5, "published"]]);
    const ann = `ann.${stamp}@example.com`;
    const applied = await request.post(`${base()}/api/v1/public/proposals/${proposals[0].slug}/applications`, { data: { name: "Ann Applicant", email: ann, message: "Zu zweit, keine Haustiere." } });
    expect(applied.status()).toBeLessThan(300);
    const { application_id } = await applied.json();
    const confirmed = await request.post(`${base()}/api/v1/public/proposals/${proposals[0].slug}/applications/${application_id}/confirm`, { data: { code: await fromMail(ann, /text=.*?\b(\d{6})\b/) } });
    expect(confirmed.status()).toBeLessThan(300);
    await p.reload();
    const applicant = p.getByRole("row").filter({ hasText: "Ann Applicant" });
    await applicant.getByRole("button", { name: w.shortlist, exact: false }).click();
    await expect(applicant).toContainText(w.shortlisted);
    const { applications } = await landlord.get(`/properties/${property.id}/proposals/${proposals[0].id}/applications`);
    expect(applications.map((a: { email: string; status: string }) => [a.email, a.status])).toEqual([[ann, "shortlisted"]]);
    await check(p, `${lng}-desk-letting`);

    // The settings: receipts switched off.
    await nav(p, w.settings);
    const notices = p.getByRole("region", { name: w.notices });
    await notices.getByLabel(w.receipts).uncheck();
    await notices.getByRole("button", { name: w.save }).click();
    await expect(notices.getByRole("status")).toHaveText(w.saved);
    expect((await landlord.get("/notice-settings")).receipt).toBe(false);
    await check(p, `${lng}-desk-settings`);
    await ctx.close();

    // On a phone: the books in one column, nothing wider than the screen.
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, locale: locales[lng] });
    const q = await phone.newPage();
    await q.goto(`${base()}/sign-in?lng=${lng}&next=%2Fapp%2Fbooks`);
    await q.getByLabel(w.email).fill(email);
    await q.getByRole("textbox", { name: w.password, exact: true }).fill("Tenancy2026ok");
    await q.getByRole("button", { name: w.signIn }).click();
    await expect(q.getByRole("heading", { name: w.books, level: 1 })).toBeVisible();
    await expect(q.getByRole("row").filter({ hasText: "Dachdecker Müller" })).toBeVisible();
    expect(await q.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await check(q, `${lng}-desk-phone-bills`);
    await q.getByRole("button", { name: w.menu }).click();
    await nav(q, w.calendar);
    await expect(q.getByRole("listitem").filter({ hasText: "Besichtigung Seestr. 1" })).toBeVisible();
    expect(await q.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await check(q, `${lng}-desk-phone-calendar`);
    await phone.close();
  });
}
