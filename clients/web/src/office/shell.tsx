// What every office page shares inside the landlord's shell (Layout): the
// signed-in check, the page's title, and files of the API fetched with the
// token in the Authorization header.
import { Stack, Title } from "@mantine/core";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router";
import { authFetch } from "../api/client";
import { toApiError } from "../api/errors";
import i18n from "../i18n";
import { useToken } from "../hooks";
import { filenameOf } from "../portal/logic";
import { getToken } from "../session";
import "./words";

export function useLng(): string {
  const { i18n } = useTranslation();
  return i18n.resolvedLanguage ?? "en";
}

export function OfficePage({ title, children }: { title: string; children: ReactNode }) {
  const token = useToken();
  const here = useLocation();
  if (!token) return <Navigate to={`/sign-in?next=${encodeURIComponent(here.pathname + here.search)}`} replace />;
  return (
    <Stack>
      <Title order={1}>{title}</Title>
      {children}
    </Stack>
  );
}

// A table wider than the page scrolls sideways in a region the keyboard
// can reach (focusable, named), so its last columns are not out of reach.
export function Wide({ minWidth, children }: { minWidth: number; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div role="region" aria-label={t("office.table")} tabIndex={0} style={{ overflowX: "auto" }}>
      <div style={{ minWidth }}>{children}</div>
    </div>
  );
}

// A file of the API (a spreadsheet, a PDF): fetched with the bearer token
// in the header, then saved under the server's name. The token is never
// in a URL. A refusal is thrown as the API's error.
export async function downloadFile(path: string, query: Record<string, string | number | undefined>, fallback: string) {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== "") params.set(k, String(v));
  const headers: Record<string, string> = { "Accept-Language": i18n.resolvedLanguage ?? "en" };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const qs = params.toString();
  const res = await authFetch()(new Request(`/api/v1${path}${qs ? `?${qs}` : ""}`, { headers }));
  if (!res.ok) {
    let body: unknown;
    try {
      body = await res.json();
    } catch {
      body = undefined;
    }
    throw toApiError(res.status, body);
  }
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filenameOf(res.headers.get("Content-Disposition"), fallback);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
