// The tenant portal (issue 49, slice 2), phone first: the tenant's
// contracts, and per contract its balance and what is due, charges,
// receipts with their PDFs, shared documents, the thread with the
// landlord, meter readings and repair requests. Everything is read
// through the API's /tenancy routes, which answer only for the signed-in
// tenant's own contracts (404 otherwise). This module is loaded only when
// a portal page opens (routes.tsx), so the first page stays small.
import {
  Alert, Anchor, Badge, Button, Card, Group, NativeSelect, NumberInput, Paper, SimpleGrid, Stack, Text, TextInput, Textarea, Title,
} from "@mantine/core";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useLocation, useParams } from "react-router";
import type { components } from "../../../typescript/src/schema";
import { api, ok } from "../api/client";
import { ApiError } from "../api/errors";
import { formatDate, formatDateTime, formatMoney, formatNumber } from "../format";
import { useErrorText, useToken } from "../hooks";
import { Failure, Loading } from "../pages/common";
import { addPhotos, conversation, filenameOf, fromTenant, photoForm, photoRoom, today, whatIsDue } from "./logic";

type S = components["schemas"];

// A list route answers CSV too (?format=csv); the portal asks for JSON, so
// a string is never expected.
function json<T>(x: T | string): T {
  if (typeof x === "string") throw new ApiError(0, "unexpected", "");
  return x;
}

function useLng(): string {
  const { i18n } = useTranslation();
  return i18n.resolvedLanguage ?? "en";
}

// Every portal page needs the tenant signed in; else sign in and come back.
function SignedIn({ children }: { children: ReactNode }) {
  const token = useToken();
  const here = useLocation();
  if (!token) return <Navigate to={`/sign-in?next=${encodeURIComponent(here.pathname + here.search)}`} replace />;
  return <>{children}</>;
}

function useContract(id: string) {
  return useQuery({
    queryKey: ["tenancy", "contract", id],
    queryFn: () => ok(api.GET("/api/v1/tenancy/contracts/{contractId}", { params: { path: { contractId: id } } })),
  });
}

// One page's frame: the section's heading, the contract it is of, and the
// way back to the contract.
function Section({ title, contractId, children }: { title: string; contractId: string; children: ReactNode }) {
  const { t } = useTranslation();
  const contract = useContract(contractId);
  return (
    <Stack>
      <Anchor component={Link} to={`/portal/${contractId}`} size="sm">
        ← {contract.data ? t("invitation.contract", { number: contract.data.number }) : t("portal.back")}
      </Anchor>
      <Title order={1}>{title}</Title>
      {children}
    </Stack>
  );
}

// A paged list: the API's keyset pages (next), one more on request.
function usePaged<T>(key: unknown[], page: (after: string | undefined) => Promise<{ items: T[]; next: string | null }>) {
  const q = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => page(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  return { ...q, items: q.data?.pages.flatMap((p) => p.items) ?? [] };
}

function More({ list }: { list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown } }) {
  const { t } = useTranslation();
  if (!list.hasNextPage) return null;
  return (
    <Button variant="default" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
      {t("portal.more")}
    </Button>
  );
}

// Badges are tinted by state; their text is dark, since Mantine's tinted
// text on its tint (3.8:1) misses WCAG AA's 4.5:1 at badge size.
function Empty({ children }: { children: ReactNode }) {
  return <Text c="dimmed">{children}</Text>;
}

// A file of the API behind the bearer token: fetched, then saved under
// the server's name. The token never goes into a URL.
async function download(call: Promise<{ data?: unknown; error?: unknown; response: Response }>, fallback: string) {
  const blob = (await ok(call)) as Blob;
  const res = await call;
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filenameOf(res.response.headers.get("Content-Disposition"), fallback);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export function PortalHome() {
  return (
    <SignedIn>
      <Contracts />
    </SignedIn>
  );
}

const statusColor: Record<string, string> = { active: "green", ending: "orange", terminated: "gray", ended: "gray", draft: "gray" };

function Contracts() {
  const { t } = useTranslation();
  const lng = useLng();
  const list = usePaged(["tenancy", "contracts"], async (after) => {
    const l = json(await ok(api.GET("/api/v1/tenancy/contracts", { params: { query: { after } } })));
    return { items: l.contracts, next: l.next };
  });
  return (
    <Stack>
      <Title order={1}>{t("portal.title")}</Title>
      <Failure error={list.error} />
      {list.isPending && <Loading />}
      {!list.isPending && list.items.length === 0 && <Empty>{t("portal.noContracts")}</Empty>}
      {list.items.map((c) => (
        <Card key={c.id} withBorder component={Link} to={`/portal/${c.id}`} aria-label={t("invitation.contract", { number: c.number })}>
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600}>{t("invitation.contract", { number: c.number })}</Text>
            <Badge color={statusColor[c.status]} variant="light" c="dark.8">
              {t(`portal.contractStatus.${c.status}`)}
            </Badge>
          </Group>
          <Text size="sm">
            {c.start_date && t("invitation.from", { date: formatDate(c.start_date, lng) })}
            {c.rent !== null && <> · {t("invitation.rent", { amount: formatMoney(c.rent, c.currency, lng) })}</>}
          </Text>
        </Card>
      ))}
      <More list={list} />
    </Stack>
  );
}

const sections = ["charges", "receipts", "documents", "messages", "meters", "repairs"] as const;

export function PortalContract() {
  return (
    <SignedIn>
      <ContractOverview />
    </SignedIn>
  );
}

function ContractOverview() {
  const { t } = useTranslation();
  const lng = useLng();
  const { contractId = "" } = useParams();
  const contract = useContract(contractId);
  const balance = useQuery({
    queryKey: ["tenancy", contractId, "balance"],
    queryFn: () => ok(api.GET("/api/v1/tenancy/contracts/{contractId}/balance", { params: { path: { contractId } } })),
  });
  const charges = useQuery({
    queryKey: ["tenancy", contractId, "charges", "due"],
    queryFn: async () =>
      json(await ok(api.GET("/api/v1/tenancy/contracts/{contractId}/charges", { params: { path: { contractId }, query: { per_page: 200 } } }))).charges,
  });
  if (contract.error) return <Failure error={contract.error} />;
  if (!contract.data) return <Loading />;
  const c = contract.data;
  const due = charges.data ? whatIsDue(charges.data, today()) : [];
  return (
    <Stack>
      <Anchor component={Link} to="/portal" size="sm">
        ← {t("portal.title")}
      </Anchor>
      <Title order={1}>{t("invitation.contract", { number: c.number })}</Title>
      <Text size="sm">
        <Badge color={statusColor[c.status]} variant="light" c="dark.8" mr="xs">
          {t(`portal.contractStatus.${c.status}`)}
        </Badge>
        {c.start_date && t("invitation.from", { date: formatDate(c.start_date, lng) })}
        {c.rent !== null && <> · {t("invitation.rent", { amount: formatMoney(c.rent, c.currency, lng) })}</>}
      </Text>

      <Title order={2} size="h3">
        {t("portal.balance.title")}
      </Title>
      <Failure error={balance.error} />
      {balance.data && <BalanceCard b={balance.data} />}

      <Title order={2} size="h3">
        {t("portal.due.title")}
      </Title>
      <Failure error={charges.error} />
      {charges.data && due.length === 0 && <Empty>{t("portal.due.none")}</Empty>}
      {due.slice(0, 5).map(({ charge, overdue }) => (
        <Paper key={charge.id} withBorder p="sm">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <div>
              <Text fw={600}>{charge.name}</Text>
              <Text size="sm">{t("portal.due.on", { date: formatDate(charge.due_date, lng) })}</Text>
            </div>
            <Stack gap={4} align="flex-end">
              <Text fw={600}>{formatMoney(charge.outstanding, charge.currency, lng)}</Text>
              {overdue && (
                <Badge color="red" variant="light" c="dark.8">
                  {t("portal.due.overdue")}
                </Badge>
              )}
            </Stack>
          </Group>
        </Paper>
      ))}

      <nav aria-label={t("portal.sections")}>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          {sections.map((s) => (
            <Button key={s} component={Link} to={`/portal/${contractId}/${s}`} variant="light" fullWidth>
              {t(`portal.${s}.title`)}
            </Button>
          ))}
        </SimpleGrid>
      </nav>
    </Stack>
  );
}

function BalanceCard({ b }: { b: S["Balance"] }) {
  const { t } = useTranslation();
  const lng = useLng();
  const row = (label: string, amount: number, strong = false) => (
    <Group justify="space-between" wrap="nowrap">
      <Text fw={strong ? 700 : undefined}>{label}</Text>
      <Text fw={strong ? 700 : undefined}>{formatMoney(amount, b.currency, lng)}</Text>
    </Group>
  );
  return (
    <Card withBorder>
      <Stack gap={6}>
        {row(t("portal.balance.outstanding"), b.outstanding, true)}
        {row(t("portal.balance.overdue"), b.overdue)}
        {row(t("portal.balance.charged"), b.charged)}
        {row(t("portal.balance.paid"), b.paid)}
        {b.credit > 0 && row(t("portal.balance.credit"), b.credit)}
        <Text size="xs" c="dimmed">
          {t("portal.balance.asOf", { date: formatDate(b.as_of, lng) })}
        </Text>
      </Stack>
    </Card>
  );
}

const chargeColor: Record<string, string> = { unpaid: "orange", partially_paid: "yellow", paid: "green", cancelled: "gray" };

export function PortalCharges() {
  return (
    <SignedIn>
      <Charges />
    </SignedIn>
  );
}

function Charges() {
  const { t } = useTranslation();
  const lng = useLng();
  const { contractId = "" } = useParams();
  const list = usePaged(["tenancy", contractId, "charges"], async (after) => {
    const l = json(await ok(api.GET("/api/v1/tenancy/contracts/{contractId}/charges", { params: { path: { contractId }, query: { after } } })));
    return { items: l.charges, next: l.next };
  });
  return (
    <Section title={t("portal.charges.title")} contractId={contractId}>
      <Failure error={list.error} />
      {list.isPending && <Loading />}
      {!list.isPending && list.items.length === 0 && <Empty>{t("portal.charges.none")}</Empty>}
      {list.items.map((c) => (
        <Paper key={c.id} withBorder p="sm">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <div>
              <Text fw={600}>{c.name}</Text>
              <Text size="sm">{t("portal.due.on", { date: formatDate(c.due_date, lng) })}</Text>
            </div>
            <Stack gap={4} align="flex-end">
              <Text fw={600}>{formatMoney(c.amount, c.currency, lng)}</Text>
              <Badge color={chargeColor[c.status]} variant="light" c="dark.8">
                {t(`portal.charges.status.${c.status}`)}
              </Badge>
            </Stack>
          </Group>
          {c.status === "partially_paid" && (
            <Text size="sm">{t("portal.charges.left", { amount: formatMoney(c.outstanding, c.currency, lng) })}</Text>
          )}
        </Paper>
      ))}
      <More list={list} />
    </Section>
  );
}

export function PortalReceipts() {
  return (
    <SignedIn>
      <Receipts />
    </SignedIn>
  );
}

// The receipts are the tenant's payments: each says what was paid when and
// for which charges, and opens as the landlord's PDF.
function Receipts() {
  const { t } = useTranslation();
  const lng = useLng();
  const { contractId = "" } = useParams();
  const list = usePaged(["tenancy", contractId, "receipts"], async (after) => {
    const l = json(await ok(api.GET("/api/v1/tenancy/contracts/{contractId}/receipts", { params: { path: { contractId }, query: { after } } })));
    return { items: l.receipts, next: l.next };
  });
  const pdf = useMutation({
    mutationFn: (r: S["Receipt"]) =>
      download(
        api.GET("/api/v1/tenancy/contracts/{contractId}/receipts/{receiptId}/pdf", {
          params: { path: { contractId, receiptId: r.id }, query: { locale: lng } },
          parseAs: "blob",
        }),
        `receipt-${r.number}.pdf`,
      ),
  });
  return (
    <Section title={t("portal.receipts.title")} contractId={contractId}>
      <Text size="sm">{t("portal.receipts.intro")}</Text>
      <Failure error={list.error ?? pdf.error} />
      {list.isPending && <Loading />}
      {!list.isPending && list.items.length === 0 && <Empty>{t("portal.receipts.none")}</Empty>}
      {list.items.map((r) => (
        <Paper key={r.id} withBorder p="sm">
          <Group justify="space-between" wrap="nowrap" align="flex-start">
            <div>
              <Text fw={600}>{t("portal.receipts.number", { number: r.number })}</Text>
              <Text size="sm">{t("portal.receipts.issued", { date: formatDate(r.issued_at.slice(0, 10), lng) })}</Text>
            </div>
            <Text fw={600}>{formatMoney(r.amount, r.currency, lng)}</Text>
          </Group>
          {r.lines.map((l, i) => (
            <Text key={i} size="sm">
              {l.charge_name} ({l.period}): {formatMoney(l.amount, r.currency, lng)}
            </Text>
          ))}
          {r.status === "void" && (
            <Badge color="gray" variant="light" c="dark.8">
              {t("portal.receipts.void")}
            </Badge>
          )}
          <Button
            mt="xs"
            size="sm"
            variant="light"
            onClick={() => pdf.mutate(r)}
            loading={pdf.isPending && pdf.variables?.id === r.id}
            aria-label={t("portal.receipts.pdfOf", { number: r.number })}
          >
            {t("portal.receipts.pdf")}
          </Button>
        </Paper>
      ))}
      <More list={list} />
    </Section>
  );
}

export function PortalDocuments() {
  return (
    <SignedIn>
      <Documents />
    </SignedIn>
  );
}

function Documents() {
  const { t } = useTranslation();
  const lng = useLng();
  const { contractId = "" } = useParams();
  const list = usePaged(["tenancy", contractId, "documents"], async (after) => {
    const l = json(await ok(api.GET("/api/v1/tenancy/contracts/{contractId}/documents", { params: { path: { contractId }, query: { after } } })));
    return { items: l.documents, next: l.next };
  });
  const get = useMutation({
    mutationFn: (d: S["Document"]) =>
      download(
        api.GET("/api/v1/tenancy/contracts/{contractId}/documents/{documentId}/content", {
          params: { path: { contractId, documentId: d.id } },
          parseAs: "blob",
        }),
        d.filename,
      ),
  });
  return (
    <Section title={t("portal.documents.title")} contractId={contractId}>
      <Failure error={list.error ?? get.error} />
      {list.isPending && <Loading />}
      {!list.isPending && list.items.length === 0 && <Empty>{t("portal.documents.none")}</Empty>}
      {list.items.map((d) => (
        <Paper key={d.id} withBorder p="sm">
          <Text fw={600}>{d.title}</Text>
          <Text size="sm">
            {t(`portal.documents.category.${d.category}`)} · {formatDate(d.created_at.slice(0, 10), lng)} · {formatNumber(Math.max(1, Math.round(d.size / 1024)), lng)} KB
          </Text>
          <Button
            mt="xs"
            size="sm"
            variant="light"
            onClick={() => get.mutate(d)}
            loading={get.isPending && get.variables?.id === d.id}
            aria-label={t("portal.documents.downloadOf", { title: d.title })}
          >
            {t("portal.documents.download")}
          </Button>
        </Paper>
      ))}
      <More list={list} />
    </Section>
  );
}

export function PortalMessages() {
  return (
    <SignedIn>
      <Messages />
    </SignedIn>
  );
}

function Messages() {
  const { t } = useTranslation();
  const lng = useLng();
  const { contractId = "" } = useParams();
  const queries = useQueryClient();
  const key = ["tenancy", contractId, "messages"];
  const list = usePaged(key, async (after) => {
    const l = json(await ok(api.GET("/api/v1/tenancy/contracts/{contractId}/messages", { params: { path: { contractId }, query: { after } } })));
    return { items: l.messages, next: l.next };
  });
  const [subject, setSubject] = useState("");
  const [body, setBody] = useState("");
  const send = useMutation({
    mutationFn: () =>
      ok(api.POST("/api/v1/tenancy/contracts/{contractId}/messages", { params: { path: { contractId } }, body: { subject: subject || undefined, body } })),
    onSuccess: async () => {
      setSubject("");
      setBody("");
      await queries.invalidateQueries({ queryKey: key });
    },
  });
  return (
    <Section title={t("portal.messages.title")} contractId={contractId}>
      <Failure error={list.error} />
      {list.isPending && <Loading />}
      <More list={list} />
      {!list.isPending && list.items.length === 0 && <Empty>{t("portal.messages.none")}</Empty>}
      <Stack gap="xs" component="ol" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label={t("portal.messages.thread")}>
        {conversation(list.items).map((m) => {
          const mine = fromTenant(m);
          return (
            <Paper
              key={m.id}
              component="li"
              withBorder
              p="sm"
              ml={mine ? "xl" : 0}
              mr={mine ? 0 : "xl"}
              bg={mine ? "blue.0" : undefined}
            >
              <Text size="xs" c="dimmed">
                {mine ? t("portal.messages.you") : t("portal.messages.landlord")} · {formatDateTime(m.created_at, lng)}
              </Text>
              {m.subject && <Text fw={600}>{m.subject}</Text>}
              <Text style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{m.body}</Text>
            </Paper>
          );
        })}
      </Stack>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          send.mutate();
        }}
      >
        <Stack gap="xs">
          <Title order={2} size="h4">
            {t("portal.messages.write")}
          </Title>
          <TextInput label={t("portal.messages.subject")} value={subject} maxLength={300} onChange={(e) => setSubject(e.currentTarget.value)} />
          <Textarea label={t("portal.messages.body")} required autosize minRows={3} maxLength={20000} value={body} onChange={(e) => setBody(e.currentTarget.value)} />
          <Failure error={send.error} />
          {send.isSuccess && (
            <Alert color="green" role="status">
              {t("portal.messages.sent")}
            </Alert>
          )}
          <Button type="submit" loading={send.isPending} disabled={!body.trim()}>
            {t("portal.messages.send")}
          </Button>
        </Stack>
      </form>
    </Section>
  );
}

export function PortalMeters() {
  return (
    <SignedIn>
      <Meters />
    </SignedIn>
  );
}

function Meters() {
  const { t } = useTranslation();
  const { contractId = "" } = useParams();
  const list = usePaged(["tenancy", contractId, "counters"], async (after) => {
    const l = json(await ok(api.GET("/api/v1/tenancy/contracts/{contractId}/counters", { params: { path: { contractId }, query: { after } } })));
    return { items: l.counters, next: l.next };
  });
  return (
    <Section title={t("portal.meters.title")} contractId={contractId}>
      <Failure error={list.error} />
      {list.isPending && <Loading />}
      {!list.isPending && list.items.length === 0 && <Empty>{t("portal.meters.none")}</Empty>}
      {list.items.map((c) => (
        <Meter key={c.id} contractId={contractId} counter={c} />
      ))}
      <More list={list} />
    </Section>
  );
}

const units: Record<string, string> = { kWh: "kWh", m3: "m³", Gcal: "Gcal", unit: "" };

function Meter({ contractId, counter }: { contractId: string; counter: S["Counter"] }) {
  const { t } = useTranslation();
  const lng = useLng();
  const queries = useQueryClient();
  const key = ["tenancy", contractId, "readings", counter.id];
  const readings = useQuery({
    queryKey: key,
    queryFn: async () =>
      json(
        await ok(
          api.GET("/api/v1/tenancy/contracts/{contractId}/counters/{counterId}/readings", {
            params: { path: { contractId, counterId: counter.id }, query: { per_page: 5 } },
          }),
        ),
      ).readings,
  });
  const [readOn, setReadOn] = useState(today());
  const [value, setValue] = useState<string | number>("");
  const add = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/v1/tenancy/contracts/{contractId}/counters/{counterId}/readings", {
          params: { path: { contractId, counterId: counter.id } },
          body: { read_on: readOn, value: Number(value) },
        }),
      ),
    onSuccess: async () => {
      setValue("");
      await queries.invalidateQueries({ queryKey: key });
    },
  });
  const unit = units[counter.unit] ?? "";
  const name = counter.name || t(`portal.meters.kind.${counter.kind}`);
  return (
    <Card withBorder>
      <Title order={2} size="h4">
        {name}
      </Title>
      <Text size="sm">
        {t(`portal.meters.kind.${counter.kind}`)}
        {counter.serial && <> · {t("portal.meters.serial", { serial: counter.serial })}</>}
      </Text>
      <Failure error={readings.error} />
      {readings.data && readings.data.length === 0 && <Empty>{t("portal.meters.noReadings")}</Empty>}
      {readings.data?.map((r) => (
        <Group key={r.id} justify="space-between" wrap="nowrap">
          <Text size="sm">{formatDate(r.read_on, lng)}</Text>
          <Text size="sm">
            {formatNumber(r.value, lng)} {unit} {r.by === "tenant" && <>({t("portal.meters.byYou")})</>}
          </Text>
        </Group>
      ))}
      {counter.is_active && (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <Stack gap="xs" mt="sm">
            <TextInput type="date" label={t("portal.meters.readOn")} required value={readOn} max={today()} onChange={(e) => setReadOn(e.currentTarget.value)} />
            <NumberInput
              label={t("portal.meters.value", { name })}
              required
              min={0}
              decimalScale={3}
              decimalSeparator={lng === "en" ? "." : ","}
              thousandSeparator={false}
              value={value}
              onChange={setValue}
            />
            <Failure error={add.error} />
            {add.isSuccess && (
              <Alert color="green" role="status">
                {t("portal.meters.sent")}
              </Alert>
            )}
            <Button type="submit" loading={add.isPending} disabled={value === ""}>
              {t("portal.meters.send")}
            </Button>
          </Stack>
        </form>
      )}
    </Card>
  );
}

const categories = ["plumbing", "heating", "electrical", "appliance", "windows_doors", "damp_mould", "pests", "other"] as const;
const urgencies = ["normal", "urgent", "emergency"] as const;
const repairColor: Record<string, string> = { reported: "blue", triaged: "blue", ordered: "violet", scheduled: "violet", done: "green", closed: "gray", rejected: "gray" };

export function PortalRepairs() {
  return (
    <SignedIn>
      <Repairs />
    </SignedIn>
  );
}

function Repairs() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const lng = useLng();
  const { contractId = "" } = useParams();
  const queries = useQueryClient();
  const key = ["tenancy", contractId, "repairs"];
  const list = usePaged(key, async (after) => {
    const l = json(await ok(api.GET("/api/v1/tenancy/contracts/{contractId}/repair-requests", { params: { path: { contractId }, query: { after } } })));
    return { items: l.repair_requests, next: l.next };
  });
  const [form, setForm] = useState({ title: "", category: "plumbing" as S["RepairCategory"], urgency: "normal" as S["RepairUrgency"], description: "", access_notes: "", preferred_times: "" });
  const set = (k: keyof typeof form) => (e: { currentTarget: { value: string } }) => setForm({ ...form, [k]: e.currentTarget.value });
  const [photos, setPhotos] = useState<File[]>([]);
  // Which step the last send reached: a refusal of the photos comes after
  // the request was recorded.
  const [stage, setStage] = useState<"request" | "photos">("request");
  // The request first, then its photos (the API takes them on a request
  // that exists). When the photos are refused the request stands: the
  // photos stay picked, and "Add photos" on the request sends them again.
  const report = useMutation({
    mutationFn: async () => {
      setStage("request");
      const made = await ok(api.POST("/api/v1/tenancy/contracts/{contractId}/repair-requests", { params: { path: { contractId } }, body: form }));
      setForm({ ...form, title: "", description: "", access_notes: "", preferred_times: "" });
      if (photos.length === 0) return { made, sent: 0 };
      setStage("photos");
      await sendPhotos(contractId, made.id, photos);
      const sent = photos.length;
      setPhotos([]);
      return { made, sent };
    },
    onSettled: () => queries.invalidateQueries({ queryKey: key }),
  });
  return (
    <Section title={t("portal.repairs.title")} contractId={contractId}>
      <Failure error={list.error} />
      {list.isPending && <Loading />}
      {!list.isPending && list.items.length === 0 && <Empty>{t("portal.repairs.none")}</Empty>}
      {list.items.map((r) => (
        <Paper key={r.id} withBorder p="sm">
          {/* The state under the title: its words ("tradesperson ordered")
              would be cut short beside it on a phone. */}
          <Text fw={600}>{r.title}</Text>
          <Badge color={repairColor[r.status]} variant="light" c="dark.8" maw="100%">
            {t(`portal.repairs.status.${r.status}`)}
          </Badge>
          <Text size="sm">
            {t(`workOrder.categories.${r.category}`)} · {t(`workOrder.urgencies.${r.urgency}`)}
          </Text>
          <Text size="sm">{t("portal.repairs.reportedOn", { date: formatDate(r.created_at.slice(0, 10), lng) })}</Text>
          {r.visit && <Text size="sm">{t("portal.repairs.visit", { date: formatDateTime(r.visit.start, lng) })}</Text>}
          {r.reject_reason && <Text size="sm">{r.reject_reason}</Text>}
          {r.photos.length > 0 && <Text size="sm">{t("portal.repairs.photoCount", { count: r.photos.length })}</Text>}
          <Slots contractId={contractId} request={r} onPicked={() => queries.invalidateQueries({ queryKey: key })} />
          {openRepair.includes(r.status) && photoRoom(r.photos.length) > 0 && (
            <AddPhotos contractId={contractId} request={r} onSent={() => queries.invalidateQueries({ queryKey: key })} />
          )}
        </Paper>
      ))}
      <More list={list} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          report.mutate();
        }}
      >
        <Stack gap="xs">
          <Title order={2} size="h3">
            {t("portal.repairs.report")}
          </Title>
          <TextInput label={t("portal.repairs.what")} required maxLength={200} value={form.title} onChange={set("title")} />
          <NativeSelect
            label={t("workOrder.category")}
            value={form.category}
            onChange={set("category")}
            data={categories.map((c) => ({ value: c, label: t(`workOrder.categories.${c}`) }))}
          />
          <NativeSelect
            label={t("workOrder.urgency")}
            value={form.urgency}
            onChange={set("urgency")}
            data={urgencies.map((u) => ({ value: u, label: t(`workOrder.urgencies.${u}`) }))}
            description={t("portal.repairs.urgencyHint")}
          />
          <Textarea label={t("portal.repairs.description")} required autosize minRows={3} maxLength={4000} value={form.description} onChange={set("description")} />
          <Textarea label={t("workOrder.access")} autosize minRows={2} maxLength={2000} value={form.access_notes} onChange={set("access_notes")} />
          <Textarea label={t("workOrder.preferred")} autosize minRows={2} maxLength={2000} value={form.preferred_times} onChange={set("preferred_times")} />
          <PhotoPicker files={photos} onChange={setPhotos} room={photoRoom(0)} />
          {report.error && (
            <Alert color="red" role="alert" c="dark.8">
              {stage === "photos" ? t("portal.repairs.photosRefused") + " " : ""}
              {errorText(report.error)}
            </Alert>
          )}
          {report.isSuccess && (
            <Alert color="green" role="status" c="dark.8">
              {t("portal.repairs.sent", { date: formatDateTime(report.data.made.deadline_at, lng) })}
              {report.data.sent > 0 && " " + t("portal.repairs.photosSent", { count: report.data.sent })}
            </Alert>
          )}
          <Button type="submit" loading={report.isPending} disabled={!form.title.trim() || !form.description.trim()}>
            {t("portal.repairs.send")}
          </Button>
        </Stack>
      </form>
    </Section>
  );
}

// The provider's offered times, while the request waits for the tenant to
// book one (ordered, the work order accepted); a time already past is not
// offered (the API refuses it).
function Slots({ contractId, request, onPicked }: { contractId: string; request: S["RepairRequest"]; onPicked: () => unknown }) {
  const { t } = useTranslation();
  const lng = useLng();
  const pick = useMutation({
    mutationFn: (start: string) =>
      ok(
        api.POST("/api/v1/tenancy/contracts/{contractId}/repair-requests/{requestId}/slot", {
          params: { path: { contractId, requestId: request.id } },
          body: { start },
        }),
      ),
    onSuccess: onPicked,
  });
  const order = request.work_order;
  if (request.status !== "ordered" || !order || order.status !== "accepted") return null;
  const now = new Date().toISOString();
  const open = order.slots.filter((s) => new Date(s.start).toISOString() > now);
  if (open.length === 0) return null;
  return (
    <Stack gap={6} mt="xs">
      <Text size="sm" fw={600}>
        {t("portal.repairs.pick")}
      </Text>
      {open.map((s) => (
        <Button key={s.start} size="sm" variant="light" onClick={() => pick.mutate(s.start)} loading={pick.isPending && pick.variables === s.start}>
          {t("portal.repairs.slot", { start: formatDateTime(s.start, lng), end: formatDateTime(s.end, lng) })}
        </Button>
      ))}
      <Failure error={pick.error} />
    </Stack>
  );
}

const openRepair = ["reported", "triaged", "ordered", "scheduled"];

function sendPhotos(contractId: string, requestId: string, files: File[]) {
  return ok(
    api.POST("/api/v1/tenancy/contracts/{contractId}/repair-requests/{requestId}/photos", {
      params: { path: { contractId, requestId } },
      body: { photos: [] },
      bodySerializer: () => photoForm(files),
    }),
  );
}

// Photos to send: the phone's camera or its files (PNG, JPEG, WebP, the
// types the API takes), each shown as a thumbnail with a way to drop it.
// The API tells the type from the bytes and refuses what is not an image
// or too large; its answer is shown in the reader's language.
function PhotoPicker({ files, onChange, room, label }: { files: File[]; onChange: (f: File[]) => void; room: number; label?: string }) {
  const { t } = useTranslation();
  const urls = useMemo(() => files.map((f) => URL.createObjectURL(f)), [files]);
  useEffect(() => () => urls.forEach((u) => URL.revokeObjectURL(u)), [urls]);
  return (
    <Stack gap={6}>
      <Text component="label" size="sm" fw={500}>
        {label ?? t("portal.repairs.photos")}
        <Text size="xs" c="dimmed" component="span" display="block">
          {t("portal.repairs.photosHint", { count: room })}
        </Text>
        <input
          type="file"
          accept="image/png,image/jpeg,image/webp"
          multiple
          disabled={files.length >= room}
          style={{ display: "block", marginTop: 6, maxWidth: "100%" }}
          onChange={(e) => {
            onChange(addPhotos(files, Array.from(e.currentTarget.files ?? []), room));
            e.currentTarget.value = "";
          }}
        />
      </Text>
      {files.length > 0 && (
        <SimpleGrid cols={3} spacing={6} role="list" aria-label={t("portal.repairs.picked", { count: files.length })}>
          {files.map((f, i) => (
            <Paper key={`${f.name}/${f.size}/${f.lastModified}`} withBorder p={4} role="listitem">
              <img src={urls[i]} alt={f.name} style={{ width: "100%", aspectRatio: "1", objectFit: "cover", display: "block" }} />
              <Button size="compact-xs" variant="subtle" fullWidth mt={4} onClick={() => onChange(files.filter((_, j) => j !== i))} aria-label={t("portal.repairs.removePhoto", { name: f.name })}>
                {t("portal.repairs.remove")}
              </Button>
            </Paper>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

// More photos for an open request, up to the API's 20.
function AddPhotos({ contractId, request, onSent }: { contractId: string; request: S["RepairRequest"]; onSent: () => unknown }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [files, setFiles] = useState<File[]>([]);
  const [open, setOpen] = useState(false);
  const send = useMutation({
    mutationFn: async () => {
      await sendPhotos(contractId, request.id, files);
      return files.length;
    },
    onSuccess: async () => {
      setFiles([]);
      await onSent();
    },
  });
  if (!open) {
    return (
      <Button size="sm" variant="default" mt="xs" onClick={() => setOpen(true)}>
        {t("portal.repairs.addPhotos")}
      </Button>
    );
  }
  return (
    <Stack gap={6} mt="xs">
      <PhotoPicker files={files} onChange={setFiles} room={photoRoom(request.photos.length)} label={t("portal.repairs.addPhotosTo", { title: request.title })} />
      {send.error && (
        <Alert color="red" role="alert" c="dark.8">
          {errorText(send.error)}
        </Alert>
      )}
      {send.isSuccess && files.length === 0 && (
        <Alert color="green" role="status" c="dark.8">
          {t("portal.repairs.photosSent", { count: send.data })}
        </Alert>
      )}
      <Button size="sm" onClick={() => send.mutate()} loading={send.isPending} disabled={files.length === 0}>
        {t("portal.repairs.sendPhotos", { count: files.length })}
      </Button>
    </Stack>
  );
}
