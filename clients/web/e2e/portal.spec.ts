import { expect, test, type Page } from "@playwright/test";
import { readFileSync } from "node:fs";
import { base, check, fromMail, landlordAPI } from "./helpers";

// Issue 49, slice 2: the tenant portal on a 375 px phone, in German and
// English. The landlord's side (a flat, an active contract, a payment, a
// shared document, a message, a meter, the portal invitation) is set up
// through the API with the landlord's token; the tenant registers and
// accepts through the API too (journey.spec.ts walks that in the
// browser), then signs in on the phone and uses the portal: the balance
// and what is due, the receipt's PDF, the shared document, the thread, a
// meter reading, a repair. Every page passes axe-core and is screenshot.

const words = {
  de: {
    email: "E-Mail", password: "Passwort", signIn: "Anmelden", portal: "Ihr Mieterportal", contract: "Mietvertrag 2026/de",
    balance: "Ihr Kontostand", outstanding: "Noch zu zahlen", due: "Fällige Zahlungen", charges: "Forderungen",
    receipts: "Zahlungen und Quittungen", receipt: "Quittung", pdf: "PDF herunterladen",
    documents: "Dokumente", download: "Hausordnung herunterladen", messages: "Nachrichten", body: "Ihre Nachricht", send: "Senden",
    sent: "Ihre Nachricht wurde gesendet.", meters: "Zählerstände", readOn: "Ablesedatum", value: "Zählerstand Kaltwasser Küche",
    sendReading: "Zählerstand senden", readingSent: "Danke: Ihr Zählerstand wurde erfasst.", repairs: "Reparaturen",
    what: "Was ist defekt?", category: "Art", urgency: "Dringlichkeit", description: "Beschreiben Sie den Schaden", sendRepair: "Meldung senden",
    reported: "gemeldet", plumbing: "Sanitär", landlordSays: "Der Heizungsableser kommt am Montag.", tenantSays: "Danke, ich bin ab 9 Uhr zu Hause.",
    photos: "Fotos des Schadens", addPhotos: "Fotos hinzufügen", sendPhotos: "Fotos senden (1)", photoCount: "Fotos: 1", photosSent: "Gesendete Fotos: 1",
    notImage: "Diese Datei ist kein Foto: Senden Sie ein PNG-, JPEG- oder WebP-Bild.",
    repair: "Küchenarmatur tropft", paidCharge: "teilweise bezahlt", pick: "Wählen Sie einen Termin", slotTo: " bis ", scheduled: "Termin vereinbart",
  },
  en: {
    email: "Email", password: "Password", signIn: "Sign in", portal: "Your tenant portal", contract: "Contract 2026/en",
    balance: "Your balance", outstanding: "Still to pay", due: "What is due", charges: "Charges",
    receipts: "Payments and receipts", receipt: "Receipt", pdf: "Download PDF",
    documents: "Documents", download: "Download House rules", messages: "Messages", body: "Your message", send: "Send",
    sent: "Your message has been sent.", meters: "Meter readings", readOn: "Date of the reading", value: "Reading of Kitchen cold water",
    sendReading: "Send the reading", readingSent: "Thank you: your reading has been recorded.", repairs: "Repairs",
    what: "What is broken?", category: "Category", urgency: "Urgency", description: "Describe the problem", sendRepair: "Send the request",
    reported: "reported", plumbing: "Plumbing", landlordSays: "The meter reader comes on Monday.", tenantSays: "Thank you, I am at home from 9 am.",
    photos: "Photos of the damage", addPhotos: "Add photos", sendPhotos: "Send the photos (1)", photoCount: "Photos: 1", photosSent: "Photos sent: 1",
    notImage: "This file is not a photo: send a PNG, JPEG or WebP image.",
    repair: "Kitchen tap drips", paidCharge: "partly paid", pick: "Pick a time for the visit", slotTo: " to ", scheduled: "visit booked",
  },
} as const;

const locales = { de: "de-DE", en: "en-GB" } as const;

// A photo as a phone's file input hands it over: a 2x2 PNG.
const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGNQSDgARAwQCgAgjgUB59mTewAAAABJRU5ErkJggg==", "base64");

// Nothing on a portal page runs wider than the phone.
async function fits(p: Page) {
  expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
}

for (const lng of ["de", "en"] as const) {
  const w = words[lng];
  test(`${lng}: a tenant uses the portal on a phone`, async ({ browser, request }) => {
    test.setTimeout(300_000);
    const stamp = `${lng}.${Date.now()}`;
    const tenantEmail = `tina.${stamp}@example.com`;
    const landlord = await landlordAPI(request, `lars.${stamp}@example.com`, "Lars Landlord");

    const property = await landlord.post("/properties", { name: "Flat 3, Hauptstr. 1", address: "Hauptstr. 1", city: "Berlin", postal_code: "10115", country_code: "DE" });
    const person = await landlord.post("/contragents", { kind: "person", roles: ["tenant"], name: "Tina Tenant", email: tenantEmail });
    const start = new Date().toISOString().slice(0, 8) + "01";
    const contract = await landlord.post("/contracts", {
      property_id: property.id, tenant_id: person.id, number: `2026/${lng}`, locale: lng,
      terms: [
        { code: "MONTHLY_RENT_AMOUNT", value: 950.0 },
        { code: "CONTRACT_START_DATE", value: start },
        { code: "PAYMENT_DAY_OF_MONTH", value: 3 },
        { code: "DEPOSIT_MONTHS", value: 2 },
      ],
    });
    await landlord.post(`/contracts/${contract.id}/activate`);
    await landlord.post(`/properties/${property.id}/payments`, { amount: 950.0, method: "bank_transfer", contract_id: contract.id, paid_on: start, reference: "Miete" });
    await landlord.post(`/properties/${property.id}/counters`, { kind: "water_cold", unit: "m3", name: lng === "de" ? "Kaltwasser Küche" : "Kitchen cold water", serial: "KW-1", contract_id: contract.id });
    await landlord.post(`/properties/${property.id}/messages`, { direction: "out", channel: "portal", contract_id: contract.id, body: w.landlordSays });
    const doc = await request.post(`${base()}/api/v1/properties/${property.id}/documents`, {
      headers: landlord.auth,
      multipart: {
        title: lng === "de" ? "Hausordnung" : "House rules",
        category: "other",
        contract_id: contract.id,
        shared_with_tenant: "true",
        file: { name: "house-rules.txt", mimeType: "text/plain", buffer: Buffer.from("1. Quiet hours 22:00 to 6:00.\n") },
      },
    });
    expect(doc.status(), await doc.text()).toBe(201);
    // The tenant's account, then the accepted invitation.
    const tenant = await landlordAPI(request, tenantEmail, "Tina Tenant");
    await landlord.post(`/contragents/${person.id}/portal-invitation`);
    const link = await fromMail(tenantEmail, /\/tenancy\/accept\?token=([A-Za-z0-9_-]+)/);
    await tenant.post(`/tenancy/invitations/${link}/accept`);
    const balance = await tenant.get(`/tenancy/contracts/${contract.id}/balance`);
    expect(balance.paid).toBe(950);
    expect(balance.outstanding).toBeGreaterThan(0);

    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, locale: locales[lng] });
    const p = await phone.newPage();
    await p.goto(`${base()}/portal?lng=${lng}`);
    // Signed out, the portal asks to sign in and comes back.
    await expect(p).toHaveURL(/\/sign-in\?next=%2Fportal/);
    await p.getByLabel(w.email).fill(tenantEmail);
    await p.getByRole("textbox", { name: w.password, exact: true }).fill("Tenancy2026ok");
    await p.getByRole("button", { name: w.signIn }).click();
    await expect(p.getByRole("heading", { name: w.portal })).toBeVisible();
    await check(p, `${lng}-portal`);

    // The contract: the balance as the API says it, in the reader's format.
    await p.getByRole("link", { name: w.contract }).click();
    await expect(p.getByRole("heading", { name: w.balance })).toBeVisible();
    const money = (n: number) => new Intl.NumberFormat(locales[lng], { style: "currency", currency: "EUR" }).format(n);
    // The server's billing job may add the next month's rent at any time
    // (it bills ahead of the due day): the page must show what the API
    // says when it is read, so read both again, reloading, until they
    // were read after the same run.
    let reloads = 0;
    await expect(async () => {
      if (reloads++ > 0) await p.reload();
      const now = await tenant.get(`/tenancy/contracts/${contract.id}/balance`);
      await expect(p.getByText(w.outstanding).locator("..")).toContainText(money(now.outstanding), { timeout: 3000 });
    }).toPass({ timeout: 30_000 });
    await expect(p.getByRole("heading", { name: w.due })).toBeVisible();
    await fits(p);
    await check(p, `${lng}-portal-contract`);

    await p.getByRole("link", { name: w.charges }).click();
    // The payment went to the oldest charge (the deposit), partly.
    await expect(p.getByText(w.paidCharge, { exact: true }).first()).toBeVisible();
    await fits(p);
    await check(p, `${lng}-portal-charges`);
    await p.goBack();

    // The receipt of the payment, and its PDF.
    await p.getByRole("link", { name: w.receipts }).click();
    await expect(p.getByText(new RegExp(`^${w.receipt} \\d{4}-\\d{6}$`))).toBeVisible();
    await fits(p);
    await check(p, `${lng}-portal-receipts`);
    const [pdf, file] = await Promise.all([
      p.waitForResponse((r) => r.url().includes("/receipts/") && r.url().includes("/pdf")),
      p.waitForEvent("download"),
      p.getByRole("button", { name: w.pdf }).first().click(),
    ]);
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()["content-type"]).toContain("application/pdf");
    // The saved file is the PDF itself.
    expect(readFileSync(await file.path()).subarray(0, 5).toString()).toBe("%PDF-");
    expect(file.suggestedFilename()).toMatch(/\.pdf$/);
    await p.goBack();

    // The shared document.
    await p.getByRole("link", { name: w.documents }).click();
    const [content, saved] = await Promise.all([
      p.waitForResponse((r) => r.url().includes("/documents/") && r.url().endsWith("/content")),
      p.waitForEvent("download"),
      p.getByRole("button", { name: w.download }).click(),
    ]);
    expect(content.status()).toBe(200);
    expect(saved.suggestedFilename()).toBe("house-rules.txt");
    expect(readFileSync(await saved.path(), "utf8")).toBe("1. Quiet hours 22:00 to 6:00.\n");
    await fits(p);
    await check(p, `${lng}-portal-documents`);
    await p.goBack();

    // The thread: the landlord's message, and an answer.
    await p.getByRole("link", { name: w.messages }).click();
    await expect(p.getByText(w.landlordSays)).toBeVisible();
    await p.getByRole("textbox", { name: w.body }).fill(w.tenantSays);
    await p.getByRole("button", { name: w.send, exact: true }).click();
    await expect(p.getByRole("status")).toHaveText(w.sent);
    await expect(p.getByRole("listitem").filter({ hasText: w.tenantSays })).toBeVisible();
    const thread = await tenant.get(`/tenancy/contracts/${contract.id}/messages`);
    expect(thread.messages.map((m: { body: string; direction: string }) => [m.direction, m.body])).toContainEqual(["in", w.tenantSays]);
    await fits(p);
    // Each message's minute is the server's clock: masked in the picture.
    await check(p, `${lng}-portal-messages`, [p.getByRole("listitem").locator("p").filter({ hasText: " · " })]);
    await p.goBack();

    // A meter reading.
    await p.getByRole("link", { name: w.meters }).click();
    await p.getByLabel(w.value).fill(lng === "de" ? "12,5" : "12.5");
    await p.getByRole("button", { name: w.sendReading }).click();
    await expect(p.getByRole("status")).toHaveText(w.readingSent);
    const counters = await tenant.get(`/tenancy/contracts/${contract.id}/counters`);
    const readings = await tenant.get(`/tenancy/contracts/${contract.id}/counters/${counters.counters[0].id}/readings`);
    expect(readings.readings.map((r: { value: number; by: string }) => [r.value, r.by])).toEqual([[12.5, "tenant"]]);
    await fits(p);
    await check(p, `${lng}-portal-meters`);
    await p.goBack();

    // A repair.
    await p.getByRole("link", { name: w.repairs }).click();
    await p.getByLabel(w.what).fill(w.repair);
    await p.getByLabel(w.category).selectOption("plumbing");
    await p.getByLabel(w.urgency).selectOption("normal");
    await p.getByLabel(w.description).fill(lng === "de" ? "Sie tropft auch, wenn sie zu ist." : "It drips even when closed.");
    // A photo from the phone (its camera or files), shown as a thumbnail
    // before it is sent; one picked and dropped again goes (the same file
    // picked twice is kept once: src/portal/logic.test.ts).
    await p.getByLabel(w.photos).setInputFiles([{ name: "leak.png", mimeType: "image/png", buffer: png }]);
    await p.getByLabel(w.photos).setInputFiles([{ name: "other.png", mimeType: "image/png", buffer: png }]);
    await expect(p.getByRole("img", { name: "other.png" })).toBeVisible();
    await p.getByRole("button", { name: lng === "de" ? "other.png entfernen" : "Remove other.png" }).click();
    await expect(p.getByRole("img", { name: "other.png" })).toHaveCount(0);
    const thumb = p.getByRole("img", { name: "leak.png" });
    await expect(thumb).toHaveCount(1);
    expect(await thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
    await fits(p);
    await check(p, `${lng}-portal-repairs-photo`);
    await p.getByRole("button", { name: w.sendRepair }).click();
    await expect(p.getByRole("status")).toContainText(w.photosSent);
    await expect(p.getByText(w.repair)).toBeVisible();
    await expect(p.getByText(`${w.plumbing} · `)).toBeVisible();
    await expect(p.getByText(w.photoCount, { exact: true })).toBeVisible();
    await expect(p.getByRole("img", { name: "leak.png" })).toHaveCount(0);
    const repairs = await tenant.get(`/tenancy/contracts/${contract.id}/repair-requests`);
    expect(repairs.repair_requests.map((r: { title: string; category: string; status: string; source: string }) => [r.title, r.category, r.status, r.source])).toEqual([[w.repair, "plumbing", "reported", "tenant"]]);
    expect(repairs.repair_requests[0].photos).toHaveLength(1);
    const photo = await landlord.get(`/properties/${property.id}/documents/${repairs.repair_requests[0].photos[0]}`);
    expect([photo.category, photo.content_type]).toEqual(["photo", "image/png"]);
    await fits(p);
    await check(p, `${lng}-portal-repairs`, [p.getByRole("status")]);

    // A file that is not an image, though named and declared one: the
    // API's refusal (415 not_an_image) in the reader's language, nothing added.
    await p.getByRole("button", { name: w.addPhotos }).click();
    await p.getByLabel(new RegExp(w.repair)).setInputFiles([{ name: "fake.jpg", mimeType: "image/jpeg", buffer: Buffer.from("not a picture at all") }]);
    await p.getByRole("button", { name: w.sendPhotos }).click();
    await expect(p.getByRole("alert")).toHaveText(w.notImage);
    expect((await tenant.get(`/tenancy/contracts/${contract.id}/repair-requests/${repairs.repair_requests[0].id}`)).photos).toHaveLength(1);
    await fits(p);
    await check(p, `${lng}-portal-repairs-refused`);

    // The landlord orders it from a provider, who accepts and offers a
    // time (through the API and the work order's link); the tenant books it.
    const provider = await landlord.post("/contragents", { kind: "company", roles: ["provider"], name: "Fix & Co", email: `fix.${stamp}@example.com` });
    const repairId = repairs.repair_requests[0].id;
    await landlord.post(`/properties/${property.id}/repair-requests/${repairId}/transition`, { to: "triaged" });
    await landlord.post(`/properties/${property.id}/repair-requests/${repairId}/work-orders`, { provider_id: provider.id });
    const order = await fromMail(`fix.${stamp}@example.com`, /\/work-orders\/([A-Za-z0-9_-]+)/);
    const day = new Date(Date.now() + 3 * 86400_000).toISOString().slice(0, 10);
    for (const [path, data] of [["accept", {}], ["slots", { slots: [{ start: `${day}T08:00:00Z`, end: `${day}T10:00:00Z` }] }]] as const) {
      const res = await request.post(`${base()}/api/v1/work-orders/${order}/${path}`, { data });
      expect(res.status(), await res.text()).toBeLessThan(300);
    }
    await p.reload();
    await expect(p.getByText(w.pick)).toBeVisible();
    await check(p, `${lng}-portal-repairs-slot`);
    // The offered time's button, not the photo input (its label says "up to 10").
    await p.getByRole("button", { name: new RegExp(w.slotTo) }).and(p.locator("button")).click();
    await expect(p.getByText(w.scheduled, { exact: true })).toBeVisible();
    const booked = await tenant.get(`/tenancy/contracts/${contract.id}/repair-requests/${repairId}`);
    expect([booked.status, booked.visit?.start]).toEqual(["scheduled", `${day}T08:00:00Z`]);

    // The same contract in Ukrainian, formatted as in Ukraine.
    if (lng === "en") {
      await p.goto(`${base()}/portal/${contract.id}?lng=uk`);
      await expect(p.getByRole("heading", { name: "Ваш баланс" })).toBeVisible();
      // Read again: the server's billing may have run meanwhile.
      let again = 0;
      await expect(async () => {
        if (again++ > 0) await p.reload();
        const now = await tenant.get(`/tenancy/contracts/${contract.id}/balance`);
        const uah = new Intl.NumberFormat("uk-UA", { style: "currency", currency: "EUR" }).format(now.outstanding);
        await expect(p.getByText("До сплати").locator("..")).toContainText(uah, { timeout: 3000 });
      }).toPass({ timeout: 30_000 });
      await fits(p);
      await check(p, "uk-portal-contract");
    }

    // Another user's contract is not shown: the API's 404, said as such.
    await p.goto(`${base()}/portal/00000000-0000-7000-8000-000000000000`);
    await expect(p.getByRole("alert")).toBeVisible();
    await phone.close();
  });
}
