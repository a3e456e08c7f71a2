// The API's sign-in token (a bearer JWT; the API sets no cookie). It lives
// in memory and in sessionStorage: a reload of the tab keeps the session,
// closing the tab ends it, other tabs and sites never see it, and unlike
// localStorage it is not left on the device for the next person. The strict
// Content-Security-Policy (no inline or foreign script) is what keeps a
// script from reading it.
const KEY = "propman.token";

let token: string | null = read();
const listeners = new Set<() => void>();

function read(): string | null {
  try {
    return globalThis.sessionStorage?.getItem(KEY) ?? null;
  } catch {
    return null;
  }
}

export function getToken(): string | null {
  return token;
}

export function setToken(next: string | null): void {
  token = next;
  try {
    if (next) globalThis.sessionStorage?.setItem(KEY, next);
    else globalThis.sessionStorage?.removeItem(KEY);
  } catch {
    // Storage refused (private mode): the session lasts as long as the page.
  }
  listeners.forEach((l) => l());
}

export function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
