import i18next from "i18next";
import { beforeAll, describe, expect, it } from "vitest";
import de from "../locales/de.json";
import en from "../locales/en.json";
import es from "../locales/es.json";
import fr from "../locales/fr.json";
import uk from "../locales/uk.json";
import { ApiError, errorMessage, toApiError } from "./errors";

const i18n = i18next.createInstance();
beforeAll(() => i18n.init({ resources: { de: { translation: de }, en: { translation: en } }, lng: "en", fallbackLng: "en" }));
const say = (lng: string) => (err: unknown) =>
  errorMessage(
    err,
    (k, o) => i18n.getFixedT(lng)(k, o),
    (k) => i18n.exists(k, { lng }),
  );

describe("the API's error answers", () => {
  it("reads the standard shape", () => {
    const e = toApiError(400, { error: "validation_failed", message: "The request is not valid.", details: ["email: required"] });
    expect(e).toMatchObject({ status: 400, code: "validation_failed", details: ["email: required"] });
  });
  it("reads the sign-in routes' older shape by its status", () => {
    expect(toApiError(401, { code: 401, message: "Invalid credentials." }).code).toBe("unauthorized");
    expect(toApiError(429, { code: 429, message: "Too many", wait: 30 })).toMatchObject({ code: "rate_limit", wait: 30 });
  });
  it("tells a proxy's page from the API", () => {
    expect(toApiError(502, "<html>Bad gateway</html>").code).toBe("unexpected");
    expect(toApiError(0, undefined).code).toBe("network");
  });
});

describe("what the reader sees", () => {
  it("the catalogue's sentence for a known code, in the reader's language", () => {
    const e = new ApiError(404, "invitation_not_found", "No such invitation.");
    expect(say("en")(e)).toBe("This invitation does not exist, was used already or has expired.");
    expect(say("de")(e)).toBe("Diese Einladung gibt es nicht, sie wurde bereits verwendet oder ist abgelaufen.");
  });
  it("the wait of a rate limit", () => {
    expect(say("de")(new ApiError(429, "rate_limit", "", [], 42))).toBe("Zu viele Versuche: Bitte warten Sie 42 Sekunden.");
  });
  it("the API's message for a code the catalogue lacks, with the details", () => {
    expect(say("en")(new ApiError(409, "brand_new_code", "Something specific.", ["field: why"]))).toBe("Something specific. (field: why)");
  });
  it("a general sentence when there is nothing else", () => {
    expect(say("en")(new Error("boom"))).toBe("The server cannot be reached. Check your connection and try again.");
    expect(say("en")(new ApiError(500, "unexpected", ""))).toBe("Something went wrong. Try again.");
  });
});

// Every locale has every key English has, so no reader meets a raw key.
describe("the five catalogues", () => {
  const keys = (o: object, prefix = ""): string[] =>
    Object.entries(o).flatMap(([k, v]) => (typeof v === "object" ? keys(v, `${prefix}${k}.`) : [`${prefix}${k}`]));
  const want = keys(en).sort();
  it.each([
    ["de", de],
    ["fr", fr],
    ["es", es],
    ["uk", uk],
  ])("%s", (_, cat) => {
    expect(keys(cat).sort()).toEqual(want);
  });
});

// Enum labels the public pages show (a provider has no account to read
// the API's catalogue with) are the one catalogue's words, copied, in all
// five languages.
describe("labels copied from modules/translations", () => {
  const catalogues = { de, en, fr, es, uk };
  it.each(Object.keys(catalogues))("%s", async (lng) => {
    const { readFileSync } = await import("node:fs");
    const go = JSON.parse(readFileSync(new URL(`../../../../modules/translations/locales/${lng}.json`, import.meta.url), "utf8")) as Record<string, string>;
    const app = catalogues[lng as keyof typeof catalogues].workOrder as unknown as Record<string, Record<string, string>>;
    for (const [group, prefix] of [["categories", "repairs.category."], ["urgencies", "repairs.urgency."]] as const) {
      const want = Object.fromEntries(Object.entries(go).filter(([k]) => k.startsWith(prefix)).map(([k, v]) => [k.slice(prefix.length), v]));
      expect(app[group]).toEqual(want);
    }
  });
});
