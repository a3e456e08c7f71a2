import { expect, test } from "@playwright/test";
import { base, check, code, fromMail } from "./helpers";

// The first journeys of issue 49, in German and English: a landlord
// registers with the mailed code and signs in (landing on the dashboard); a tenant, on a 375 px phone,
// opens the portal invitation's mailed link, registers and accepts it.
// Every page visited passes axe-core with no serious or critical violation,
// and its screenshot goes to docs/screenshots/.

const words = {
  de: { register: "Registrieren", name: "Ihr Name", email: "E-Mail", sendCode: "Code senden", code: "Code aus der E-Mail", password: "Passwort", create: "Konto anlegen", signIn: "Anmelden", welcome: "Übersicht", signOut: "Abmelden", accept: "Einladung annehmen", done: "Ihr Mietverhältnis ist mit Ihrem Konto verknüpft", contract: "Mietvertrag 2026/", wrong: "E-Mail-Adresse oder Passwort ist falsch." },
  en: { register: "Register", name: "Your name", email: "Email", sendCode: "Send the code", code: "Code from the mail", password: "Password", create: "Create the account", signIn: "Sign in", welcome: "Overview", signOut: "Sign out", accept: "Accept the invitation", done: "your tenancy is linked to your account", contract: "Contract 2026/", wrong: "The email or the password is wrong." },
} as const;

for (const lng of ["de", "en"] as const) {
  const w = words[lng];
  test(`${lng}: a landlord registers and signs in; a tenant accepts the portal invitation on a phone`, async ({ browser, request }) => {
    const stamp = `${lng}.${Date.now()}`;
    const landlord = `lena.${stamp}@example.com`;
    const tenant = `tom.${stamp}@example.com`;
    const password = "Tenancy2026ok";

    // The landlord, on a desktop.
    const desk = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await desk.newPage();
    await page.goto(`${base()}/?lng=${lng}`);
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.getByRole("heading", { name: w.signIn })).toBeVisible();
    await check(page, `${lng}-sign-in`);

    await page.getByRole("link", { name: w.register }).click();
    await page.getByLabel(w.name).fill("Lena Landlord");
    await page.getByLabel(w.email).fill(landlord);
    await check(page, `${lng}-register`);
    await page.getByRole("button", { name: w.sendCode }).click();
    await page.getByLabel(w.code).fill(await code(landlord));
    await page.getByRole("textbox", { name: w.password, exact: true }).fill(password);
    await check(page, `${lng}-register-code`);
    await page.getByRole("button", { name: w.create }).click();
    await expect(page.getByRole("heading", { name: w.welcome, level: 1 })).toBeVisible();
    await check(page, `${lng}-home`);

    // Signed out, a wrong password is said so; the right one signs in.
    // Out of the landlord's shell: sign-in, which may bring the reader back
    // to the dashboard (the page's guard can answer before the button's
    // own navigation does).
    await page.getByRole("button", { name: w.signOut }).click();
    await expect(page).toHaveURL(/\/sign-in(\?next=%2Fapp)?$/);
    await page.getByLabel(w.email).fill(landlord);
    await page.getByRole("textbox", { name: w.password, exact: true }).fill("Wrong2026pass");
    await page.getByRole("button", { name: w.signIn }).click();
    await expect(page.getByRole("alert")).toHaveText(w.wrong);
    await page.getByRole("textbox", { name: w.password, exact: true }).fill(password);
    await page.getByRole("button", { name: w.signIn }).click();
    await expect(page.getByRole("heading", { name: w.welcome, level: 1 })).toBeVisible();

    // The token lives in the tab's sessionStorage, never in localStorage.
    const token = await page.evaluate(() => sessionStorage.getItem("propman.token"));
    expect(token).toBeTruthy();
    expect(await page.evaluate(() => JSON.stringify(localStorage))).not.toContain(token!);

    // The flat, its tenant, an active contract and the portal invitation,
    // through the API as the landlord (their screens come in slice 3).
    const auth = { Authorization: `Bearer ${token}` };
    const post = async (path: string, data?: object) => {
      const res = await request.post(`${base()}/api/v1${path}`, { headers: auth, data: data ?? {} });
      expect(res.status(), `${path}: ${await res.text()}`).toBeLessThan(300);
      return res.json();
    };
    const property = await post("/properties", { name: "Flat 3, Hauptstr. 1", address: "Hauptstr. 1", city: "Berlin", postal_code: "10115", country_code: "DE" });
    const contragent = await post("/contragents", { kind: "person", roles: ["tenant"], name: "Tom Tenant", email: tenant });
    const start = new Date().toISOString().slice(0, 8) + "01";
    const contract = await post("/contracts", {
      property_id: property.id, tenant_id: contragent.id, number: `2026/${lng}`, locale: lng,
      terms: [
        { code: "MONTHLY_RENT_AMOUNT", value: 950.0 },
        { code: "CONTRACT_START_DATE", value: start },
        { code: "PAYMENT_DAY_OF_MONTH", value: 3 },
        { code: "DEPOSIT_MONTHS", value: 2 },
      ],
    });
    await post(`/contracts/${contract.id}/activate`);
    await post(`/contragents/${contragent.id}/portal-invitation`);
    await desk.close();

    // The tenant opens the mailed link on a phone.
    const link = await fromMail(tenant, /(http:\/\/127\.0\.0\.1:\d+\/tenancy\/accept\?token=[A-Za-z0-9_-]+)/);
    const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, locale: lng === "de" ? "de-DE" : "en-GB" });
    const p = await phone.newPage();
    await p.goto(link);
    await expect(p.getByRole("button", { name: w.accept })).toHaveCount(0);
    await check(p, `${lng}-tenancy-accept`);
    await p.getByRole("link", { name: w.register }).click();
    await p.getByLabel(w.name).fill("Tom Tenant");
    await p.getByLabel(w.email).fill(tenant);
    await p.getByRole("button", { name: w.sendCode }).click();
    await p.getByLabel(w.code).fill(await code(tenant));
    await p.getByRole("textbox", { name: w.password, exact: true }).fill(password);
    await p.getByRole("button", { name: w.create }).click();
    // Back on the invitation's page, signed in.
    await expect(p).toHaveURL(/\/tenancy\/accept\?token=/);
    await p.getByRole("button", { name: w.accept }).click();
    await expect(p.getByRole("status")).toContainText(w.done);
    await expect(p.getByText(`${w.contract}${lng}`)).toBeVisible();
    // Nothing runs wider than the phone.
    expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await check(p, `${lng}-tenancy-accepted`);
    await phone.close();
  });
}
