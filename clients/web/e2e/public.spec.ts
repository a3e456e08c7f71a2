import { expect, test } from "@playwright/test";
import { base, check, code, fromMail, landlordAPI } from "./helpers";

// The public pages, each opened the way its reader reaches it: the mailed
// link read from the log (workspace invitation, negotiation, work order)
// or the listing's address. The landlord's side goes through the API.
test("en: every page a mail links to opens and works", async ({ browser, request }) => {
  const stamp = Date.now();
  const { post, get } = await landlordAPI(request, `owner.${stamp}@example.com`);
  const property = await post("/properties", { name: "Flat 5, Hauptstr. 1", address: "Hauptstr. 1", city: "Berlin", postal_code: "10115", country_code: "DE" });
  const phone = await browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, locale: "en-GB" });
  const page = await phone.newPage();

  // The listing and its application, confirmed with the mailed code.
  const next = new Date(Date.now() + 40 * 86400_000).toISOString().slice(0, 10);
  const proposal = await post(`/properties/${property.id}/proposals`, { title: "Bright 2-room flat", rent: 990.0, deposit_months: 2, available_from: next, min_term_months: 12 });
  const { slug } = await post(`/properties/${property.id}/proposals/${proposal.id}/publish`);
  await page.goto(`${base()}/listings/${slug}?lng=en`);
  await expect(page.getByRole("heading", { name: "Bright 2-room flat" })).toBeVisible();
  await expect(page.getByText("€990.00")).toBeVisible();
  await check(page, "en-listing");
  const applicant = `ann.${stamp}@example.com`;
  await page.getByLabel("Your name").fill("Ann Applicant");
  await page.getByLabel("Email").fill(applicant);
  await page.getByLabel("Message to the landlord").fill("We are two, no pets.");
  await page.getByRole("button", { name: "Send the application" }).click();
  await page.getByLabel("Code from the mail").fill(await fromMail(applicant, /text=.*?\b(\d{6})\b/));
  await check(page, "en-listing-code");
  await page.getByRole("button", { name: "Confirm" }).click();
  await expect(page.getByRole("status")).toContainText("your application is confirmed");
  await check(page, "en-listing-confirmed");

  // The negotiation: the landlord shortlists and opens it; the applicant
  // follows the mailed link and accepts.
  const { applications } = await get(`/properties/${property.id}/proposals/${proposal.id}/applications`);
  const application = applications.find((a: { email: string }) => a.email === applicant);
  await post(`/properties/${property.id}/proposals/${proposal.id}/applications/${application.id}/shortlist`);
  await post(`/properties/${property.id}/negotiations`, { application_id: application.id, message: "Our offer, as in the listing." });
  const negotiation = await fromMail(applicant, /(http:\/\/127\.0\.0\.1:\d+\/negotiations\/[A-Za-z0-9._-]+)/);
  await page.goto(negotiation);
  await expect(page.getByRole("heading", { name: "The offer for your tenancy" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Round 1" })).toContainText("Our offer, as in the listing.");
  await check(page, "en-negotiation");
  await page.getByRole("button", { name: "Accept this offer" }).click();
  await expect(page.getByRole("status")).toContainText("You have agreed");
  await check(page, "en-negotiation-agreed");

  // A provider's work order: a repair reported, triaged and ordered; the
  // provider follows the mailed link, accepts and proposes a visit.
  const providerEmail = `fix.${stamp}@example.com`;
  const provider = await post("/contragents", { kind: "company", roles: ["provider"], name: "Fix & Co", email: providerEmail });
  const repair = await post(`/properties/${property.id}/repair-requests`, {
    title: "Dripping tap", description: "The kitchen tap drips.", category: "plumbing", urgency: "normal",
    access_notes: "Key at the caretaker's", preferred_times: "Weekdays after 16:00",
  });
  await post(`/properties/${property.id}/repair-requests/${repair.id}/transition`, { to: "triaged" });
  await post(`/properties/${property.id}/repair-requests/${repair.id}/work-orders`, { provider_id: provider.id });
  const order = await fromMail(providerEmail, /(http:\/\/127\.0\.0\.1:\d+\/work-orders\/[A-Za-z0-9_-]+)/);
  await page.goto(order);
  await expect(page.getByRole("heading", { name: "Work order: Dripping tap" })).toBeVisible();
  await expect(page.getByText("Key at the caretaker's")).toBeVisible();
  await check(page, "en-work-order");
  await page.getByRole("button", { name: "Accept the order" }).click();
  await expect(page.getByText("accepted", { exact: true })).toBeVisible();
  const day = new Date(Date.now() + 3 * 86400_000).toISOString().slice(0, 10);
  await page.getByLabel("Start").fill(`${day}T09:00`);
  await page.getByLabel("End").fill(`${day}T11:00`);
  await page.getByRole("button", { name: "Propose this time" }).click();
  await expect(page.getByRole("alert")).toHaveCount(0);
  await check(page, "en-work-order-accepted");

  // A workspace invitation: the invited manager registers from the link
  // and joins.
  const { workspaces } = await get("/workspaces");
  const manager = `sam.${stamp}@example.com`;
  await post(`/workspaces/${workspaces[0].id}/invitations`, { email: manager, role: "manager" });
  const invitation = await fromMail(manager, /(http:\/\/127\.0\.0\.1:\d+\/accept-invitation\?token=[A-Za-z0-9_-]+)/);
  await page.goto(invitation);
  await check(page, "en-workspace-invitation");
  await page.getByRole("link", { name: "Register" }).click();
  await page.getByLabel("Your name").fill("Sam Manager");
  await page.getByLabel("Email").fill(manager);
  await page.getByRole("button", { name: "Send the code" }).click();
  await page.getByLabel("Code from the mail").fill(await code(manager));
  await page.getByRole("textbox", { name: "Password", exact: true }).fill("Tenancy2026ok");
  await page.getByRole("button", { name: "Create the account" }).click();
  await expect(page).toHaveURL(/\/accept-invitation\?token=/);
  await page.getByRole("button", { name: "Accept the invitation" }).click();
  await expect(page.getByRole("status")).toContainText("You have joined");
  await check(page, "en-workspace-joined");

  // Single sign-on's landing page: a refusal and a code that is not one
  // (no provider runs here; modules/oidc's tests cover the flow).
  await page.goto(`${base()}/auth/oidc?error=access_denied&provider=example`);
  await expect(page.getByRole("alert")).toContainText("Signing in was refused");
  await check(page, "en-oidc-refused");
  await page.goto(`${base()}/auth/oidc?code=not-a-code`);
  await expect(page.getByRole("alert")).toHaveText("The code is wrong or has expired.");

  // A page that does not exist says so.
  await page.goto(`${base()}/no/such/page`);
  await expect(page.getByText("This page does not exist.")).toBeVisible();
  await check(page, "en-not-found");
  await phone.close();
});
