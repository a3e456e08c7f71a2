// Contracts (issue 49, slice 3): the list; a new contract from the
// agreement blocks of the property's country; the contract's page with
// its balance, activation, rent indexation, termination, billing,
// payments (record, allocation, reverse), receipts (PDF), documents and
// letters.
import { Alert, Anchor, Button, Card, Checkbox, Group, List, Modal, NativeSelect, SimpleGrid, Stack, Table, Tabs, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { api, ok } from "../api/client";
import { ApiError } from "../api/errors";
import { languages } from "../i18n";
import { Num, Empty, Failure, Grid, Loading, More, Page, State, download, isoDay, json, useFormat, useLng, usePaged, type S } from "./common";
import { termValue } from "./logic";
import { Charges, Documents, useProperty } from "./Properties";

const statuses = ["draft", "active", "ending", "terminated", "ended"] as const;

export function ContractList() {
  const { t } = useTranslation();
  const f = useFormat();
  const [status, setStatus] = useState("");
  const list = usePaged(["contracts", status], async (after) => {
    const l = json(
      await ok(api.GET("/api/v1/contracts", { params: { query: { after, per_page: 50, status: (status || undefined) as (typeof statuses)[number] | undefined } } })),
    );
    return { items: l.contracts, next: l.next };
  });
  return (
    <Page
      title={t("landlord.contracts.title")}
      actions={
        <Button component={Link} to="/app/contracts/new">
          {t("landlord.contracts.new")}
        </Button>
      }
    >
      <NativeSelect
        label={t("landlord.contracts.status")}
        value={status}
        onChange={(e) => setStatus(e.currentTarget.value)}
        data={[{ value: "", label: t("landlord.all") }, ...statuses.map((s) => ({ value: s, label: t(`landlord.contract.${s}`) }))]}
        maw={240}
      />
      <Failure error={list.error} />
      {list.isPending && <Loading />}
      {!list.isPending && list.items.length === 0 && <Empty>{t("landlord.contracts.none")}</Empty>}
      {list.items.length > 0 && (
        <Grid caption={t("landlord.contracts.title")} head={[t("landlord.contracts.number"), t("landlord.contracts.status"), t("landlord.contracts.start"), t("landlord.contracts.end"), t("landlord.contracts.rent")]}>
          {list.items.map((c) => (
            <Table.Tr key={c.id}>
              <Table.Td>
                <Anchor component={Link} to={`/app/contracts/${c.id}`}>
                  {c.number}
                </Anchor>
              </Table.Td>
              <Table.Td>
                <State kind="contract" value={c.status} />
              </Table.Td>
              <Table.Td>{f.date(c.start_date)}</Table.Td>
              <Table.Td>{f.date(c.end_date)}</Table.Td>
              <Table.Td>{f.money(c.rent, c.currency)}</Table.Td>
            </Table.Tr>
          ))}
        </Grid>
      )}
      <More list={list} />
    </Page>
  );
}

// The terms every lease needs first; the others are picked from the list.
const main = ["MONTHLY_RENT_AMOUNT", "CONTRACT_START_DATE", "PAYMENT_DAY_OF_MONTH", "DEPOSIT_MONTHS"];

function useBlocks(country: string | undefined) {
  return useQuery({
    queryKey: ["agreement-blocks", country],
    queryFn: () => ok(api.GET("/api/v1/agreement-blocks", { params: { query: { country } } })),
    enabled: !!country,
    staleTime: Infinity,
  });
}

function blockText(x: Record<string, string> | undefined, lng: string): string {
  return x?.[lng] ?? x?.en ?? Object.values(x ?? {})[0] ?? "";
}

function TermInput({ block, value, onChange }: { block: S["AgreementBlock"]; value: string; onChange: (v: string) => void }) {
  const lng = useLng();
  const label = blockText(block.name, lng);
  const description = blockText(block.description, lng);
  switch (block.data_type) {
    case "date":
      return <TextInput type="date" label={label} description={description} value={value} onChange={(e) => onChange(e.currentTarget.value)} />;
    case "bool":
      return <Checkbox label={label} description={description} checked={value === "true"} onChange={(e) => onChange(e.currentTarget.checked ? "true" : "false")} />;
    case "text":
      return <Textarea label={label} description={description} value={value} onChange={(e) => onChange(e.currentTarget.value)} autosize minRows={2} />;
    default:
      return <TextInput label={label} description={description} inputMode="decimal" value={value} onChange={(e) => onChange(e.currentTarget.value)} />;
  }
}

export function ContractNew() {
  const { t } = useTranslation();
  const lng = useLng();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [params] = useSearchParams();
  const [propertyId, setPropertyId] = useState(params.get("property") ?? "");
  const [tenantId, setTenantId] = useState(params.get("tenant") ?? "");
  const [number, setNumber] = useState("");
  const [locale, setLocale] = useState(lng);
  const [terms, setTerms] = useState<Record<string, string>>({ CONTRACT_START_DATE: isoDay(0).slice(0, 8) + "01", PAYMENT_DAY_OF_MONTH: "3" });
  const [extra, setExtra] = useState<string[]>([]);
  const [pick, setPick] = useState("");
  const properties = useQuery({ queryKey: ["properties", "all"], queryFn: async () => json(await ok(api.GET("/api/v1/properties", { params: { query: { per_page: 100 } } }))).properties });
  const tenants = useQuery({ queryKey: ["contragents", "all"], queryFn: async () => json(await ok(api.GET("/api/v1/contragents", { params: { query: { per_page: 100, role: "tenant" } } }))).contragents });
  const property = properties.data?.find((p) => p.id === (propertyId || properties.data?.[0]?.id));
  const blocks = useBlocks(property?.country_code);
  const all = blocks.data?.agreement_blocks ?? [];
  const shown = [...main.map((c) => all.find((b) => b.code === c)).filter((b): b is S["AgreementBlock"] => !!b), ...extra.map((c) => all.find((b) => b.code === c)!).filter(Boolean)];
  const tenant = tenantId || tenants.data?.[0]?.id || "";
  const save = useMutation({
    mutationFn: () => {
      const list: S["ContractTermValue"][] = [];
      for (const b of shown) {
        const v = termValue(b.data_type, terms[b.code] ?? "");
        if (v !== null) list.push({ code: b.code, value: v });
      }
      return ok(api.POST("/api/v1/contracts", { body: { property_id: property?.id ?? "", tenant_id: tenant, number, locale, terms: list } }));
    },
    onSuccess: (c) => {
      void queries.invalidateQueries({ queryKey: ["contracts"] });
      void navigate(`/app/contracts/${c.id}`);
    },
  });
  const lines = save.error instanceof ApiError ? save.error.details : [];
  if (properties.isPending || tenants.isPending) return <Loading />;
  return (
    <Page title={t("landlord.contracts.new")} back={{ to: "/app/contracts", label: t("landlord.contracts.title") }}>
      <Failure error={properties.error ?? tenants.error ?? blocks.error} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack maw={620}>
          <NativeSelect label={t("landlord.contracts.property")} required value={property?.id ?? ""} onChange={(e) => setPropertyId(e.currentTarget.value)} data={(properties.data ?? []).map((p) => ({ value: p.id, label: p.name }))} />
          <NativeSelect label={t("landlord.contracts.tenant")} required value={tenant} onChange={(e) => setTenantId(e.currentTarget.value)} data={(tenants.data ?? []).map((c) => ({ value: c.id, label: c.name }))} />
          <Group grow>
            <TextInput label={t("landlord.contracts.number")} required value={number} onChange={(e) => setNumber(e.currentTarget.value)} />
            <NativeSelect label={t("landlord.contracts.locale")} value={locale} onChange={(e) => setLocale(e.currentTarget.value)} data={languages.map((l) => ({ value: l, label: l.toUpperCase() }))} />
          </Group>
          <Title order={2} size="h4">
            {t("landlord.contracts.terms")}
          </Title>
          {blocks.isPending && <Loading />}
          {shown.map((b) => (
            <TermInput key={b.code} block={b} value={terms[b.code] ?? ""} onChange={(v) => setTerms({ ...terms, [b.code]: v })} />
          ))}
          <Group align="flex-end">
            <NativeSelect
              label={t("landlord.contracts.addTerm")}
              value={pick}
              onChange={(e) => setPick(e.currentTarget.value)}
              data={[{ value: "", label: "—" }, ...all.filter((b) => !main.includes(b.code) && !extra.includes(b.code)).map((b) => ({ value: b.code, label: blockText(b.name, lng) }))]}
              maw={420}
            />
            <Button
              variant="default"
              disabled={!pick}
              onClick={() => {
                setExtra([...extra, pick]);
                setPick("");
              }}
            >
              {t("landlord.contracts.addTermButton")}
            </Button>
          </Group>
          {save.error && lines.length === 0 && <Failure error={save.error} />}
          {lines.length > 0 && (
            <Alert color="red" role="alert" title={t("landlord.contracts.problems")}>
              <List size="sm">
                {lines.map((l) => (
                  <List.Item key={l}>{l}</List.Item>
                ))}
              </List>
            </Alert>
          )}
          <Button type="submit" loading={save.isPending} w="fit-content">
            {t("landlord.contracts.saveDraft")}
          </Button>
        </Stack>
      </form>
    </Page>
  );
}

function useContract(id: string) {
  return useQuery({ queryKey: ["contract", id], queryFn: () => ok(api.GET("/api/v1/contracts/{contractId}", { params: { path: { contractId: id } } })) });
}

export function ContractPage() {
  const { t } = useTranslation();
  const f = useFormat();
  const { contractId = "" } = useParams();
  const contract = useContract(contractId);
  const property = useProperty(contract.data?.property_id ?? "");
  const tenant = useQuery({
    queryKey: ["contragent", contract.data?.tenant_id],
    queryFn: () => ok(api.GET("/api/v1/contragents/{contragentId}", { params: { path: { contragentId: contract.data!.tenant_id } } })),
    enabled: !!contract.data,
  });
  const [dialog, setDialog] = useState<"" | "activate" | "index" | "terminate" | "pay">("");
  if (contract.isPending || (contract.data && property.isPending)) return <Loading />;
  if (contract.error || property.error) return <Failure error={contract.error ?? property.error} />;
  const c = contract.data!;
  const p = property.data!;
  const live = c.status === "active" || c.status === "ending";
  return (
    <Page
      title={t("landlord.contracts.titleOf", { number: c.number })}
      back={{ to: "/app/contracts", label: t("landlord.contracts.title") }}
      actions={
        <>
          {c.status === "draft" && <Button onClick={() => setDialog("activate")}>{t("landlord.contracts.activate")}</Button>}
          {live && <Button onClick={() => setDialog("pay")}>{t("landlord.payments.record")}</Button>}
          {c.status === "active" && (
            <>
              <Button variant="default" onClick={() => setDialog("index")}>
                {t("landlord.contracts.index")}
              </Button>
              <Button variant="default" color="red" onClick={() => setDialog("terminate")}>
                {t("landlord.contracts.terminate")}
              </Button>
            </>
          )}
        </>
      }
    >
      <Group gap="md">
        <State kind="contract" value={c.status} />
        <Anchor component={Link} to={`/app/properties/${p.id}`}>
          {p.name}
        </Anchor>
        {tenant.data && (
          <Anchor component={Link} to={`/app/tenants/${tenant.data.id}`}>
            {tenant.data.name}
          </Anchor>
        )}
        <Text size="sm">
          {f.date(c.start_date)} – {c.end_date ? f.date(c.end_date) : t("landlord.contracts.openEnded")}
        </Text>
        <Text size="sm">{t("landlord.contracts.rentIs", { amount: f.money(c.rent, c.currency) })}</Text>
        {c.next_rent && <Text size="sm">{t("landlord.contracts.nextRent", { amount: f.money(c.next_rent.amount, c.currency), date: f.date(c.next_rent.from) })}</Text>}
      </Group>
      {dialog === "activate" && <Activate contract={c} property={p} onClose={() => setDialog("")} />}
      {dialog === "index" && <IndexRent contract={c} onClose={() => setDialog("")} />}
      {dialog === "terminate" && <Terminate contract={c} onClose={() => setDialog("")} />}
      {dialog === "pay" && <RecordPayment contract={c} onClose={() => setDialog("")} />}
      {c.status !== "draft" && <Balance contract={c} />}
      <Tabs defaultValue={c.status === "draft" ? "terms" : "charges"} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="terms">{t("landlord.contracts.terms")}</Tabs.Tab>
          <Tabs.Tab value="charges">{t("landlord.charges.title")}</Tabs.Tab>
          <Tabs.Tab value="payments">{t("landlord.payments.title")}</Tabs.Tab>
          <Tabs.Tab value="receipts">{t("landlord.receipts.title")}</Tabs.Tab>
          <Tabs.Tab value="documents">{t("landlord.documents.title")}</Tabs.Tab>
          <Tabs.Tab value="letters">{t("landlord.letters.title")}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="terms" pt="md">
          <Terms contract={c} country={p.country_code} />
        </Tabs.Panel>
        <Tabs.Panel value="charges" pt="md">
          <Charges property={p} contractId={c.id} />
        </Tabs.Panel>
        <Tabs.Panel value="payments" pt="md">
          <Payments contract={c} />
        </Tabs.Panel>
        <Tabs.Panel value="receipts" pt="md">
          <Receipts contract={c} />
        </Tabs.Panel>
        <Tabs.Panel value="documents" pt="md">
          <Documents propertyId={p.id} contractId={c.id} />
        </Tabs.Panel>
        <Tabs.Panel value="letters" pt="md">
          <Letters contract={c} />
        </Tabs.Panel>
      </Tabs>
    </Page>
  );
}

function Balance({ contract: c }: { contract: S["Contract"] }) {
  const { t } = useTranslation();
  const f = useFormat();
  const b = useQuery({
    queryKey: ["balance", c.property_id, c.id],
    queryFn: () => ok(api.GET("/api/v1/properties/{propertyId}/balance", { params: { path: { propertyId: c.property_id }, query: { contract_id: c.id } } })),
  });
  if (b.error) return <Failure error={b.error} />;
  if (!b.data) return null;
  const items = [
    ["outstanding", b.data.outstanding],
    ["overdue", b.data.overdue],
    ["charged", b.data.charged],
    ["paid", b.data.paid],
    ["credit", b.data.credit],
  ] as const;
  return (
    <section aria-labelledby="balance">
      <Title order={2} size="h4" id="balance" mb="xs">
        {t("landlord.balance.title")}
      </Title>
      <SimpleGrid cols={{ base: 2, sm: 5 }}>
        {items.map(([k, v]) => (
          <Card key={k} withBorder padding="sm">
            <Text size="sm" c="dimmed">
              {t(`landlord.balance.${k}`)}
            </Text>
            <Text fw={700}>{f.money(v, b.data.currency)}</Text>
          </Card>
        ))}
      </SimpleGrid>
    </section>
  );
}

function Terms({ contract: c, country }: { contract: S["Contract"]; country: string }) {
  const { t } = useTranslation();
  const lng = useLng();
  const blocks = useBlocks(country);
  const byCode = new Map((blocks.data?.agreement_blocks ?? []).map((b) => [b.code, b]));
  if (c.terms.length === 0) return <Empty>{t("landlord.contracts.noTerms")}</Empty>;
  return (
    <Grid caption={t("landlord.contracts.terms")} head={[t("landlord.contracts.term"), t("landlord.contracts.value")]}>
      {c.terms.map((term) => (
        <Table.Tr key={term.code}>
          <Table.Td>{blockText(byCode.get(term.code)?.name, lng) || term.code}</Table.Td>
          <Table.Td>{String(term.value)}</Table.Td>
        </Table.Tr>
      ))}
    </Grid>
  );
}

function Dialog({ title, onClose, onSubmit, pending, error, submit, children }: { title: string; onClose: () => void; onSubmit: () => void; pending: boolean; error: unknown; submit: string; children: React.ReactNode }) {
  const { t } = useTranslation();
  const lines = error instanceof ApiError ? error.details : [];
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": t("landlord.close") }} title={title} size="lg">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          onSubmit();
        }}
      >
        <Stack>
          {children}
          <Failure error={error} />
          {lines.length > 1 && (
            <List size="sm">
              {lines.map((l) => (
                <List.Item key={l}>{l}</List.Item>
              ))}
            </List>
          )}
          <Button type="submit" loading={pending} w="fit-content">
            {submit}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

function useRefresh(c: S["Contract"]) {
  const queries = useQueryClient();
  return () => {
    for (const key of [["contract", c.id], ["contracts"], ["charges", c.property_id], ["balance", c.property_id], ["payments", c.id], ["receipts", c.property_id], ["documents", c.property_id]])
      void queries.invalidateQueries({ queryKey: key });
  };
}

// Before signing: what the lease says, the rules of the blocks it uses
// (each block's description in the reader's language), and the API's
// answer. The API returns no separate legal warnings; a refusal lists
// every problem, shown here line by line.
function Activate({ contract: c, property: p, onClose }: { contract: S["Contract"]; property: S["Property"]; onClose: () => void }) {
  const { t } = useTranslation();
  const lng = useLng();
  const refresh = useRefresh(c);
  const blocks = useBlocks(p.country_code);
  const byCode = new Map((blocks.data?.agreement_blocks ?? []).map((b) => [b.code, b]));
  const run = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/contracts/{contractId}/activate", { params: { path: { contractId: c.id } } })),
    onSuccess: () => {
      refresh();
      onClose();
    },
  });
  return (
    <Dialog title={t("landlord.contracts.activate")} onClose={onClose} onSubmit={() => run.mutate()} pending={run.isPending} error={run.error} submit={t("landlord.contracts.activateNow")}>
      <Text size="sm">{t("landlord.contracts.activateHint")}</Text>
      <List size="sm">
        {c.terms.map((term) => {
          const b = byCode.get(term.code);
          return (
            <List.Item key={term.code}>
              <Text size="sm" fw={600} span>
                {blockText(b?.name, lng) || term.code}: {String(term.value)}
              </Text>
              {b && <Text size="xs">{blockText(b.description, lng)}</Text>}
            </List.Item>
          );
        })}
      </List>
    </Dialog>
  );
}

function IndexRent({ contract: c, onClose }: { contract: S["Contract"]; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefresh(c);
  const next = new Date();
  const firstOfNext = `${next.getMonth() === 11 ? next.getFullYear() + 1 : next.getFullYear()}-${String(((next.getMonth() + 1) % 12) + 1).padStart(2, "0")}-01`;
  const [amount, setAmount] = useState<number | string>(c.rent ?? "");
  const [from, setFrom] = useState(firstOfNext);
  const [index, setIndex] = useState({ old_period: "", old_value: "", new_period: "", new_value: "" });
  const run = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/v1/contracts/{contractId}/rent", {
          params: { path: { contractId: c.id } },
          body: { amount: Number(amount), from, index: index.old_value || index.new_value ? index : undefined },
        }),
      ),
    onSuccess: () => {
      refresh();
      onClose();
    },
  });
  const set = (k: keyof typeof index) => (e: React.ChangeEvent<HTMLInputElement>) => setIndex({ ...index, [k]: e.currentTarget.value });
  return (
    <Dialog title={t("landlord.contracts.index")} onClose={onClose} onSubmit={() => run.mutate()} pending={run.isPending} error={run.error} submit={t("landlord.save")}>
      <Num label={t("landlord.contracts.newRent")} required min={0} decimalScale={2} value={amount} onChange={setAmount} />
      <TextInput type="date" label={t("landlord.contracts.from")} description={t("landlord.contracts.fromHint")} required value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
      <Text size="sm">{t("landlord.contracts.indexHint")}</Text>
      <Group grow>
        <TextInput label={t("landlord.contracts.oldPeriod")} placeholder="2025-01" value={index.old_period} onChange={set("old_period")} />
        <TextInput label={t("landlord.contracts.oldValue")} placeholder="117.8" value={index.old_value} onChange={set("old_value")} />
      </Group>
      <Group grow>
        <TextInput label={t("landlord.contracts.newPeriod")} placeholder="2026-01" value={index.new_period} onChange={set("new_period")} />
        <TextInput label={t("landlord.contracts.newValue")} placeholder="121.3" value={index.new_value} onChange={set("new_value")} />
      </Group>
    </Dialog>
  );
}

function Terminate({ contract: c, onClose }: { contract: S["Contract"]; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefresh(c);
  const [date, setDate] = useState(isoDay(90));
  const [by, setBy] = useState<"landlord" | "tenant" | "mutual">("tenant");
  const [received, setReceived] = useState(isoDay(0));
  const [reason, setReason] = useState("");
  const run = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/v1/contracts/{contractId}/terminate", {
          params: { path: { contractId: c.id } },
          body: { date, terminated_by: by, reason: reason || undefined, notice_received_on: by === "tenant" ? received : undefined },
        }),
      ),
    onSuccess: () => {
      refresh();
      onClose();
    },
  });
  return (
    <Dialog title={t("landlord.contracts.terminate")} onClose={onClose} onSubmit={() => run.mutate()} pending={run.isPending} error={run.error} submit={t("landlord.contracts.terminateNow")}>
      <Text size="sm">{t("landlord.contracts.terminateHint")}</Text>
      <TextInput type="date" label={t("landlord.contracts.endOn")} required value={date} onChange={(e) => setDate(e.currentTarget.value)} />
      <NativeSelect
        label={t("landlord.contracts.by")}
        value={by}
        onChange={(e) => setBy(e.currentTarget.value as typeof by)}
        data={(["tenant", "landlord", "mutual"] as const).map((v) => ({ value: v, label: t(`landlord.contracts.by_${v}`) }))}
      />
      {by === "tenant" && <TextInput type="date" label={t("landlord.contracts.noticeReceived")} value={received} onChange={(e) => setReceived(e.currentTarget.value)} />}
      <Textarea label={t("landlord.contracts.reason")} value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
    </Dialog>
  );
}

const methods = ["bank_transfer", "cash", "card", "cheque", "direct_debit", "set_off", "other"] as const;

function useOpenCharges(c: S["Contract"]) {
  return useQuery({
    queryKey: ["charges", c.property_id, c.id, "all"],
    queryFn: async () =>
      json(await ok(api.GET("/api/v1/properties/{propertyId}/charges", { params: { path: { propertyId: c.property_id }, query: { contract_id: c.id, per_page: 100 } } }))).charges,
  });
}

// A payment: by default the API spreads it over the contract's open
// charges in the contract's allocation order; "I allocate it" lets the
// landlord name the charges and amounts.
function RecordPayment({ contract: c, onClose }: { contract: S["Contract"]; onClose: () => void }) {
  const { t } = useTranslation();
  const f = useFormat();
  const refresh = useRefresh(c);
  const charges = useOpenCharges(c);
  const open = (charges.data ?? []).filter((x) => x.outstanding > 0 && x.status !== "cancelled").sort((a, b) => (a.due_date < b.due_date ? -1 : 1));
  const [amount, setAmount] = useState<number | string>("");
  const [paidOn, setPaidOn] = useState(isoDay(0));
  const [method, setMethod] = useState<(typeof methods)[number]>("bank_transfer");
  const [reference, setReference] = useState("");
  const [manual, setManual] = useState(false);
  const [parts, setParts] = useState<Record<string, number | string>>({});
  const run = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/v1/properties/{propertyId}/payments", {
          params: { path: { propertyId: c.property_id } },
          body: {
            amount: Number(amount),
            paid_on: paidOn,
            method,
            reference,
            contract_id: c.id,
            payer_id: c.tenant_id,
            allocations: manual ? Object.entries(parts).filter(([, v]) => Number(v) > 0).map(([charge_id, v]) => ({ charge_id, amount: Number(v) })) : undefined,
          },
        }),
      ),
    onSuccess: () => {
      refresh();
      onClose();
    },
  });
  return (
    <Dialog title={t("landlord.payments.record")} onClose={onClose} onSubmit={() => run.mutate()} pending={run.isPending} error={run.error} submit={t("landlord.payments.save")}>
      <Num label={t("landlord.payments.amount")} required min={0} decimalScale={2} value={amount} onChange={setAmount} />
      <TextInput type="date" label={t("landlord.payments.paidOn")} required value={paidOn} onChange={(e) => setPaidOn(e.currentTarget.value)} />
      <NativeSelect label={t("landlord.payments.method")} value={method} onChange={(e) => setMethod(e.currentTarget.value as typeof method)} data={methods.map((m) => ({ value: m, label: t(`landlord.method.${m}`) }))} />
      <TextInput label={t("landlord.payments.reference")} value={reference} onChange={(e) => setReference(e.currentTarget.value)} />
      <Checkbox label={t("landlord.payments.manual")} description={t("landlord.payments.autoHint", { order: t(`landlord.order.${c.allocation_order}`) })} checked={manual} onChange={(e) => setManual(e.currentTarget.checked)} />
      {manual &&
        open.map((x) => (
          <Num
            key={x.id}
            label={`${x.name} (${f.date(x.due_date)})`}
            description={t("landlord.payments.open", { amount: f.money(x.outstanding, x.currency) })}
            min={0}
            max={x.outstanding}
            decimalScale={2}
            value={parts[x.id] ?? ""}
            onChange={(v) => setParts({ ...parts, [x.id]: v })}
          />
        ))}
    </Dialog>
  );
}

function Payments({ contract: c }: { contract: S["Contract"] }) {
  const { t } = useTranslation();
  const f = useFormat();
  const charges = useOpenCharges(c);
  const names = new Map((charges.data ?? []).map((x) => [x.id, `${x.name} ${x.period}`]));
  const [reversing, setReversing] = useState<S["Payment"] | null>(null);
  const list = usePaged(["payments", c.id], async (after) => {
    const l = json(await ok(api.GET("/api/v1/properties/{propertyId}/payments", { params: { path: { propertyId: c.property_id }, query: { after, contract_id: c.id } } })));
    return { items: l.payments, next: l.next };
  });
  return (
    <Stack>
      <Failure error={list.error} />
      {reversing && <Reverse contract={c} payment={reversing} onClose={() => setReversing(null)} />}
      {list.isPending && <Loading />}
      {!list.isPending && list.items.length === 0 && <Empty>{t("landlord.payments.none")}</Empty>}
      {list.items.length > 0 && (
        <Grid caption={t("landlord.payments.title")} head={[t("landlord.payments.paidOn"), t("landlord.payments.amount"), t("landlord.payments.allocation"), t("landlord.payments.status"), ""]}>
          {list.items.map((x) => (
            <Table.Tr key={x.id}>
              <Table.Td>{f.date(x.paid_on)}</Table.Td>
              <Table.Td>
                {f.money(x.amount, x.currency)}
                <Text size="xs">{t(`landlord.method.${x.method}`)}{x.reference ? ` · ${x.reference}` : ""}</Text>
              </Table.Td>
              <Table.Td>
                {x.allocations.map((a) => (
                  <Text size="sm" key={a.charge_id + a.amount}>
                    {names.get(a.charge_id) ?? "…"}: {f.money(a.amount, x.currency)}
                  </Text>
                ))}
                {x.unallocated > 0 && <Text size="sm">{t("landlord.payments.credit", { amount: f.money(x.unallocated, x.currency) })}</Text>}
              </Table.Td>
              <Table.Td>
                <State kind="payment" value={x.status} />
                {x.reversal_reason && <Text size="xs">{x.reversal_reason}</Text>}
              </Table.Td>
              <Table.Td>
                {x.status === "posted" && (
                  <Button size="xs" variant="default" onClick={() => setReversing(x)} aria-label={t("landlord.payments.reverseOf", { date: f.date(x.paid_on), amount: f.money(x.amount, x.currency) })}>
                    {t("landlord.payments.reverse")}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Grid>
      )}
      <More list={list} />
    </Stack>
  );
}

function Reverse({ contract: c, payment, onClose }: { contract: S["Contract"]; payment: S["Payment"]; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefresh(c);
  const [reason, setReason] = useState("");
  const run = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/properties/{propertyId}/payments/{paymentId}/reverse", { params: { path: { propertyId: c.property_id, paymentId: payment.id } }, body: { reason } })),
    onSuccess: () => {
      refresh();
      onClose();
    },
  });
  return (
    <Dialog title={t("landlord.payments.reverse")} onClose={onClose} onSubmit={() => run.mutate()} pending={run.isPending} error={run.error} submit={t("landlord.payments.reverseNow")}>
      <Text size="sm">{t("landlord.payments.reverseHint")}</Text>
      <Textarea label={t("landlord.contracts.reason")} required value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
    </Dialog>
  );
}

// The receipts of the contract's payments: the property's receipts (the
// API lists them per property) whose payment is one of the contract's.
function Receipts({ contract: c }: { contract: S["Contract"] }) {
  const { t } = useTranslation();
  const f = useFormat();
  const payments = usePaged(["payments", c.id], async (after) => {
    const l = json(await ok(api.GET("/api/v1/properties/{propertyId}/payments", { params: { path: { propertyId: c.property_id }, query: { after, contract_id: c.id } } })));
    return { items: l.payments, next: l.next };
  });
  const ids = new Set(payments.items.map((x) => x.id));
  const list = usePaged(["receipts", c.property_id], async (after) => {
    const l = json(await ok(api.GET("/api/v1/properties/{propertyId}/receipts", { params: { path: { propertyId: c.property_id }, query: { after } } })));
    return { items: l.receipts, next: l.next };
  });
  const pdf = useMutation({
    mutationFn: (r: S["Receipt"]) => download(api.GET("/api/v1/print-forms/receipts/{receiptId}", { params: { path: { receiptId: r.id }, query: { locale: f.lng } }, parseAs: "blob" }), `receipt-${r.number}.pdf`),
  });
  const rows = list.items.filter((r) => ids.has(r.payment_id));
  return (
    <Stack>
      <Failure error={list.error ?? payments.error ?? pdf.error} />
      {list.isPending && <Loading />}
      {!list.isPending && rows.length === 0 && <Empty>{t("landlord.receipts.none")}</Empty>}
      {rows.length > 0 && (
        <Grid caption={t("landlord.receipts.title")} head={[t("landlord.receipts.number"), t("landlord.receipts.issued"), t("landlord.receipts.amount"), t("landlord.receipts.status"), t("landlord.receipts.pdf")]}>
          {rows.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{t("landlord.receipts.receipt", { number: r.number })}</Table.Td>
              <Table.Td>{f.date(r.issued_at.slice(0, 10))}</Table.Td>
              <Table.Td>{f.money(r.amount, r.currency)}</Table.Td>
              <Table.Td>
                <State kind="receipt" value={r.status} />
              </Table.Td>
              <Table.Td>
                <Button size="xs" variant="default" onClick={() => pdf.mutate(r)} loading={pdf.isPending && pdf.variables?.id === r.id} aria-label={t("landlord.receipts.pdfOf", { number: r.number })}>
                  {t("landlord.receipts.pdf")}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Grid>
      )}
      <More list={list} />
    </Stack>
  );
}

// The letters of the contract: the lease as signed, the termination's
// confirmation, and the rent history behind each indexation letter.
function Letters({ contract: c }: { contract: S["Contract"] }) {
  const { t } = useTranslation();
  const f = useFormat();
  const lease = useMutation({
    mutationFn: () => download(api.GET("/api/v1/print-forms/contracts/{contractId}", { params: { path: { contractId: c.id } }, parseAs: "blob" }), `contract-${c.number}.pdf`),
  });
  const termination = useMutation({
    mutationFn: () => download(api.GET("/api/v1/print-forms/contracts/{contractId}/termination", { params: { path: { contractId: c.id } }, parseAs: "blob" }), `termination-${c.number}.pdf`),
  });
  const rents = useQuery({ queryKey: ["contract", c.id, "rents"], queryFn: () => ok(api.GET("/api/v1/contracts/{contractId}/rents", { params: { path: { contractId: c.id } } })) });
  return (
    <Stack>
      <Failure error={lease.error ?? termination.error ?? rents.error} />
      <Group>
        <Button variant="default" onClick={() => lease.mutate()} loading={lease.isPending}>
          {t("landlord.letters.lease")}
        </Button>
        {c.terminated_on && (
          <Button variant="default" onClick={() => termination.mutate()} loading={termination.isPending}>
            {t("landlord.letters.termination")}
          </Button>
        )}
      </Group>
      {rents.data && rents.data.rents.length > 0 && (
        <Grid caption={t("landlord.letters.rents")} head={[t("landlord.contracts.from"), t("landlord.contracts.rent")]}>
          {rents.data.rents.map((r) => (
            <Table.Tr key={r.from}>
              <Table.Td>{f.date(r.from)}</Table.Td>
              <Table.Td>{f.money(r.amount, c.currency)}</Table.Td>
            </Table.Tr>
          ))}
        </Grid>
      )}
    </Stack>
  );
}
