import createClient, { type Middleware } from "openapi-fetch";
// The types generated from the served doc.json (clients/typescript): every
// path, body and answer is checked against the API at compile time.
import type { paths } from "../../../typescript/src/schema";
import i18n from "../i18n";
import { endSession, getToken, renewIn, setToken, subscribe } from "../session";
import { getWorkspace } from "../landlord/workspace";
import { ApiError, toApiError } from "./errors";

const auth: Middleware = {
  onRequest({ request }) {
    const token = getToken();
    if (token) request.headers.set("Authorization", `Bearer ${token}`);
    request.headers.set("Accept-Language", i18n.resolvedLanguage ?? "en");
    // The workspace picked in the landlord's shell; else the default one.
    const workspace = getWorkspace();
    if (workspace && !request.headers.has("X-Workspace-ID")) request.headers.set("X-Workspace-ID", workspace);
    return request;
  },
};

// One renewal at a time: requests that meet a 401 together wait for the
// same POST /auth/refresh. true when a new token was set.
let renewing: Promise<boolean> | null = null;

export function renew(send: typeof fetch = globalThis.fetch): Promise<boolean> {
  const token = getToken();
  if (!token) return Promise.resolve(false);
  renewing ??= (async () => {
    try {
      const res = await send("/api/v1/auth/refresh", { method: "POST", headers: { Authorization: `Bearer ${token}` } });
      if (!res.ok) return false;
      const body = (await res.json()) as { token?: string };
      if (!body.token) return false;
      // Signed out meanwhile: keep it that way.
      if (getToken() !== token) return false;
      setToken(body.token);
      return true;
    } catch {
      return false;
    } finally {
      renewing = null;
    }
  })();
  return renewing;
}

// Every call of the API goes through here: a 401 to a signed-in request
// renews the token once and sends the request again with it; when that
// fails too the session ends (the page goes to sign-in and back to where
// the reader was, with a message). The sign-in routes' own 401 (a wrong
// password) is left to the page.
export function authFetch(send: typeof fetch = globalThis.fetch) {
  return async (input: Request): Promise<Response> => {
    const sent = getToken();
    const again = sent ? input.clone() : null;
    const res = await send(input);
    if (res.status !== 401 || !sent || !again || new URL(input.url, "http://x").pathname.startsWith("/api/v1/auth/")) return res;
    // Signed out meanwhile: nothing to renew, nothing to tell.
    if (!getToken()) return res;
    if (getToken() !== sent || (await renew(send))) {
      const now = getToken();
      if (now) {
        again.headers.set("Authorization", `Bearer ${now}`);
        const second = await send(again);
        if (second.status !== 401) return second;
      }
    }
    endSession();
    return res;
  };
}

// Renew the token shortly before it expires, for as long as the tab is
// signed in; a refused renewal ends the session.
let timer: ReturnType<typeof setTimeout> | undefined;
export function keepRenewed(now: () => number = Date.now): () => void {
  const plan = () => {
    clearTimeout(timer);
    const token = getToken();
    const wait = token ? renewIn(token, now()) : null;
    if (wait === null) return;
    timer = setTimeout(() => {
      void renew().then((ok) => {
        if (!ok && getToken() === token) endSession();
      });
    }, wait);
  };
  plan();
  const stop = subscribe(plan);
  return () => {
    stop();
    clearTimeout(timer);
  };
}

export const api = createClient<paths>({ baseUrl: "", fetch: (req) => authFetch()(req) });
api.use(auth);

// The answer's data, or an ApiError the pages show with errorMessage.
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let res: { data?: T; error?: unknown; response: Response };
  try {
    res = await call;
  } catch {
    throw new ApiError(0, "network", "");
  }
  if (res.error !== undefined || !res.response.ok) throw toApiError(res.response.status, res.error);
  return res.data as T;
}
