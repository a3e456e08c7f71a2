import { Badge, Button, Group, NumberInput, Paper, Stack, Table, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { api, ok } from "../api/client";
import { formatDateTime } from "../format";
import { Failure, Loading } from "./common";

// A provider's work order (modules/repairs): the mailed link is the
// credential; the provider has no account.
export function WorkOrder() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? "en";
  const { token = "" } = useParams();
  const queries = useQueryClient();
  const key = ["work-order", token];
  const order = useQuery({
    queryKey: key,
    queryFn: () => ok(api.GET("/api/v1/work-orders/{token}", { params: { path: { token } } })),
    retry: false,
  });
  const path = { params: { path: { token } } };
  const refresh = () => queries.invalidateQueries({ queryKey: key });
  const [note, setNote] = useState("");
  const [invoice, setInvoice] = useState<number | string>("");
  const [slot, setSlot] = useState({ start: "", end: "" });
  const accept = useMutation({ mutationFn: () => ok(api.POST("/api/v1/work-orders/{token}/accept", path)), onSuccess: refresh });
  const decline = useMutation({ mutationFn: () => ok(api.POST("/api/v1/work-orders/{token}/decline", { ...path, body: { note } })), onSuccess: refresh });
  // datetime-local is the reader's local time; the API takes instants.
  const slots = useMutation({
    mutationFn: () =>
      ok(api.POST("/api/v1/work-orders/{token}/slots", { ...path, body: { slots: [{ start: new Date(slot.start).toISOString(), end: new Date(slot.end).toISOString() }] } })),
    onSuccess: refresh,
  });
  const done = useMutation({
    mutationFn: () =>
      ok(api.POST("/api/v1/work-orders/{token}/done", { ...path, body: { note, ...(invoice === "" ? {} : { invoice_amount: Number(invoice) }) } })),
    onSuccess: refresh,
  });
  if (order.isPending) return <Loading />;
  if (order.error) return <Failure error={order.error} />;
  const o = order.data;
  const r = o.request;
  const rows: [string, string][] = [
    [t("workOrder.place"), o.place],
    [t("workOrder.category"), t(`workOrder.categories.${r.category}`, { defaultValue: r.category })],
    [t("workOrder.urgency"), t(`workOrder.urgencies.${r.urgency}`, { defaultValue: r.urgency })],
    [t("workOrder.deadline"), formatDateTime(r.deadline_at, lng)],
    [t("workOrder.access"), r.access_notes],
    [t("workOrder.preferred"), r.preferred_times],
  ];
  if (r.visit) rows.push([t("workOrder.visit"), `${formatDateTime(r.visit.start, lng)} – ${formatDateTime(r.visit.end, lng)}`]);
  return (
    <Stack>
      <Title order={1}>
        {t("workOrder.title")}: {r.title}
      </Title>
      <Group>
        <Text>{t("workOrder.for", { provider: o.provider })}</Text>
        <Badge>{t(`workOrder.statuses.${o.status}`, { defaultValue: o.status })}</Badge>
      </Group>
      <Text style={{ whiteSpace: "pre-line" }}>{r.description}</Text>
      <Table>
        <Table.Tbody>
          {rows
            .filter(([, v]) => v)
            .map(([k, v]) => (
              <Table.Tr key={k}>
                <Table.Th scope="row">{k}</Table.Th>
                <Table.Td>{v}</Table.Td>
              </Table.Tr>
            ))}
        </Table.Tbody>
      </Table>
      <Text size="sm">{t("workOrder.expires", { date: formatDateTime(o.expires_at, lng) })}</Text>
      <Failure error={accept.error ?? decline.error ?? slots.error ?? done.error} />
      {o.status === "sent" && (
        <Button onClick={() => accept.mutate()} loading={accept.isPending}>
          {t("workOrder.accept")}
        </Button>
      )}
      {o.status === "accepted" && (
        <Paper withBorder p="sm" component="form" onSubmit={(e) => { e.preventDefault(); slots.mutate(); }}>
          <Stack>
            <Title order={2} size="h4">{t("workOrder.slots")}</Title>
            <TextInput label={t("workOrder.slotStart")} type="datetime-local" required value={slot.start} onChange={(e) => setSlot({ ...slot, start: e.currentTarget.value })} />
            <TextInput label={t("workOrder.slotEnd")} type="datetime-local" required value={slot.end} onChange={(e) => setSlot({ ...slot, end: e.currentTarget.value })} />
            <Button type="submit" loading={slots.isPending}>{t("workOrder.sendSlots")}</Button>
          </Stack>
        </Paper>
      )}
      {(o.status === "sent" || o.status === "accepted") && (
        <Paper withBorder p="sm">
          <Stack>
            <Textarea label={t("workOrder.note")} maxLength={2000} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
            {o.status === "accepted" && <NumberInput label={t("workOrder.invoice")} min={0} decimalScale={2} value={invoice} onChange={setInvoice} />}
            <Group>
              {o.status === "accepted" && (
                <Button onClick={() => done.mutate()} loading={done.isPending}>
                  {t("workOrder.sendDone")}
                </Button>
              )}
              <Button color="red" variant="outline" onClick={() => decline.mutate()} loading={decline.isPending}>
                {t("workOrder.decline")}
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
