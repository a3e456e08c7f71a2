import { readFileSync, readdirSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { components } from "../../../typescript/src/schema";
import { homeOf } from "./home";
import * as logic from "./logic";
import { dueBetween, isOpenRepair, termValue } from "./logic";
import { activeEntry, inShell, landlordNav } from "./nav";
import { isoDay } from "./common";

type Charge = components["schemas"]["Charge"];

function charge(over: Partial<Charge>): Charge {
  return {
    id: "c", amount: 100, contract_id: null, created_at: "2026-01-01T00:00:00Z", currency: "EUR", due_date: "2026-11-30", expense_id: null,
    kind: "regular", name: "Rent", name_kind: "rent", outstanding: 100, paid_amount: 0, penalty_for: null, period: "2026-11", property_id: "p", status: "unpaid",
    ...over,
  };
}

describe("what falls due this week", () => {
  it("keeps owed charges inside the days, the earliest first", () => {
    const got = dueBetween(
      [
        charge({ id: "late", due_date: "2026-12-04" }),
        charge({ id: "early", due_date: "2026-11-28" }),
        charge({ id: "before", due_date: "2026-11-27" }),
        charge({ id: "after", due_date: "2026-12-05" }),
        charge({ id: "paid", due_date: "2026-11-29", outstanding: 0, status: "paid" }),
        charge({ id: "cancelled", due_date: "2026-11-29", status: "cancelled" }),
        charge({ id: "partly", due_date: "2026-11-29", outstanding: 40, status: "partially_paid" }),
      ],
      "2026-11-28",
      "2026-12-04",
    );
    expect(got.map((c) => c.id)).toEqual(["early", "partly", "late"]);
  });
});

describe("open repairs", () => {
  it("are those not done, closed or rejected", () => {
    expect(["reported", "triaged", "ordered", "scheduled"].every(isOpenRepair)).toBe(true);
    expect(["done", "closed", "rejected"].some(isOpenRepair)).toBe(false);
  });
});

describe("a term's value", () => {
  it("is typed as its block asks", () => {
    expect(termValue("float", "950,50")).toBe(950.5);
    expect(termValue("float", "1 200.00")).toBe(1200);
    expect(termValue("int", "3")).toBe(3);
    expect(termValue("int", "3.5")).toBeNull();
    expect(termValue("bool", "true")).toBe(true);
    expect(termValue("date", "2026-12-01")).toBe("2026-12-01");
    expect(termValue("text", "  ")).toBeNull();
    expect(termValue("float", "abc")).toBeNull();
  });
});

describe("where / goes", () => {
  it("sends a tenant without properties to the portal, everyone else to the dashboard", () => {
    expect(homeOf(1, 0)).toBe("/portal");
    expect(homeOf(1, 1)).toBe("/app");
    expect(homeOf(0, 0)).toBe("/app");
  });
});

describe("the shell", () => {
  it("frames /app and the navigation's paths, marking the longest match", () => {
    const nav = [...landlordNav, { to: "/office", label: "x" }];
    expect(inShell("/app", nav)).toBe(true);
    expect(inShell("/app/contracts/1", nav)).toBe(true);
    expect(inShell("/office/bank", nav)).toBe(true);
    expect(inShell("/portal", nav)).toBe(false);
    expect(inShell("/application", nav)).toBe(false);
    expect(activeEntry("/app/contracts/1", nav)).toBe("/app/contracts");
    expect(activeEntry("/app", nav)).toBe("/app");
  });
  it("counts days in the reader's calendar", () => {
    expect(isoDay(0, new Date(2026, 11, 31, 23, 30))).toBe("2026-12-31");
    expect(isoDay(1, new Date(2026, 11, 31, 23, 30))).toBe("2027-01-01");
  });
});

// Every key the landlord's screens use is in all five locales, and none of
// the other four is an English copy.
describe("the landlord's words", () => {
  const dir = resolve(import.meta.dirname, "../locales");
  const locales = Object.fromEntries(readdirSync(dir).map((f) => [f.replace(".json", ""), JSON.parse(readFileSync(resolve(dir, f), "utf8"))]));
  const flat = (o: Record<string, unknown>, p = ""): Record<string, string> =>
    Object.assign({}, ...Object.entries(o).map(([k, v]) => (typeof v === "object" && v ? flat(v as Record<string, unknown>, `${p}${k}.`) : { [p + k]: String(v) })));
  const src = readdirSync(import.meta.dirname).filter((f) => f.endsWith(".tsx") || f === "nav.ts").map((f) => readFileSync(resolve(import.meta.dirname, f), "utf8")).join("\n");
  const used = [...new Set([...src.matchAll(/"(landlord\.[a-zA-Z_.]+[a-zA-Z_])"/g)].map((m) => m[1]))];
  it("are in every locale", () => {
    expect(Object.keys(locales).sort()).toEqual(["de", "en", "es", "fr", "uk"]);
    for (const [lng, words] of Object.entries(locales)) {
      const keys = flat(words);
      expect(used.filter((k) => !(k in keys)), lng).toEqual([]);
    }
  });
  it("are translated", () => {
    const en = flat(locales.en.landlord);
    for (const lng of ["de", "es", "fr", "uk"]) {
      const other = flat(locales[lng].landlord);
      expect(Object.keys(other).sort(), lng).toEqual(Object.keys(en).sort());
      const same = Object.keys(en).filter((k) => en[k] === other[k] && en[k].length > 4);
      // A word may be the same ("Status", "Person"); a tenth is a copy.
      expect(same.length, `${lng}: ${same.join(", ")}`).toBeLessThan(Object.keys(en).length / 10);
    }
  });
});

describe("where a dashboard warning leads", () => {
  it("a building's statements, or the repair request of its property", () => {
    const { warningLink } = logic;
    expect(warningLink({ kind: "opcost_deadline_near", subject_ids: ["b1"] })).toBe("/app/opcosts/b1");
    expect(warningLink({ kind: "opcost_deadline_passed", subject_ids: ["b2"] })).toBe("/app/opcosts/b2");
    expect(warningLink({ kind: "repair_deadline_passed", subject_ids: ["r1", "p1"] })).toBe("/app/repairs/p1/r1");
    expect(warningLink({ kind: "repair_deadline_passed", subject_ids: [] })).toBe("/app/repairs");
  });
});
