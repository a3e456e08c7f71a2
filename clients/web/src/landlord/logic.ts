// The landlord's screens' few computations, tested in logic.test.ts. The
// amounts a person reads are the API's; these only pick and order.
import type { components } from "../../../typescript/src/schema";

type Charge = components["schemas"]["Charge"];

// What falls due from `from` to `to` (both YYYY-MM-DD, inclusive) and is
// still owed, the earliest first; a cancelled charge owes nothing.
export function dueBetween(charges: Charge[], from: string, to: string): Charge[] {
  return charges
    .filter((c) => c.status !== "cancelled" && c.outstanding > 0 && c.due_date >= from && c.due_date <= to)
    .sort((a, b) => (a.due_date === b.due_date ? a.name.localeCompare(b.name) : a.due_date < b.due_date ? -1 : 1));
}

// Repairs not yet finished: every state but the closing ones.
const closed = new Set(["done", "closed", "rejected"]);
export function isOpenRepair(status: string): boolean {
  return !closed.has(status);
}

// A term's value typed as the agreement block asks: numbers from the
// reader's digits (a German "12,5" too), a date as typed (YYYY-MM-DD).
export function termValue(dataType: string, raw: string): number | boolean | string | null {
  const s = raw.trim();
  if (s === "") return null;
  switch (dataType) {
    case "int": {
      const n = Number(s);
      return Number.isInteger(n) ? n : null;
    }
    case "float": {
      const n = Number(s.replace(/\s/g, "").replace(",", "."));
      return Number.isFinite(n) ? n : null;
    }
    case "bool":
      return s === "true";
    default:
      return s;
  }
}


// Where a warning of GET /dashboard leads: a building's operating-cost
// statements (subject: the building), or the repair request (subjects:
// the request, then its property).
export function warningLink(w: { kind: string; subject_ids: string[] }): string {
  const [first = "", second = ""] = w.subject_ids;
  if (w.kind === "repair_deadline_passed") return second ? `/app/repairs/${second}/${first}` : "/app/repairs";
  return first ? `/app/opcosts/${first}` : "/app/opcosts";
}
