import { Alert, Badge, Button, Checkbox, Group, Paper, Stack, Table, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { api, ok } from "../api/client";
import { formatDate, formatDateTime } from "../format";
import { Failure, Loading } from "./common";

type Value = number | boolean | string;

function show(v: Value, lng: string): string {
  if (typeof v === "number") return new Intl.NumberFormat(lng).format(v);
  if (typeof v === "boolean") return v ? "✓" : "✗";
  return /^\d{4}-\d{2}-\d{2}$/.test(v) ? formatDate(v, lng) : v;
}

// The applicant's side of a negotiation (modules/negotiations): the link of
// its mails is the credential, so this page needs no account.
export function Negotiation() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? "en";
  const { token = "" } = useParams();
  const queries = useQueryClient();
  const key = ["negotiation", token];
  const neg = useQuery({
    queryKey: key,
    queryFn: () => ok(api.GET("/api/v1/public/negotiations/{token}", { params: { path: { token } } })),
    retry: false,
  });
  const path = { params: { path: { token } } };
  const refresh = () => queries.invalidateQueries({ queryKey: key });
  const accept = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/public/negotiations/{token}/accept", { ...path, body: { round: neg.data!.current_round } })),
    onSuccess: refresh,
  });
  const decline = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/public/negotiations/{token}/decline", path)),
    onSuccess: refresh,
  });
  const [draft, setDraft] = useState<Record<string, Value> | null>(null);
  const [message, setMessage] = useState("");
  const offer = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/v1/public/negotiations/{token}/offers", {
          ...path,
          body: { round: neg.data!.current_round + 1, terms: Object.entries(draft!).map(([code, value]) => ({ code, value })), message },
        }),
      ),
    onSuccess: () => {
      setDraft(null);
      setMessage("");
      return refresh();
    },
  });
  if (neg.isPending) return <Loading />;
  if (neg.error) return <Failure error={neg.error} />;
  const n = neg.data;
  const last = n.rounds[n.rounds.length - 1];
  const open = n.status === "open";
  return (
    <Stack>
      <Title order={1}>{t("negotiation.title")}</Title>
      <Group>
        <Text>{t("negotiation.status")}:</Text>
        <Badge color={open ? "blue.9" : n.status === "agreed" ? "teal.9" : "dark"}>{t(`negotiation.statuses.${n.status}`, { defaultValue: n.status })}</Badge>
        {open && <Text size="sm">{t("negotiation.expires", { date: formatDateTime(n.expires_at, lng) })}</Text>}
      </Group>
      {n.status === "agreed" && <Alert color="green" role="status">{t("negotiation.agreed")}</Alert>}
      {(n.status === "declined" || n.status === "expired") && <Alert color="gray">{t("negotiation.declined")}</Alert>}
      {n.rounds.map((r) => (
        <Paper key={r.round} withBorder p="sm" component="section" aria-label={t("negotiation.round", { round: r.round })}>
          <Text fw={700}>
            {t("negotiation.round", { round: r.round })} · {r.side === "landlord" ? t("negotiation.landlord") : t("negotiation.applicant")} ·{" "}
            {formatDateTime(r.created_at, lng)}
          </Text>
          {r.message && <Text style={{ whiteSpace: "pre-line" }}>{r.message}</Text>}
          <Table>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("negotiation.term")}</Table.Th>
                <Table.Th>{t("negotiation.value")}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {r.terms.map((term) => (
                <Table.Tr key={term.code}>
                  <Table.Td>{term.code}</Table.Td>
                  <Table.Td>{show(term.value, lng)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      ))}
      <Failure error={accept.error ?? decline.error ?? offer.error} />
      {open && last && draft === null && (
        <Group>
          <Button onClick={() => accept.mutate()} loading={accept.isPending}>
            {t("negotiation.accept")}
          </Button>
          <Button variant="default" onClick={() => setDraft(Object.fromEntries(last.terms.map((x) => [x.code, x.value])))}>
            {t("negotiation.counter")}
          </Button>
          <Button color="red" variant="outline" onClick={() => decline.mutate()} loading={decline.isPending}>
            {t("negotiation.decline")}
          </Button>
        </Group>
      )}
      {open && draft !== null && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            offer.mutate();
          }}
        >
          <Stack>
            {Object.entries(draft).map(([code, value]) =>
              typeof value === "boolean" ? (
                <Checkbox key={code} label={code} checked={value} onChange={(e) => setDraft({ ...draft, [code]: e.currentTarget.checked })} />
              ) : (
                <TextInput
                  key={code}
                  label={code}
                  type={typeof value === "number" ? "number" : "text"}
                  step="any"
                  value={String(value)}
                  onChange={(e) => setDraft({ ...draft, [code]: typeof value === "number" ? Number(e.currentTarget.value) : e.currentTarget.value })}
                />
              ),
            )}
            <Textarea label={t("negotiation.message")} maxLength={2000} value={message} onChange={(e) => setMessage(e.currentTarget.value)} />
            <Button type="submit" loading={offer.isPending}>
              {t("negotiation.sendOffer")}
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
