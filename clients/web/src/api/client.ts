import createClient, { type Middleware } from "openapi-fetch";
// The types generated from the served doc.json (clients/typescript): every
// path, body and answer is checked against the API at compile time.
import type { paths } from "../../../typescript/src/schema";
import i18n from "../i18n";
import { getToken, setToken } from "../session";
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
  onResponse({ response }) {
    // An expired or revoked token: sign out, so the page asks again.
    if (response.status === 401 && getToken()) setToken(null);
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: "" });
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
