import { describe, expect, it } from "vitest";
import de from "../locales/de.json";
import en from "../locales/en.json";
import { arrearsRows, canIgnore, canMatch, firstOfNextMonth, incomeRows, knownReasons, lastMonth, lineQuery, monthLabel, previousYear, reasonKey } from "./logic";

describe("a bank line's actions", () => {
  it("matches only an undecided credit", () => {
    expect(canMatch({ status: "suggested", amount: 950 })).toBe(true);
    expect(canMatch({ status: "unmatched", amount: 10 })).toBe(true);
    expect(canMatch({ status: "unmatched", amount: -10 })).toBe(false);
    expect(canMatch({ status: "posted", amount: 950 })).toBe(false);
    expect(canMatch({ status: "debit", amount: -50 })).toBe(false);
  });
  it("ignores any undecided line, a debit too", () => {
    expect(["suggested", "unmatched", "debit", "posted", "ignored"].map((status) => canIgnore({ status }))).toEqual([true, true, true, false, false]);
  });
});

describe("the lines' query", () => {
  it("leaves out what is empty or not a whole day", () => {
    expect(lineQuery({ account: "", status: "", from: "", to: "2026-1" })).toEqual({ per_page: 50 });
  });
  it("passes the filter and the cursor", () => {
    expect(lineQuery({ account: "a1", status: "suggested", from: "2026-01-01", to: "2026-01-31" }, "cur", 20)).toEqual({
      per_page: 20, after: "cur", bank_account_id: "a1", status: "suggested", from: "2026-01-01", to: "2026-01-31",
    });
  });
  it("drops a status the API does not know", () => {
    expect(lineQuery({ account: "", status: "paid", from: "", to: "" }).status).toBeUndefined();
  });
});

describe("the matcher's reasons", () => {
  it("each has a sentence in German and English", () => {
    for (const r of knownReasons) {
      const key = reasonKey(r)!.split(".");
      const get = (d: unknown) => key.reduce((o: any, k) => o?.[k], d);
      expect(typeof get(de), r).toBe("string");
      expect(get(de)).not.toBe(get(en));
    }
  });
  it("an unknown one has no key (shown as sent)", () => {
    expect(reasonKey("new_reason")).toBeNull();
  });
});

describe("chart rows", () => {
  it("names months in the reader's language, by the calendar", () => {
    expect(monthLabel("2026-03", "de")).toBe("Mär");
    expect(monthLabel("2026-03", "en")).toBe("Mar");
    expect(monthLabel("2026-13x", "en")).toBe("2026-13x");
  });
  it("takes one currency's months, the API's numbers unchanged", () => {
    const m = (month: string, currency: string, charged: number) => ({ month, currency, charged, collected: 1, outstanding: 2, income: 3 });
    const rows = incomeRows([m("2026-01", "EUR", 950), m("2026-01", "GBP", 700), m("2026-02", "EUR", 960.5)], "EUR", "en");
    expect(rows).toEqual([
      { month: "Jan", charged: 950, collected: 1, outstanding: 2, income: 3 },
      { month: "Feb", charged: 960.5, collected: 1, outstanding: 2, income: 3 },
    ]);
  });
  it("draws the arrears' totals by age", () => {
    expect(arrearsRows({ currency: "EUR", days_0_30: 1, days_31_60: 2, days_61_90: 3, days_over_90: 4 }).map((r) => r.amount)).toEqual([1, 2, 3, 4]);
  });
});

it("the owner statement's month is last month", () => {
  expect(lastMonth(new Date(Date.UTC(2026, 0, 15)))).toBe("2025-12");
  expect(lastMonth(new Date(Date.UTC(2026, 10, 28)))).toBe("2026-10");
});

it("an operating-cost statement's default period is last year; a new prepayment starts next month", () => {
  expect(previousYear(new Date(Date.UTC(2026, 10, 28)))).toEqual({ from: "2025-01-01", to: "2025-12-31" });
  expect(firstOfNextMonth(new Date(Date.UTC(2026, 11, 31)))).toBe("2027-01-01");
});
