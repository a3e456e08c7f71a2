import { afterEach, describe, expect, it, vi } from "vitest";
import { claims, getToken, renewIn, setToken, takeEnded } from "../session";
import { authFetch, renew } from "./client";

// A token as the API makes it (the signature is not read here).
const jwt = (c: object) => `x.${btoa(JSON.stringify(c)).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")}.sig`;

describe("when to renew the token", () => {
  const now = 1_800_000_000_000;
  it("reads exp and iat", () => {
    expect(claims(jwt({ exp: 10, iat: 5, sub: "ü" }))).toMatchObject({ exp: 10, iat: 5 });
    expect(claims("not a token")).toBeNull();
    expect(claims("a.%%%.b")).toBeNull();
  });
  it("two minutes before it expires", () => {
    const t = jwt({ iat: now / 1000, exp: now / 1000 + 86400 });
    expect(renewIn(t, now)).toBe(86400_000 - 120_000);
  });
  it("halfway through a short life", () => {
    expect(renewIn(jwt({ iat: now / 1000, exp: now / 1000 + 60 }), now)).toBe(30_000);
  });
  it("at once when that time is past, never later than a timer can wait", () => {
    expect(renewIn(jwt({ iat: now / 1000 - 100, exp: now / 1000 + 10 }), now)).toBe(0);
    expect(renewIn(jwt({ exp: now / 1000 + 60 * 86400 }), now)).toBe(2 ** 31 - 1);
  });
  it("not at all when the token tells no expiry", () => {
    expect(renewIn(jwt({ sub: "1" }), now)).toBeNull();
  });
});

// A fake API: /auth/refresh answers `renewed` (a new token) or 401; any
// other route answers 200 only to the token in `good`.
function server(opts: { renewed: string | null; good: string }) {
  const calls: string[] = [];
  const send = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const req = input instanceof Request ? input : new Request(new URL(String(input), "http://app"), init);
    const path = new URL(req.url).pathname;
    const auth = req.headers.get("Authorization");
    calls.push(`${req.method} ${path} ${auth ?? "-"}${req.method === "POST" && path !== "/api/v1/auth/refresh" ? " " + (await req.text()) : ""}`);
    if (path === "/api/v1/auth/refresh") {
      return opts.renewed ? Response.json({ message: "ok", token: opts.renewed, expires_in: 3600 }) : Response.json({ code: 401, message: "expired" }, { status: 401 });
    }
    if (path === "/api/v1/auth/login") return Response.json({ code: 401, message: "Invalid credentials." }, { status: 401 });
    return auth === `Bearer ${opts.good}` ? Response.json({ ok: true }) : Response.json({ error: "unauthorized", message: "" }, { status: 401 });
  });
  return { send: send as unknown as typeof fetch, calls };
}

const request = (path: string, token: string, body?: string) =>
  new Request(`http://app${path}`, { method: body ? "POST" : "GET", body, headers: { Authorization: `Bearer ${token}` } });

describe("a 401 to a signed-in request", () => {
  afterEach(() => setToken(null));

  it("renews the token once and sends the request again, body and all", async () => {
    setToken("old");
    const api = server({ renewed: "new", good: "new" });
    const res = await authFetch(api.send)(request("/api/v1/things", "old", '{"a":1}'));
    expect(res.status).toBe(200);
    expect(getToken()).toBe("new");
    expect(api.calls).toEqual([
      'POST /api/v1/things Bearer old {"a":1}',
      "POST /api/v1/auth/refresh Bearer old",
      'POST /api/v1/things Bearer new {"a":1}',
    ]);
  });

  it("ends the session when the API will not renew it, and says so once", async () => {
    setToken("old");
    const api = server({ renewed: null, good: "new" });
    const res = await authFetch(api.send)(request("/api/v1/things", "old"));
    expect(res.status).toBe(401);
    expect(getToken()).toBeNull();
    expect(api.calls).toHaveLength(2);
    expect(takeEnded()).toBe(true);
    expect(takeEnded()).toBe(false);
  });

  it("ends the session when the renewed token is refused too, without a third try", async () => {
    setToken("old");
    const api = server({ renewed: "new", good: "other" });
    const res = await authFetch(api.send)(request("/api/v1/things", "old"));
    expect(res.status).toBe(401);
    expect(getToken()).toBeNull();
    expect(api.calls).toHaveLength(3);
  });

  it("renews once for requests refused together", async () => {
    setToken("old");
    const api = server({ renewed: "new", good: "new" });
    const f = authFetch(api.send);
    const all = await Promise.all([f(request("/api/v1/a", "old")), f(request("/api/v1/b", "old")), f(request("/api/v1/c", "old"))]);
    expect(all.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(api.calls.filter((c) => c.includes("/auth/refresh"))).toHaveLength(1);
  });

  it("leaves a wrong password to the sign-in page", async () => {
    setToken("old");
    const api = server({ renewed: "new", good: "new" });
    const res = await authFetch(api.send)(request("/api/v1/auth/login", "old", "{}"));
    expect(res.status).toBe(401);
    expect(getToken()).toBe("old");
    expect(api.calls).toHaveLength(1);
  });

  it("does nothing signed out", async () => {
    const api = server({ renewed: "new", good: "new" });
    expect(await renew(api.send)).toBe(false);
    expect(api.calls).toHaveLength(0);
  });
});

describe("the sign-in page's message", () => {
  it("is not there after signing out", () => {
    setToken("t");
    setToken(null);
    expect(takeEnded()).toBe(false);
  });
});
