import { describe, expect, it } from "vitest";
import { formatDate, formatDateTime, formatMoney, formatNumber } from "./format";

// Intl's output uses narrow no-break spaces in some locales: compare with
// plain spaces.
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, " ");

describe("amounts in the reader's language", () => {
  it.each([
    ["de", "1.234,50 €"],
    ["fr", "1 234,50 €"],
    ["es", "1234,50 €"],
    ["uk", "1 234,50 EUR"],
    ["en", "€1,234.50"],
  ])("%s", (lng, want) => {
    expect(plain(formatMoney(1234.5, "EUR", lng))).toBe(want);
  });
  it("keeps the currency of the amount", () => {
    expect(plain(formatMoney(950, "GBP", "en"))).toBe("£950.00");
    expect(plain(formatMoney(950, "CHF", "de"))).toBe("950,00 CHF");
    expect(plain(formatMoney(950, "UAH", "uk"))).toBe("950,00 ₴");
  });
  it("numbers", () => {
    expect(plain(formatNumber(117.8, "de"))).toBe("117,8");
    expect(plain(formatNumber(12345.6, "en"))).toBe("12,345.6");
  });
});

describe("dates", () => {
  it("a calendar date is the same day in every time zone", () => {
    expect(formatDate("2026-03-01", "de")).toBe("01.03.2026");
    expect(formatDate("2026-03-01", "en")).toBe("Mar 1, 2026");
    expect(formatDate("2026-03-01", "fr")).toBe("1 mars 2026");
    expect(formatDate("2026-03-01", "es")).toBe("1 mar 2026");
    expect(formatDate("2026-03-01", "uk")).toBe("1 бер. 2026 р.");
  });
  it("an instant in a given zone", () => {
    expect(plain(formatDateTime("2026-03-01T16:00:00Z", "de", "Europe/Berlin"))).toBe("01.03.2026, 17:00");
    expect(plain(formatDateTime("2026-03-01T16:00:00Z", "en", "Europe/London"))).toBe("Mar 1, 2026, 4:00 PM");
  });
  it("leaves what is not a date as it is", () => {
    expect(formatDate("soon", "en")).toBe("soon");
  });
});
