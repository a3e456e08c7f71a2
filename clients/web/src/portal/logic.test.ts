import { describe, expect, it } from "vitest";
import { addPhotos, conversation, filenameOf, fromTenant, photoForm, photoRoom, today, whatIsDue, type Charge, type Message } from "./logic";

const charge = (id: string, due: string, outstanding: number, status: Charge["status"] = "unpaid"): Charge => ({
  id, due_date: due, outstanding, status, amount: 950, paid_amount: 950 - outstanding, currency: "EUR",
  contract_id: "c", created_at: `${due}T08:00:00Z`, expense_id: null, kind: "regular", name: "Rent",
  name_kind: "rent", penalty_for: null, period: due.slice(0, 7), property_id: "p",
});

describe("what is due", () => {
  const charges = [
    charge("may", "2026-05-03", 950),
    charge("paid", "2026-03-03", 0, "paid"),
    charge("apr", "2026-04-03", 200, "partially_paid"),
    charge("gone", "2026-02-03", 950, "cancelled"),
    charge("jun", "2026-06-03", 950),
  ];
  it("lists what is outstanding, earliest first, never a cancelled or paid charge", () => {
    expect(whatIsDue(charges, "2026-05-03").map((d) => d.charge.id)).toEqual(["apr", "may", "jun"]);
  });
  it("is overdue only after the due date", () => {
    expect(whatIsDue(charges, "2026-05-03").map((d) => d.overdue)).toEqual([true, false, false]);
    expect(whatIsDue(charges, "2026-05-04").map((d) => d.overdue)).toEqual([true, true, false]);
  });
  it("today is the reader's calendar day", () => {
    expect(today(new Date(2026, 0, 9, 23, 59))).toBe("2026-01-09");
  });
});

describe("the thread", () => {
  const msg = (id: string, at: string, direction: Message["direction"]) => ({ id, created_at: at, direction }) as Message;
  it("reads oldest first; equal times keep one order", () => {
    const list = [msg("c", "2026-05-03T10:00:00Z", "in"), msg("b", "2026-05-02T10:00:00Z", "out"), msg("a", "2026-05-03T10:00:00Z", "out")];
    expect(conversation(list).map((m) => m.id)).toEqual(["b", "a", "c"]);
    expect(list.map((m) => m.id)).toEqual(["c", "b", "a"]);
  });
  it("the tenant's messages are the received ones", () => {
    expect(fromTenant(msg("a", "", "in"))).toBe(true);
    expect(fromTenant(msg("a", "", "out"))).toBe(false);
  });
});

describe("a download's name", () => {
  it.each([
    [`attachment; filename="receipt-2026-000001.pdf"`, "receipt-2026-000001.pdf"],
    [`attachment; filename=plain.pdf`, "plain.pdf"],
    [`attachment; filename="Quittung.pdf"; filename*=UTF-8''Quittung%20M%C3%A4rz.pdf`, "Quittung März.pdf"],
    [`attachment; filename="../../etc/passwd"`, "passwd"],
    [`attachment; filename*=UTF-8''%E0%A4%A`, "fallback.pdf"],
    [`inline`, "fallback.pdf"],
  ])("%s", (header, want) => {
    expect(filenameOf(header, "fallback.pdf")).toBe(want);
  });
  it("without the header", () => {
    expect(filenameOf(null, "fallback.pdf")).toBe("fallback.pdf");
  });
});

describe("a repair's photos", () => {
  const file = (name: string, size = 3, t = 1) => new File([new Uint8Array(size)], name, { type: "image/jpeg", lastModified: t });
  it("10 a form, 20 a request", () => {
    expect(photoRoom(0)).toBe(10);
    expect(photoRoom(14)).toBe(6);
    expect(photoRoom(20)).toBe(0);
    expect(photoRoom(25)).toBe(0);
  });
  it("adds new files once, up to the room left", () => {
    const a = file("a.jpg");
    const picked = addPhotos([], [a, file("b.jpg"), a], 10);
    expect(picked.map((f) => f.name)).toEqual(["a.jpg", "b.jpg"]);
    expect(addPhotos(picked, [file("a.jpg"), file("c.jpg"), file("d.jpg")], 3).map((f) => f.name)).toEqual(["a.jpg", "b.jpg", "c.jpg"]);
    // The same name from another shot is another photo.
    expect(addPhotos([a], [file("a.jpg", 5, 2)], 10)).toHaveLength(2);
  });
  it("one photos part a file, under its name", () => {
    const form = photoForm([file("a.jpg"), file("b.webp")]);
    expect(form.getAll("photos").map((f) => (f as File).name)).toEqual(["a.jpg", "b.webp"]);
    expect([...form.keys()]).toEqual(["photos", "photos"]);
  });
});
