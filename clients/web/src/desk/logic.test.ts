import { readFileSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { agendaDays, amountText, billBody, billErrors, eventStart, localTime, monthWindow, parseAmount, plausibleEmail, scheduleValue, shiftMonth, zoneOffsetMinutes, type BillForm } from "./logic";

describe("parseAmount", () => {
  it("reads an amount as each language writes it", () => {
    expect(parseAmount("1.234,50", "de")).toBe(1234.5);
    expect(parseAmount("1234,5", "de")).toBe(1234.5);
    expect(parseAmount("1,234.50", "en")).toBe(1234.5);
    expect(parseAmount("1234.5", "en")).toBe(1234.5);
    expect(parseAmount("1 234,50", "fr")).toBe(1234.5);
    expect(parseAmount("1\u202f234,50", "fr")).toBe(1234.5);
    expect(parseAmount("12.345,67", "es")).toBe(12345.67);
    expect(parseAmount("1234,50", "es")).toBe(1234.5);
    expect(parseAmount("1 234,50", "uk")).toBe(1234.5);
    expect(parseAmount(" 950 ", "de")).toBe(950);
  });
  it("takes a point typed for the decimal comma when it can only be that", () => {
    expect(parseAmount("950.50", "de")).toBe(950.5);
    expect(parseAmount("19.5", "fr")).toBe(19.5);
    // Three digits after the point: the thousands' separator.
    expect(parseAmount("1.234", "de")).toBe(1234);
  });
  it("refuses what is not an amount", () => {
    for (const s of ["", "abc", "12,345", "1,2,3", "-5", "1.234.5", "10,123", "1e3"]) expect(parseAmount(s, "de"), s).toBeNull();
    expect(parseAmount("1.234,5", "en")).toBeNull();
    expect(parseAmount("12.345", "en")).toBeNull();
  });
});

const form = (o: Partial<BillForm> = {}): BillForm => ({
  propertyId: "p1", supplierId: "s1", billDate: "2026-03-01", dueDate: "", amount: "119,00", vatRate: "19", category: "repairs", operatingCategory: "", allocable: false, paidOn: "", note: "", ...o,
});

describe("billErrors", () => {
  it("lets a complete bill through", () => {
    expect(billErrors(form(), "de")).toEqual({});
    expect(billErrors(form({ amount: "119.00", category: "operating", operatingCategory: "waste", allocable: true }), "en")).toEqual({});
  });
  it("names each missing or wrong field", () => {
    expect(billErrors(form({ propertyId: "", supplierId: "", billDate: "", amount: "", category: "" }), "de")).toEqual({
      propertyId: "required", supplierId: "required", billDate: "required", amount: "required", category: "required",
    });
    expect(billErrors(form({ amount: "zehn" }), "de").amount).toBe("amount");
    expect(billErrors(form({ amount: "0" }), "de").amount).toBe("range");
    expect(billErrors(form({ amount: "1000000000" }), "de").amount).toBe("range");
    expect(billErrors(form({ vatRate: "120" }), "de").vatRate).toBe("rate");
    expect(billErrors(form({ dueDate: "2026-02-01" }), "de").dueDate).toBe("beforeBill");
    expect(billErrors(form({ operatingCategory: "waste" }), "de").operatingCategory).toBe("onlyOperating");
  });
});

describe("billBody", () => {
  it("sends the API's fields, amounts as numbers", () => {
    expect(billBody(form({ category: "operating", operatingCategory: "waste", allocable: true, note: "Q1" }), "de")).toEqual({
      supplier_id: "s1", bill_date: "2026-03-01", due_date: undefined, amount: 119, vat_rate: 19, category: "operating",
      operating_cost_category: "waste", allocable: true, paid_on: null, note: "Q1",
    });
    const b = billBody(form({ vatRate: "", paidOn: "2026-03-05", operatingCategory: "waste" }), "de");
    expect(b.vat_rate).toBeUndefined();
    expect(b.paid_on).toBe("2026-03-05");
    // Only operating costs have a kind.
    expect(b.operating_cost_category).toBeNull();
  });
  it("writes the API's amount back as the reader types it", () => {
    expect(amountText(1234.5, "de")).toBe("1234,5");
    expect(amountText(1234.5, "en")).toBe("1234.5");
    expect(parseAmount(amountText(1234.56, "fr"), "fr")).toBe(1234.56);
    expect(amountText(null, "de")).toBe("");
  });
});

describe("calendar", () => {
  it("gives a month's first and last day", () => {
    expect(monthWindow("2026-02")).toEqual({ from: "2026-02-01", to: "2026-02-28" });
    expect(monthWindow("2028-02")).toEqual({ from: "2028-02-01", to: "2028-02-29" });
    expect(monthWindow("2026-12")).toEqual({ from: "2026-12-01", to: "2026-12-31" });
    expect(shiftMonth("2026-12", 1)).toBe("2027-01");
    expect(shiftMonth("2026-01", -1)).toBe("2025-12");
  });
  it("groups the occurrences by their first day, in the API's order", () => {
    const o = [{ starts_at: "2026-03-01" }, { starts_at: "2026-03-01T10:00:00+01:00" }, { starts_at: "2026-03-04T09:00:00+01:00" }];
    expect(agendaDays(o)).toEqual([
      { day: "2026-03-01", items: [o[0], o[1]] },
      { day: "2026-03-04", items: [o[2]] },
    ]);
    expect(agendaDays([])).toEqual([]);
    expect(localTime("2026-03-01T10:05:00+01:00")).toBe("10:05");
    expect(localTime("2026-03-01")).toBeNull();
  });
  it("writes an event's start with its zone's offset on that day", () => {
    expect(zoneOffsetMinutes(Date.UTC(2026, 0, 15, 12), "Europe/Berlin")).toBe(60);
    expect(zoneOffsetMinutes(Date.UTC(2026, 6, 15, 12), "Europe/Berlin")).toBe(120);
    expect(eventStart("2026-07-15", "10:00", false, "Europe/Berlin")).toBe("2026-07-15T10:00:00+02:00");
    expect(eventStart("2026-01-15", "10:00", false, "America/New_York")).toBe("2026-01-15T10:00:00-05:00");
    expect(eventStart("2026-01-15", "10:00", false, "UTC")).toBe("2026-01-15T10:00:00+00:00");
    expect(eventStart("2026-01-15", "10:00", true, "Europe/Berlin")).toBe("2026-01-15");
  });
});

describe("team and settings", () => {
  it("checks an email before inviting", () => {
    expect(plausibleEmail("anna@example.com")).toBe(true);
    expect(plausibleEmail(" anna@example.com ")).toBe(true);
    expect(plausibleEmail("anna")).toBe(false);
    expect(plausibleEmail("anna@example")).toBe(false);
    expect(plausibleEmail("an na@example.com")).toBe(false);
  });
  it("reads a run's time: HH:MM, off, or empty for the default", () => {
    expect(scheduleValue("05:30")).toBe("05:30");
    expect(scheduleValue(" off ")).toBe("off");
    expect(scheduleValue("")).toBeNull();
    expect(scheduleValue("25:00")).toBeUndefined();
    expect(scheduleValue("5:30")).toBeUndefined();
  });
});

// Every key the desk's screens use is in all five locales, every value
// of the API's enumerations they show has its word, and none of the other
// four languages is an English copy.
describe("the desk's words", () => {
  const dir = resolve(import.meta.dirname, "../locales");
  const locales: Record<string, Record<string, unknown>> = Object.fromEntries(readdirSync(dir).map((f) => [f.replace(".json", ""), JSON.parse(readFileSync(resolve(dir, f), "utf8"))]));
  const flat = (o: Record<string, unknown>, p = ""): Record<string, string> =>
    Object.assign({}, ...Object.entries(o).map(([k, v]) => (typeof v === "object" && v ? flat(v as Record<string, unknown>, `${p}${k}.`) : { [p + k]: String(v) })));
  const src = readdirSync(import.meta.dirname).filter((f) => f.endsWith(".tsx") || f === "nav.ts").map((f) => readFileSync(resolve(import.meta.dirname, f), "utf8")).join("\n");
  const used = [...new Set([...src.matchAll(/"((?:desk|landlord)\.[a-zA-Z_.]+[a-zA-Z_])"/g)].map((m) => m[1]))];
  const doc = JSON.parse(readFileSync(resolve(import.meta.dirname, "../../../typescript/doc.json"), "utf8"));
  const schema = (name: string) => doc.components.schemas[name];
  const enums: Record<string, string[]> = {
    "desk.bills.categories": schema("BillCategory").enum,
    "desk.bills.operating": schema("BillOperatingCategory").enum,
    "desk.bills.states": schema("Bill").properties.status.enum,
    "desk.account.kinds": schema("LedgerEntryKind").enum,
    "desk.trial.types": schema("TrialBalance").properties.rows.items.properties.type.enum,
    "desk.calendar.kinds": schema("CalendarOccurrence").properties.kind.enum,
    "desk.roles": schema("WorkspaceMember").properties.role.enum,
    "desk.team.states": schema("WorkspaceInvitation").properties.status.enum,
    "desk.tax.forms": schema("TaxYear").properties.form.enum,
    "desk.notices.kinds": Object.keys(schema("NoticeKinds").properties),
    "desk.letting.states": [...schema("Proposal").properties.status.enum, ...schema("Application").properties.status.enum],
    "desk.bills.errors": ["required", "date", "beforeBill", "amount", "range", "rate", "onlyOperating"],
  };
  it("are in every locale", () => {
    expect(Object.keys(locales).sort()).toEqual(["de", "en", "es", "fr", "uk"]);
    for (const [lng, words] of Object.entries(locales)) {
      const keys = flat(words);
      expect(used.filter((k) => !(k in keys)), lng).toEqual([]);
      for (const [prefix, values] of Object.entries(enums)) expect(values.filter((v) => !(`${prefix}.${v}` in keys)), `${lng} ${prefix}`).toEqual([]);
    }
  });
  it("are translated", () => {
    const en = flat(locales.en.desk as Record<string, unknown>);
    for (const lng of ["de", "es", "fr", "uk"]) {
      const other = flat(locales[lng].desk as Record<string, unknown>);
      expect(Object.keys(other).sort(), lng).toEqual(Object.keys(en).sort());
      const same = Object.keys(en).filter((k) => en[k] === other[k] && en[k].length > 4);
      // A word may be the same ("Status", the forms' names); a tenth is a copy.
      expect(same.length, `${lng}: ${same.join(", ")}`).toBeLessThan(Object.keys(en).length / 10);
    }
  });
});
