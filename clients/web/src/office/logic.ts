// What the office screens decide without the server: which actions a bank
// line offers, the query a filter asks for, the chart rows drawn from a
// report. Numbers are the API's; nothing here adds money up.
import { intlLocale } from "../format";

export type LineStatus = "posted" | "suggested" | "unmatched" | "ignored" | "debit";
export const lineStatuses: LineStatus[] = ["suggested", "unmatched", "debit", "posted", "ignored"];

// The matcher's reasons (modules/banking): each has a sentence in the
// locales; one the app does not know yet is shown as the API sends it.
export const knownReasons = [
  "reference", "reference_typo", "receipt_number", "payer_iban", "payer_name", "amount_open_charge",
  "amount_oldest_charges", "split_by_payer", "conflicting_signals", "several_candidates", "weak_signal",
  "no_signal", "future_date", "other_currency", "returned_debit", "returned_payment_not_found", "debit",
  "supplier_name", "manual_match", "ignored",
] as const;

export function reasonKey(reason: string): string | null {
  return (knownReasons as readonly string[]).includes(reason) ? `office.bank.reason.${reason}` : null;
}

// The API takes a match only for an undecided credit, an ignore for any
// undecided line (a debit too).
export function canMatch(line: { status: string; amount: number }): boolean {
  return (line.status === "suggested" || line.status === "unmatched") && line.amount > 0;
}

export function canIgnore(line: { status: string }): boolean {
  return line.status === "suggested" || line.status === "unmatched" || line.status === "debit";
}

export interface LineFilter {
  account: string;
  status: string;
  from: string;
  to: string;
}

// The filter as the list's query: empty fields left out, so the API's
// defaults apply; a day only when it is a whole YYYY-MM-DD.
export function lineQuery(f: LineFilter, after?: string, perPage = 50) {
  const day = (s: string) => (/^\d{4}-\d{2}-\d{2}$/.test(s) ? s : undefined);
  const q: {
    per_page: number;
    after?: string;
    bank_account_id?: string;
    status?: LineStatus;
    from?: string;
    to?: string;
  } = { per_page: perPage };
  if (after) q.after = after;
  if (f.account) q.bank_account_id = f.account;
  if ((lineStatuses as string[]).includes(f.status)) q.status = f.status as LineStatus;
  if (day(f.from)) q.from = day(f.from);
  if (day(f.to)) q.to = day(f.to);
  return q;
}

// The month "2026-03" as the reader names it ("März 2026" is too long on
// an axis: "Mär" / "Mar").
export function monthLabel(month: string, lng: string): string {
  const m = /^(\d{4})-(\d{2})$/.exec(month);
  if (!m) return month;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, 1));
  return new Intl.DateTimeFormat(intlLocale(lng), { month: "short", timeZone: "UTC" }).format(d);
}

interface IncomeMonthLike {
  month?: string;
  currency: string;
  charged: number;
  collected: number;
  outstanding: number;
  income: number;
}

// The income report's twelve months of one currency, as chart rows.
export function incomeRows(months: IncomeMonthLike[], currency: string, lng: string) {
  return months
    .filter((m) => m.currency === currency && m.month)
    .map((m) => ({ month: monthLabel(m.month!, lng), charged: m.charged, collected: m.collected, outstanding: m.outstanding, income: m.income }));
}

export function currencies(rows: { currency: string }[]): string[] {
  return [...new Set(rows.map((r) => r.currency))];
}

interface ArrearsTotalLike {
  currency: string;
  days_0_30: number;
  days_31_60: number;
  days_61_90: number;
  days_over_90: number;
}

export const ageBuckets = ["days_0_30", "days_31_60", "days_61_90", "days_over_90"] as const;

// The arrears' totals of one currency by age, as chart rows (the API's
// sums, one bar a bucket).
export function arrearsRows(total: ArrearsTotalLike) {
  return ageBuckets.map((b) => ({ bucket: b, amount: total[b] }));
}

// The month before this one, YYYY-MM, for the owner statement's default:
// a statement is of a month that is over.
export function lastMonth(now = new Date()): string {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return d.toISOString().slice(0, 7);
}

// The calendar year before this one: the period an operating-cost
// statement is most often drawn up for.
export function previousYear(now = new Date()): { from: string; to: string } {
  const y = now.getUTCFullYear() - 1;
  return { from: `${y}-01-01`, to: `${y}-12-31` };
}

// The first day of next month: the earliest a new prepayment can apply.
export function firstOfNextMonth(now = new Date()): string {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 10);
}

// A repair request's states, in the order a request moves through them.
export const repairStatuses = ["reported", "triaged", "ordered", "scheduled", "done", "closed", "rejected"];
