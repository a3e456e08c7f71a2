// The API's sign-in token (a bearer JWT; the API sets no cookie). It lives
// in memory and in sessionStorage: a reload of the tab keeps the session,
// closing the tab ends it, other tabs and sites never see it, and unlike
// localStorage it is not left on the device for the next person. The strict
// Content-Security-Policy (no inline or foreign script) is what keeps a
// script from reading it.
//
// The token is renewed before it expires (POST /auth/refresh, src/api/client.ts);
// when the API refuses that (the login is older than auth.maxage), the
// session ends with a reason the sign-in page shows.
const KEY = "propman.token";
const ENDED = "propman.ended";

let token: string | null = read(KEY);
let ended = read(ENDED) === "expired";
const listeners = new Set<() => void>();

function read(key: string): string | null {
  try {
    return globalThis.sessionStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value) globalThis.sessionStorage?.setItem(key, value);
    else globalThis.sessionStorage?.removeItem(key);
  } catch {
    // Storage refused (private mode): the session lasts as long as the page.
  }
}

export function getToken(): string | null {
  return token;
}

export function setToken(next: string | null): void {
  token = next;
  write(KEY, next);
  if (next) {
    ended = false;
    write(ENDED, null);
  }
  listeners.forEach((l) => l());
}

// The session ended without the person signing out (the API answered 401
// and could not renew the token): the sign-in page says so once.
export function endSession(): void {
  setToken(null);
  ended = true;
  write(ENDED, "expired");
}

// Whether the last session ended by itself; reading it clears it.
export function takeEnded(): boolean {
  const was = ended;
  ended = false;
  write(ENDED, null);
  return was;
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

// The token's claims (exp, iat in seconds), read without checking its
// signature: only to know when to renew it. null for anything else.
export function claims(jwt: string): { exp?: number; iat?: number } | null {
  const part = jwt.split(".")[1];
  if (!part) return null;
  try {
    const b64 = part.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(part.length / 4) * 4, "=");
    const c = JSON.parse(atob(b64)) as unknown;
    return c && typeof c === "object" ? (c as { exp?: number; iat?: number }) : null;
  } catch {
    return null;
  }
}

// How long from now (ms) to renew the token: two minutes before it
// expires, or halfway through a shorter life; 0 when that time is past;
// null when the token tells no expiry. Never more than a timer can wait.
export function renewIn(jwt: string, now: number): number | null {
  const c = claims(jwt);
  if (!c || typeof c.exp !== "number") return null;
  const exp = c.exp * 1000;
  const life = typeof c.iat === "number" ? exp - c.iat * 1000 : Infinity;
  const margin = Math.min(120_000, life / 2);
  return Math.min(Math.max(0, exp - margin - now), 2 ** 31 - 1);
}
