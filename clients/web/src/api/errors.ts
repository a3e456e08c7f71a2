// What the API answers on failure ({error, message, details, wait}), as an
// Error, and the sentence a reader sees for it in their language.

export interface ApiErrorBody {
  error: string;
  message: string;
  details?: string[];
  wait?: number;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: string[] = [],
    readonly wait = 0,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

// The older shape of the sign-in routes: {code: 401, message} and
// {code: 429, message, wait}.
interface StatusBody {
  code: number;
  message?: string;
  wait?: number;
}

const statusCodes: Record<number, string> = { 401: "unauthorized", 403: "forbidden", 404: "not_found", 429: "rate_limit" };

// A network failure or an answer that is not the API's JSON (a proxy's
// page) becomes code "network" or "unexpected".
export function toApiError(status: number, body: unknown): ApiError {
  if (body && typeof body === "object") {
    const b = body as Partial<ApiErrorBody>;
    if (typeof b.error === "string") {
      return new ApiError(status, b.error, b.message ?? "", Array.isArray(b.details) ? b.details : [], b.wait ?? 0);
    }
    const s = body as Partial<StatusBody>;
    if (typeof s.code === "number") {
      return new ApiError(status, statusCodes[status] ?? "unexpected", s.message ?? "", [], s.wait ?? 0);
    }
  }
  return new ApiError(status, status === 0 ? "network" : "unexpected", "");
}

type Translate = (key: string, options?: Record<string, unknown>) => string;
type Exists = (key: string) => boolean;

// The catalogue's errors.<code> when it has one, else the API's own
// message (English), else a general sentence; details (which field) follow.
export function errorMessage(err: unknown, t: Translate, exists: Exists): string {
  const e = err instanceof ApiError ? err : new ApiError(0, "network", "");
  let text: string;
  if (exists(`errors.${e.code}`)) {
    text = t(`errors.${e.code}`, { wait: e.wait });
  } else if (e.message) {
    text = e.message;
  } else {
    text = t("errors.unexpected");
  }
  if (e.details.length > 0) text += " (" + e.details.join("; ") + ")";
  return text;
}
