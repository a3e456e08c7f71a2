// What the desk's pages (books, calendar, team and settings) share: the
// landlord's page frame and lists, their words, the workspace acted in,
// the properties and suppliers to choose from, and the API's files.
import { Button, Group, Stack } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, ok } from "../api/client";
import { useWorkspaceId } from "../landlord/Shell";
import { download, Failure, json } from "../landlord/common";
import "./words";

// The workspace the shell acts in: the one picked, else the default one
// (as the API does without X-Workspace-ID). Same query as the shell's.
export function useCurrentWorkspace() {
  const chosen = useWorkspaceId();
  const q = useQuery({
    queryKey: ["workspaces"],
    queryFn: async () => (await ok(api.GET("/api/v1/workspaces"))).workspaces,
  });
  const list = q.data ?? [];
  const current = list.find((w) => String(w.id) === chosen) ?? list.find((w) => w.is_default) ?? list[0];
  return { ...q, current };
}

// The workspace's properties in use (the first 100), to choose from.
export function useProperties() {
  return useQuery({
    queryKey: ["desk", "properties"],
    queryFn: async () => json(await ok(api.GET("/api/v1/properties", { params: { query: { archived: "false", per_page: 100 } } }))).properties,
  });
}

// The caller's suppliers (contragents with the role provider; the first 100).
export function useSuppliers() {
  return useQuery({
    queryKey: ["contragents", "providers"],
    queryFn: async () => json(await ok(api.GET("/api/v1/contragents", { params: { query: { role: "provider", per_page: 100 } } }))).contragents,
  });
}

// Buttons that save the API's CSV and Excel file of a list (or the PDF
// of a report): `call` asks for one format; a refusal is the API's message.
export function Files({ formats, call, name }: { formats: readonly ("csv" | "xlsx" | "pdf")[]; call: (format: "csv" | "xlsx" | "pdf") => Promise<{ data?: unknown; error?: unknown; response: Response }>; name: string }) {
  const { t } = useTranslation();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState("");
  return (
    <Stack gap="xs">
      <Group gap="xs">
        {formats.map((format) => (
          <Button
            key={format}
            size="xs"
            variant="default"
            loading={busy === format}
            onClick={() => {
              setError(null);
              setBusy(format);
              download(call(format), `${name}.${format}`)
                .catch(setError)
                .finally(() => setBusy(""));
            }}
          >
            {t(`desk.download.${format}`)}
          </Button>
        ))}
      </Group>
      <Failure error={error} />
    </Stack>
  );
}
