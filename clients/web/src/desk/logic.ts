// The logic of the landlord's desk (books, calendar, team and settings),
// kept out of the components so that Vitest checks it: amounts typed as
// the reader writes them, the bill form's checks, the calendar's month
// and its days, the roles a member may be given.
import { intlLocale } from "../format";

// An amount as the reader types it in their language: "1.234,50" in
// German and "1 234,50" in French are 1234.5, "1,234.50" in English too.
// null when it is not an amount (letters, two decimal separators, more
// than two decimals).
export function parseAmount(text: string, lng: string): number | null {
  // 1234567.5: Spanish groups only from five digits on.
  const parts = new Intl.NumberFormat(intlLocale(lng)).formatToParts(1234567.5);
  const decimal = parts.find((p) => p.type === "decimal")?.value ?? ".";
  const group = parts.find((p) => p.type === "group")?.value ?? ",";
  const s = text.trim().replace(/[\s\u00a0\u202f]/g, "");
  if (s === "") return null;
  // A point typed in a comma language is the decimal separator when there
  // is no comma and at most two digits follow ("950.50"); with three it is
  // the thousands' ("1.234").
  if (decimal === "," && !s.includes(",") && /^\d+\.\d{1,2}$/.test(s)) return Number(s);
  let whole = s;
  let fraction = "";
  const at = s.lastIndexOf(decimal);
  if (at >= 0) {
    whole = s.slice(0, at);
    fraction = s.slice(at + 1);
    if (!/^\d{1,2}$/.test(fraction)) return null;
  }
  // The thousands' separator only between groups of three digits (a space
  // in French and Ukrainian was taken out above).
  const g = group.trim();
  if (g !== "" && whole.includes(g)) {
    const groups = whole.split(g);
    if (!/^\d{1,3}$/.test(groups[0]) || groups.slice(1).some((x) => !/^\d{3}$/.test(x))) return null;
    whole = groups.join("");
  }
  if (!/^\d+$/.test(whole)) return null;
  return Number(fraction ? `${whole}.${fraction}` : whole);
}

export interface BillForm {
  propertyId: string;
  supplierId: string;
  billDate: string;
  dueDate: string;
  amount: string;
  vatRate: string;
  category: string;
  operatingCategory: string;
  allocable: boolean;
  paidOn: string;
  note: string;
}

export const billCategories = ["repairs", "insurance", "property_tax", "operating", "management", "other"] as const;
export const operatingCategories = [
  "heating", "hot_water", "water", "waste", "cleaning", "garden", "insurance_building", "property_tax", "caretaker", "elevator", "lighting", "other_allocable",
] as const;

export type BillField = "propertyId" | "supplierId" | "billDate" | "dueDate" | "amount" | "vatRate" | "category" | "operatingCategory" | "paidOn";

const day = /^\d{4}-\d{2}-\d{2}$/;

// What is wrong with the form, field by field (keys of desk.bills.errors);
// the API checks again and its refusal is shown as it answers.
export function billErrors(f: BillForm, lng: string): Partial<Record<BillField, string>> {
  const e: Partial<Record<BillField, string>> = {};
  if (!f.propertyId) e.propertyId = "required";
  if (!f.supplierId) e.supplierId = "required";
  if (!day.test(f.billDate)) e.billDate = "required";
  if (f.dueDate && !day.test(f.dueDate)) e.dueDate = "date";
  else if (f.dueDate && day.test(f.billDate) && f.dueDate < f.billDate) e.dueDate = "beforeBill";
  if (f.paidOn && !day.test(f.paidOn)) e.paidOn = "date";
  const amount = parseAmount(f.amount, lng);
  if (f.amount.trim() === "") e.amount = "required";
  else if (amount === null) e.amount = "amount";
  else if (amount < 0.01 || amount > 999999999.99) e.amount = "range";
  if (f.vatRate.trim() !== "") {
    const rate = parseAmount(f.vatRate, lng);
    if (rate === null || rate > 100) e.vatRate = "rate";
  }
  if (!(billCategories as readonly string[]).includes(f.category)) e.category = "required";
  if (f.operatingCategory && f.category !== "operating") e.operatingCategory = "onlyOperating";
  return e;
}

// The body the API takes for the form (create; the same fields change a
// bill). Call only when billErrors found nothing.
export function billBody(f: BillForm, lng: string) {
  const rate = f.vatRate.trim() === "" ? undefined : (parseAmount(f.vatRate, lng) ?? undefined);
  return {
    supplier_id: f.supplierId,
    bill_date: f.billDate,
    due_date: f.dueDate || undefined,
    amount: parseAmount(f.amount, lng) ?? 0,
    vat_rate: rate,
    category: f.category as (typeof billCategories)[number],
    operating_cost_category: f.category === "operating" && f.operatingCategory ? (f.operatingCategory as (typeof operatingCategories)[number]) : null,
    allocable: f.allocable,
    paid_on: f.paidOn || null,
    note: f.note,
  };
}

// An amount of the API written back into the form in the reader's way.
export function amountText(n: number | null | undefined, lng: string): string {
  if (n == null) return "";
  return new Intl.NumberFormat(intlLocale(lng), { minimumFractionDigits: 0, maximumFractionDigits: 2, useGrouping: false }).format(n);
}

// The month of a day (YYYY-MM): its first and last day, as the calendar
// window's from and to.
export function monthWindow(month: string): { from: string; to: string } {
  const [y, m] = month.split("-").map(Number);
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return { from: `${month}-01`, to: `${month}-${String(last).padStart(2, "0")}` };
}

export function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split("-").map(Number);
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
}

// The agenda: the window's occurrences by their first day (the API sorts
// them by start; an all-day one starts with its date, a timed one with
// its local date and time).
export function agendaDays<T extends { starts_at: string }>(occurrences: T[]): { day: string; items: T[] }[] {
  const days: { day: string; items: T[] }[] = [];
  for (const o of occurrences) {
    const d = o.starts_at.slice(0, 10);
    const last = days[days.length - 1];
    if (last && last.day === d) last.items.push(o);
    else days.push({ day: d, items: [o] });
  }
  return days;
}

// A timed occurrence's local time as the API wrote it (RFC 3339 in the
// event's zone): "10:00" of "2026-03-02T10:00:00+01:00"; none all day.
export function localTime(startsAt: string): string | null {
  const m = /T(\d{2}:\d{2})/.exec(startsAt);
  return m ? m[1] : null;
}

// An event's start for the API: a date when all day, else the day and
// time with the offset of the zone at that moment (RFC 3339).
export function eventStart(dayText: string, time: string, allDay: boolean, timeZone: string): string {
  if (allDay) return dayText;
  const [y, mo, d] = dayText.split("-").map(Number);
  const [h, mi] = time.split(":").map(Number);
  const guess = Date.UTC(y, mo - 1, d, h, mi);
  const offset = zoneOffsetMinutes(guess, timeZone);
  const sign = offset < 0 ? "-" : "+";
  const abs = Math.abs(offset);
  return `${dayText}T${time}:00${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

// The zone's offset from UTC at a moment, in minutes (Berlin in summer: 120).
export function zoneOffsetMinutes(utcMillis: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat("en-US", { timeZone, hourCycle: "h23", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit" }).formatToParts(new Date(utcMillis));
  const get = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const local = Date.UTC(get("year"), get("month") - 1, get("day"), get("hour") % 24, get("minute"));
  return Math.round((local - utcMillis) / 60000);
}

export const roles = ["owner", "manager", "accountant", "viewer"] as const;
export type Role = (typeof roles)[number];

// An email the invitation form lets through (the API checks it again).
export function plausibleEmail(s: string): boolean {
  return /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(s.trim()) && s.trim().length <= 254;
}

// A schedule's time as the workspace's settings take it: "HH:MM", "off",
// or empty (back to the default).
export function scheduleValue(s: string): string | null | undefined {
  const v = s.trim();
  if (v === "") return null;
  if (v === "off") return "off";
  return /^([01]\d|2[0-3]):[0-5]\d$/.test(v) ? v : undefined;
}
