// The tenant portal's small decisions, kept apart from the pages so that
// Vitest checks them: what is due, in which order a thread reads, what a
// downloaded file is called.
import type { components } from "../../../typescript/src/schema";

export type Charge = components["schemas"]["Charge"];
export type Message = components["schemas"]["Message"];

// Today's calendar date where the reader is (YYYY-MM-DD): a charge due
// today is not overdue yet, wherever the server runs.
export function today(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export interface Due {
  charge: Charge;
  overdue: boolean;
}

// What is still to pay: every charge with an outstanding amount (a
// cancelled one never), the earliest due first, as the tenant pays them;
// overdue when its due date has passed.
export function whatIsDue(charges: Charge[], on: string): Due[] {
  return charges
    .filter((c) => c.status !== "cancelled" && c.outstanding > 0)
    .sort((a, b) => a.due_date.localeCompare(b.due_date) || a.created_at.localeCompare(b.created_at))
    .map((charge) => ({ charge, overdue: charge.due_date < on }));
}

// The API lists a thread newest first; a conversation reads oldest first,
// with the newest message next to the box to answer in.
export function conversation(messages: Message[]): Message[] {
  return [...messages].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

// The tenant's own messages are the ones filed as received (direction in).
export function fromTenant(m: Message): boolean {
  return m.direction === "in";
}

// The name the server gives a download (Content-Disposition, RFC 6266:
// filename* wins over filename), else the fallback. No folder survives.
export function filenameOf(header: string | null, fallback: string): string {
  let name = "";
  if (header) {
    const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
    if (star) {
      try {
        name = decodeURIComponent(star[1].trim());
      } catch {
        name = "";
      }
    }
    if (!name) {
      const plain = /filename\s*=\s*(?:"([^"]*)"|([^;]+))/i.exec(header);
      if (plain) name = (plain[1] ?? plain[2] ?? "").trim();
    }
  }
  name = name.replace(/^.*[\\/]/, "");
  return name || fallback;
}

// A tenant's photos of a repair (POST .../repair-requests/{id}/photos): at
// most 10 a form and 20 a request, the API's bounds. What the API refuses
// (not an image by its bytes, too large) it says; the page shows that.
export const PHOTOS_PER_FORM = 10;
export const PHOTOS_PER_REQUEST = 20;

// How many more photos a request with `has` of them takes in one form.
export function photoRoom(has: number): number {
  return Math.max(0, Math.min(PHOTOS_PER_FORM, PHOTOS_PER_REQUEST - has));
}

// The files picked so far and the new ones, the same file (name, size,
// time) once, at most `room` of them.
export function addPhotos(picked: File[], added: File[], room: number): File[] {
  const key = (f: File) => `${f.name}/${f.size}/${f.lastModified}`;
  const seen = new Set(picked.map(key));
  const out = [...picked];
  for (const f of added) {
    if (out.length >= room) break;
    if (seen.has(key(f))) continue;
    seen.add(key(f));
    out.push(f);
  }
  return out;
}

// The multipart form the API reads: one `photos` part a file.
export function photoForm(files: File[]): FormData {
  const form = new FormData();
  for (const f of files) form.append("photos", f, f.name);
  return form;
}
