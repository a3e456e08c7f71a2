// The repairs board (issue 49, slice 4): the workspace's overdue requests,
// a property's requests by state, and a request's page: triage, reject,
// order from a provider, the work order (its offered times, the booked
// visit, the provider's note and invoice), close, and the recharge to the
// tenant. The API lists requests per property (and the overdue ones over
// the workspace); there is no workspace-wide list by state.
import { Anchor, Badge, Button, Group, NativeSelect, Paper, SimpleGrid, Stack, Table, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import type { components } from "../../../typescript/src/schema";
import { api, ok } from "../api/client";
import { ApiError } from "../api/errors";
import { formatDate, formatDateTime, formatMoney } from "../format";
import { Failure, Loading } from "../pages/common";
import { repairStatuses } from "./logic";
import { downloadFile, OfficePage, useLng } from "./shell";

type S = components["schemas"];
type Request = S["RepairRequest"];

function json<T>(x: T | string): T {
  if (typeof x === "string") throw new ApiError(0, "unexpected", "");
  return x;
}

const statusColor: Record<string, string> = {
  reported: "red", triaged: "orange", ordered: "yellow", scheduled: "blue", done: "green", closed: "gray", rejected: "gray",
};

function StatusBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={statusColor[status]} variant="light" c="dark.8">
      {t(`portal.repairs.status.${status}`)}
    </Badge>
  );
}

function useProperties() {
  return useQuery({
    queryKey: ["office", "properties", "in-use"],
    queryFn: async () => json(await ok(api.GET("/api/v1/properties", { params: { query: { archived: "false", per_page: 100 } } }))).properties,
  });
}

function RequestLine({ r }: { r: Request }) {
  const { t } = useTranslation();
  const lng = useLng();
  return (
    <Paper component="li" withBorder p="sm">
      <Group justify="space-between">
        <Anchor component={Link} to={`/app/repairs/${r.property_id}/${r.id}`} fw={600}>
          {r.title}
        </Anchor>
        <StatusBadge status={r.status} />
      </Group>
      <Text size="sm">
        {t(`workOrder.categories.${r.category}`)} · {t(`workOrder.urgencies.${r.urgency}`)} · {t("office.repairs.due", { date: formatDateTime(r.deadline_at, lng) })}
      </Text>
    </Paper>
  );
}

const listStyle = { listStyle: "none", padding: 0, margin: 0 };

export function RepairsPage() {
  const { t } = useTranslation();
  const props = useProperties();
  const [property, setProperty] = useState("");
  const [status, setStatus] = useState("");
  const chosen = property || props.data?.[0]?.id || "";
  const overdue = useQuery({
    queryKey: ["office", "repairs", "overdue"],
    queryFn: async () => json(await ok(api.GET("/api/v1/repair-requests/overdue", { params: { query: { per_page: 50 } } }))),
  });
  const list = useInfiniteQuery({
    queryKey: ["office", "repairs", chosen, status],
    enabled: !!chosen,
    queryFn: async ({ pageParam }) =>
      json(
        await ok(
          api.GET("/api/v1/properties/{propertyId}/repair-requests", {
            params: { path: { propertyId: chosen }, query: { per_page: 50, after: pageParam, status: (status || undefined) as S["RepairStatus"] | undefined } },
          }),
        ),
      ),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const requests = list.data?.pages.flatMap((p) => p.repair_requests) ?? [];
  const shown = status ? [status] : repairStatuses;
  return (
    <OfficePage title={t("office.repairs.title")}>
      <Title order={2}>{t("office.repairs.overdue")}</Title>
      {overdue.isPending ? (
        <Loading />
      ) : overdue.error ? (
        <Failure error={overdue.error} />
      ) : overdue.data.repair_requests.length === 0 ? (
        <Text c="dimmed">{t("office.repairs.noneOverdue")}</Text>
      ) : (
        <Stack component="ul" gap="xs" style={listStyle}>
          {overdue.data.repair_requests.map((r) => (
            <RequestLine key={r.id} r={r} />
          ))}
        </Stack>
      )}
      <Title order={2}>{t("office.repairs.byProperty")}</Title>
      <Group align="flex-end">
        <NativeSelect
          label={t("office.reports.property")}
          value={chosen}
          onChange={(e) => setProperty(e.currentTarget.value)}
          data={(props.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          w={260}
        />
        <NativeSelect
          label={t("office.repairs.state")}
          value={status}
          onChange={(e) => setStatus(e.currentTarget.value)}
          data={[{ value: "", label: t("office.repairs.allStates") }, ...repairStatuses.map((s) => ({ value: s, label: t(`portal.repairs.status.${s}`) }))]}
        />
      </Group>
      {!chosen ? (
        <Text c="dimmed">{t("office.repairs.noProperty")}</Text>
      ) : list.isPending ? (
        <Loading />
      ) : list.error ? (
        <Failure error={list.error} />
      ) : requests.length === 0 ? (
        <Text c="dimmed">{t("office.repairs.none")}</Text>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: status ? 1 : 2 }}>
          {shown
            .map((s) => ({ s, rs: requests.filter((r) => r.status === s) }))
            .filter(({ rs }) => rs.length > 0)
            .map(({ s, rs }) => (
              <Stack key={s} gap="xs">
                <Title order={3}>
                  {t(`portal.repairs.status.${s}`)} ({rs.length})
                </Title>
                <Stack component="ul" gap="xs" style={listStyle}>
                  {rs.map((r) => (
                    <RequestLine key={r.id} r={r} />
                  ))}
                </Stack>
              </Stack>
            ))}
        </SimpleGrid>
      )}
      {list.hasNextPage && (
        <Button variant="default" w="fit-content" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
          {t("office.more")}
        </Button>
      )}
    </OfficePage>
  );
}

export function RepairPage() {
  const { t } = useTranslation();
  const lng = useLng();
  const { propertyId = "", requestId = "" } = useParams();
  const queries = useQueryClient();
  const key = ["office", "repair", propertyId, requestId];
  const path = { propertyId, requestId };
  const r = useQuery({
    queryKey: key,
    queryFn: () => ok(api.GET("/api/v1/properties/{propertyId}/repair-requests/{requestId}", { params: { path } })),
  });
  const set = (next: Request) => queries.setQueryData(key, next);
  const move = useMutation({
    mutationFn: (body: S["RepairTransition"]) => ok(api.POST("/api/v1/properties/{propertyId}/repair-requests/{requestId}/transition", { params: { path }, body })),
    onSuccess: set,
  });
  const [reason, setReason] = useState("");
  const [provider, setProvider] = useState("");
  const providers = useQuery({
    queryKey: ["office", "providers"],
    queryFn: async () => json(await ok(api.GET("/api/v1/contragents", { params: { query: { role: "provider", per_page: 100 } } }))).contragents,
  });
  const order = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/properties/{propertyId}/repair-requests/{requestId}/work-orders", { params: { path }, body: { provider_id: provider } })),
    onSuccess: set,
  });
  const [due, setDue] = useState(new Date(Date.now() + 14 * 86400_000).toISOString().slice(0, 10));
  const recharge = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/properties/{propertyId}/repair-requests/{requestId}/recharge", { params: { path }, body: { due_date: due } })),
    onSuccess: (res) => set(res),
  });
  const [fileError, setFileError] = useState<unknown>(null);
  // Amounts are in the property's currency.
  const property = useQuery({
    queryKey: ["office", "property", propertyId],
    queryFn: () => ok(api.GET("/api/v1/properties/{propertyId}", { params: { path: { propertyId } } })),
  });
  if (r.isPending) return <OfficePage title={t("office.repairs.title")}><Loading /></OfficePage>;
  if (r.error) return <OfficePage title={t("office.repairs.title")}><Failure error={r.error} /></OfficePage>;
  const q = r.data;
  const wo = q.work_order;
  const providerName = (id: string) => providers.data?.find((p) => p.id === id)?.name ?? "…";
  const currency = property.data?.currency ?? "EUR";
  return (
    <OfficePage title={q.title}>
      <Anchor component={Link} to="/app/repairs" size="sm">
        ← {t("office.repairs.title")}
      </Anchor>
      <Group>
        <StatusBadge status={q.status} />
        <Text size="sm">{t("office.repairs.due", { date: formatDateTime(q.deadline_at, lng) })}</Text>
      </Group>
      <Table>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th scope="row">{t("workOrder.category")}</Table.Th>
            <Table.Td>{t(`workOrder.categories.${q.category}`)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">{t("workOrder.urgency")}</Table.Th>
            <Table.Td>{t(`workOrder.urgencies.${q.urgency}`)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">{t("office.repairs.reportedBy")}</Table.Th>
            <Table.Td>
              {t(`office.repairs.source.${q.source}`)}, {formatDateTime(q.created_at, lng)}
            </Table.Td>
          </Table.Tr>
          {q.description && (
            <Table.Tr>
              <Table.Th scope="row">{t("office.repairs.description")}</Table.Th>
              <Table.Td style={{ whiteSpace: "pre-wrap" }}>{q.description}</Table.Td>
            </Table.Tr>
          )}
          {q.access_notes && (
            <Table.Tr>
              <Table.Th scope="row">{t("workOrder.access")}</Table.Th>
              <Table.Td>{q.access_notes}</Table.Td>
            </Table.Tr>
          )}
          {q.preferred_times && (
            <Table.Tr>
              <Table.Th scope="row">{t("workOrder.preferred")}</Table.Th>
              <Table.Td>{q.preferred_times}</Table.Td>
            </Table.Tr>
          )}
          {q.reject_reason && (
            <Table.Tr>
              <Table.Th scope="row">{t("office.repairs.rejectReason")}</Table.Th>
              <Table.Td>{q.reject_reason}</Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>

      {(q.status === "reported" || q.status === "triaged") && (
        <Stack gap="xs">
          <Title order={2}>{t("office.repairs.decide")}</Title>
          {q.status === "reported" && (
            <Button w="fit-content" onClick={() => move.mutate({ to: "triaged" })} loading={move.isPending}>
              {t("office.repairs.triage")}
            </Button>
          )}
          {q.status === "triaged" && (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                order.mutate();
              }}
            >
              <Group align="flex-end">
                <NativeSelect
                  label={t("office.repairs.provider")}
                  required
                  value={provider}
                  onChange={(e) => setProvider(e.currentTarget.value)}
                  data={[{ value: "", label: t("office.repairs.pickProvider") }, ...(providers.data ?? []).map((p) => ({ value: p.id, label: p.name }))]}
                />
                <Button type="submit" disabled={!provider} loading={order.isPending}>
                  {t("office.repairs.order")}
                </Button>
              </Group>
            </form>
          )}
          <form
            onSubmit={(e) => {
              e.preventDefault();
              move.mutate({ to: "rejected", reason });
            }}
          >
            <Stack gap="xs">
              <Textarea label={t("office.repairs.rejectReason")} value={reason} onChange={(e) => setReason(e.currentTarget.value)} required maxLength={2000} />
              <Button type="submit" variant="default" w="fit-content" disabled={!reason.trim()} loading={move.isPending}>
                {t("office.repairs.reject")}
              </Button>
            </Stack>
          </form>
          <Failure error={move.error ?? order.error} />
        </Stack>
      )}

      {wo && (
        <Stack gap="xs">
          <Title order={2}>{t("office.repairs.workOrder")}</Title>
          <Text>
            {t("office.repairs.orderedFrom", { provider: providerName(wo.provider_id) })} · {t(`office.repairs.orderStatus.${wo.status}`)}
          </Text>
          <Text size="sm">{t("office.repairs.expires", { date: formatDateTime(wo.expires_at, lng) })}</Text>
          {wo.slots.length > 0 && (
            <>
              <Text size="sm" fw={600}>
                {t("office.repairs.slots")}
              </Text>
              <Stack component="ul" gap={2} style={{ margin: 0 }}>
                {wo.slots.map((s) => (
                  <Text component="li" size="sm" key={s.start}>
                    {formatDateTime(s.start, lng)} – {formatDateTime(s.end, lng)}
                  </Text>
                ))}
              </Stack>
            </>
          )}
          {q.visit && <Text fw={600}>{t("office.repairs.visit", { from: formatDateTime(q.visit.start, lng), to: formatDateTime(q.visit.end, lng) })}</Text>}
          {wo.note && <Text size="sm">{t("office.repairs.note", { note: wo.note })}</Text>}
          {wo.invoice_amount !== null && wo.invoice_amount !== undefined && (
            <Text>
              {t("office.repairs.invoice", { amount: formatMoney(wo.invoice_amount, currency, lng) })}
              {wo.invoice_vat_amount !== null && wo.invoice_vat_amount !== undefined && ` (${t("office.repairs.vat", { amount: formatMoney(wo.invoice_vat_amount, currency, lng) })})`}
            </Text>
          )}
          {wo.invoice_document_id && (
            <Button
              size="xs"
              variant="default"
              w="fit-content"
              onClick={() => {
                setFileError(null);
                downloadFile(`/properties/${q.property_id}/documents/${wo.invoice_document_id}/content`, {}, "invoice").catch(setFileError);
              }}
            >
              {t("office.repairs.invoiceFile")}
            </Button>
          )}
          <Failure error={fileError} />
        </Stack>
      )}

      {q.status === "done" && (
        <Button w="fit-content" onClick={() => move.mutate({ to: "closed" })} loading={move.isPending}>
          {t("office.repairs.close")}
        </Button>
      )}

      {(q.status === "done" || q.status === "closed") && (
        <Stack gap="xs">
          <Title order={2}>{t("office.repairs.recharge")}</Title>
          {q.recharge ? (
            <Text>
              {t("office.repairs.recharged", { amount: formatMoney(q.recharge.amount, currency, lng), date: formatDate(q.recharge.repair_on, lng) })}
            </Text>
          ) : (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                recharge.mutate();
              }}
            >
              <Text size="sm">{t("office.repairs.rechargeHint")}</Text>
              <Group align="flex-end" mt="xs">
                <TextInput type="date" required label={t("office.repairs.dueDate")} value={due} onChange={(e) => setDue(e.currentTarget.value)} />
                <Button type="submit" variant="default" loading={recharge.isPending}>
                  {t("office.repairs.rechargeButton")}
                </Button>
              </Group>
            </form>
          )}
          <Failure error={recharge.error ?? (q.status === "done" ? move.error : null)} />
        </Stack>
      )}
    </OfficePage>
  );
}
