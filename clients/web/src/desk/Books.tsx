// The books (issue 49, slice 4): the workspace's bills (keyset pages;
// record, change, delete), the trial balance on a day with each account's
// movements, and the tax year with its form's lines. Every figure is the
// API's (modules expenses, ledger, taxyear); the files are the API's.
import { Anchor, Badge, Button, Checkbox, Group, Modal, NativeSelect, NumberInput, Stack, Table, Tabs, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { api, ok } from "../api/client";
import { Empty, Failure, Grid, Loading, More, Page, json, isoDay, useFormat, usePaged, type S } from "../landlord/common";
import { amountText, billBody, billCategories, billErrors, operatingCategories, type BillField, type BillForm } from "./logic";
import { Files, useProperties, useSuppliers } from "./shared";

const tabs = ["bills", "trial", "tax"] as const;

export function BooksPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const tab = (tabs as readonly string[]).includes(params.get("tab") ?? "") ? params.get("tab")! : "bills";
  return (
    <Page title={t("desk.books.title")}>
      <Tabs value={tab} onChange={(v) => setParams(v && v !== "bills" ? { tab: v } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List>
          {tabs.map((k) => (
            <Tabs.Tab key={k} value={k}>
              {t(`desk.books.tabs.${k}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="bills" pt="md">
          <Bills />
        </Tabs.Panel>
        <Tabs.Panel value="trial" pt="md">
          <TrialBalance />
        </Tabs.Panel>
        <Tabs.Panel value="tax" pt="md">
          <TaxYear />
        </Tabs.Panel>
      </Tabs>
    </Page>
  );
}

const Th = ({ children, num }: { children: ReactNode; num?: boolean }) => (
  <Table.Th scope="col" style={num ? { textAlign: "right" } : undefined}>
    {children}
  </Table.Th>
);
const Amount = ({ children }: { children: ReactNode }) => <Table.Td style={{ textAlign: "right", whiteSpace: "nowrap" }}>{children}</Table.Td>;

type Bill = S["Bill"];

function Bills() {
  const { t } = useTranslation();
  const f = useFormat();
  const [property, setProperty] = useState("");
  const [status, setStatus] = useState("");
  const [editing, setEditing] = useState<Bill | "new" | null>(null);
  const [deleting, setDeleting] = useState<Bill | null>(null);
  const props = useProperties();
  const suppliers = useSuppliers();
  const query = { property_id: property || undefined, status: (status || undefined) as "paid" | "unpaid" | undefined };
  const list = usePaged(["bills", property, status], async (after) => {
    const l = json(await ok(api.GET("/api/v1/bills", { params: { query: { ...query, after, per_page: 50 } } })));
    return { items: l.bills, next: l.next };
  });
  const propertyName = (id: string) => props.data?.find((p) => p.id === id)?.name ?? "–";
  const supplierName = (id: string) => suppliers.data?.find((s) => s.id === id)?.name ?? "–";
  return (
    <Stack>
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <NativeSelect
            label={t("desk.bills.property")}
            value={property}
            onChange={(e) => setProperty(e.currentTarget.value)}
            data={[{ value: "", label: t("desk.bills.allProperties") }, ...(props.data ?? []).map((p) => ({ value: p.id, label: p.name }))]}
            w={240}
          />
          <NativeSelect
            label={t("desk.bills.status")}
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value)}
            data={[
              { value: "", label: t("landlord.all") },
              { value: "unpaid", label: t("desk.bills.states.unpaid") },
              { value: "paid", label: t("desk.bills.states.paid") },
            ]}
            w={160}
          />
        </Group>
        <Button onClick={() => setEditing("new")}>{t("desk.bills.new")}</Button>
      </Group>
      <Files formats={["csv", "xlsx"]} name="bills" call={(format) => api.GET("/api/v1/bills", { params: { query: { ...query, format: format as "csv" } }, parseAs: "blob" })} />
      <Failure error={list.error} />
      {list.isPending && <Loading />}
      {!list.isPending && !list.error && list.items.length === 0 && <Empty>{t("desk.bills.none")}</Empty>}
      {list.items.length > 0 && (
        <Grid
          caption={t("desk.bills.title")}
          head={[t("desk.bills.date"), t("desk.bills.supplier"), t("desk.bills.property"), t("desk.bills.category"), t("desk.bills.amount"), t("desk.bills.vat"), t("desk.bills.status"), t("desk.bills.actions")]}
        >
          {list.items.map((b) => (
            <Table.Tr key={b.id}>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{f.date(b.bill_date)}</Table.Td>
              <Table.Td>{supplierName(b.supplier_id)}</Table.Td>
              <Table.Td>{propertyName(b.property_id)}</Table.Td>
              <Table.Td>
                {t(`desk.bills.categories.${b.category}`)}
                {b.operating_cost_category && (
                  <Text size="xs" c="dimmed">
                    {t(`desk.bills.operating.${b.operating_cost_category}`)}
                    {b.allocable ? ` · ${t("desk.bills.allocable")}` : ""}
                  </Text>
                )}
              </Table.Td>
              <Amount>{f.money(b.amount, b.currency)}</Amount>
              <Amount>{f.money(b.vat_amount, b.currency)}</Amount>
              <Table.Td>
                <Badge color={b.status === "paid" ? "green" : "orange"} variant="light" c="dark.7">
                  {t(`desk.bills.states.${b.status}`)}
                </Badge>
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  <Button size="compact-xs" variant="default" onClick={() => setEditing(b)} aria-label={t("desk.bills.editOf", { date: f.date(b.bill_date), amount: f.money(b.amount, b.currency) })}>
                    {t("desk.edit")}
                  </Button>
                  <Button size="compact-xs" variant="default" color="red" onClick={() => setDeleting(b)} aria-label={t("desk.bills.deleteOf", { date: f.date(b.bill_date), amount: f.money(b.amount, b.currency) })}>
                    {t("desk.delete")}
                  </Button>
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Grid>
      )}
      <More list={list} />
      {editing && <BillEditor bill={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
      {deleting && <BillDelete bill={deleting} onClose={() => setDeleting(null)} />}
    </Stack>
  );
}

function formOf(b: Bill | null, lng: string): BillForm {
  if (!b) return { propertyId: "", supplierId: "", billDate: isoDay(), dueDate: "", amount: "", vatRate: "", category: "", operatingCategory: "", allocable: false, paidOn: "", note: "" };
  return {
    propertyId: b.property_id, supplierId: b.supplier_id, billDate: b.bill_date, dueDate: b.due_date, amount: amountText(b.amount, lng), vatRate: amountText(b.vat_rate, lng),
    category: b.category, operatingCategory: b.operating_cost_category ?? "", allocable: b.allocable, paidOn: b.paid_on ?? "", note: b.note,
  };
}

function BillEditor({ bill, onClose }: { bill: Bill | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { lng } = useFormat();
  const queries = useQueryClient();
  const props = useProperties();
  const suppliers = useSuppliers();
  const [v, setV] = useState<BillForm>(() => formOf(bill, lng));
  const [shown, setShown] = useState(false);
  const [supplierName, setSupplierName] = useState("");
  const errors = billErrors(v, lng);
  const err = (k: BillField) => (shown && errors[k] ? t(`desk.bills.errors.${errors[k]}`) : undefined);
  const set = (k: keyof BillForm) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => setV({ ...v, [k]: e.currentTarget.value });
  const save = useMutation({
    mutationFn: async () => {
      const body = billBody(v, lng);
      if (bill) {
        // The property of a bill is where it lives: it does not move.
        return ok(api.PUT("/api/v1/properties/{propertyId}/bills/{billId}", { params: { path: { propertyId: bill.property_id, billId: bill.id } }, body }));
      }
      return ok(api.POST("/api/v1/properties/{propertyId}/bills", { params: { path: { propertyId: v.propertyId } }, body }));
    },
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["bills"] });
      void queries.invalidateQueries({ queryKey: ["desk", "trial"] });
      onClose();
    },
  });
  const addSupplier = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/contragents", { body: { kind: "company", roles: ["provider"], name: supplierName.trim() } })),
    onSuccess: (c) => {
      void queries.invalidateQueries({ queryKey: ["contragents"] });
      setSupplierName("");
      setV((old) => ({ ...old, supplierId: c.id }));
    },
  });
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": t("landlord.close") }} title={bill ? t("desk.bills.edit") : t("desk.bills.new")} size="lg">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setShown(true);
          if (Object.keys(errors).length === 0) save.mutate();
        }}
      >
        <Stack>
          <NativeSelect
            label={t("desk.bills.property")}
            required
            disabled={!!bill}
            value={v.propertyId}
            onChange={set("propertyId")}
            error={err("propertyId")}
            data={[{ value: "", label: t("desk.bills.pickProperty") }, ...(props.data ?? []).map((p) => ({ value: p.id, label: p.name }))]}
          />
          <NativeSelect
            label={t("desk.bills.supplier")}
            required
            value={v.supplierId}
            onChange={set("supplierId")}
            error={err("supplierId")}
            data={[{ value: "", label: t("desk.bills.pickSupplier") }, ...(suppliers.data ?? []).map((s) => ({ value: s.id, label: s.name }))]}
          />
          <Group align="flex-end" gap="xs">
            <TextInput label={t("desk.bills.newSupplier")} value={supplierName} onChange={(e) => setSupplierName(e.currentTarget.value)} style={{ flex: 1 }} miw={180} />
            <Button variant="default" disabled={supplierName.trim().length < 2} loading={addSupplier.isPending} onClick={() => addSupplier.mutate()}>
              {t("desk.bills.addSupplier")}
            </Button>
          </Group>
          <Failure error={addSupplier.error} />
          <Group grow align="flex-start" wrap="wrap">
            <TextInput type="date" label={t("desk.bills.date")} required value={v.billDate} onChange={set("billDate")} error={err("billDate")} miw={150} />
            <TextInput type="date" label={t("desk.bills.due")} description={t("desk.bills.dueHint")} value={v.dueDate} onChange={set("dueDate")} error={err("dueDate")} miw={150} />
          </Group>
          <Group grow align="flex-start" wrap="wrap">
            <TextInput label={t("desk.bills.amount")} description={t("desk.bills.amountHint")} required inputMode="decimal" value={v.amount} onChange={set("amount")} error={err("amount")} miw={150} />
            <TextInput label={t("desk.bills.vatRate")} description={t("desk.bills.vatRateHint")} inputMode="decimal" value={v.vatRate} onChange={set("vatRate")} error={err("vatRate")} miw={150} />
          </Group>
          <NativeSelect
            label={t("desk.bills.category")}
            required
            value={v.category}
            onChange={set("category")}
            error={err("category")}
            data={[{ value: "", label: t("desk.bills.pickCategory") }, ...billCategories.map((c) => ({ value: c, label: t(`desk.bills.categories.${c}`) }))]}
          />
          {v.category === "operating" && (
            <>
              <NativeSelect
                label={t("desk.bills.operatingCategory")}
                value={v.operatingCategory}
                onChange={set("operatingCategory")}
                error={err("operatingCategory")}
                data={[{ value: "", label: "–" }, ...operatingCategories.map((c) => ({ value: c, label: t(`desk.bills.operating.${c}`) }))]}
              />
              <Checkbox label={t("desk.bills.allocableLong")} checked={v.allocable} onChange={(e) => setV({ ...v, allocable: e.currentTarget.checked })} />
            </>
          )}
          <TextInput type="date" label={t("desk.bills.paidOn")} description={t("desk.bills.paidOnHint")} value={v.paidOn} onChange={set("paidOn")} error={err("paidOn")} />
          <Textarea label={t("desk.bills.note")} value={v.note} onChange={set("note")} autosize minRows={2} maxLength={2000} />
          <Failure error={save.error} />
          <Button type="submit" loading={save.isPending} w="fit-content">
            {t("landlord.save")}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

function BillDelete({ bill, onClose }: { bill: Bill; onClose: () => void }) {
  const { t } = useTranslation();
  const f = useFormat();
  const queries = useQueryClient();
  const del = useMutation({
    mutationFn: () => ok(api.DELETE("/api/v1/properties/{propertyId}/bills/{billId}", { params: { path: { propertyId: bill.property_id, billId: bill.id } } })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["bills"] });
      void queries.invalidateQueries({ queryKey: ["desk", "trial"] });
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": t("landlord.close") }} title={t("desk.bills.deleteTitle")}>
      <Stack>
        <Text>{t("desk.bills.deleteConfirm", { date: f.date(bill.bill_date), amount: f.money(bill.amount, bill.currency) })}</Text>
        <Failure error={del.error} />
        <Group>
          <Button color="red" onClick={() => del.mutate()} loading={del.isPending}>
            {t("desk.delete")}
          </Button>
          <Button variant="default" onClick={onClose}>
            {t("desk.cancel")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function TrialBalance() {
  const { t } = useTranslation();
  const f = useFormat();
  const [asOf, setAsOf] = useState("");
  const r = useQuery({
    queryKey: ["desk", "trial", asOf],
    queryFn: async () => ok(api.GET("/api/v1/reports/trial-balance", { params: { query: { as_of: asOf || undefined } } })),
  });
  const money = (n: number, currency: string | null) => (currency ? f.money(n, currency) : String(n));
  return (
    <Stack>
      <Title order={2}>{t("desk.books.tabs.trial")}</Title>
      <TextInput type="date" label={t("desk.trial.asOf")} description={t("desk.trial.asOfHint")} value={asOf} onChange={(e) => setAsOf(e.currentTarget.value)} w={220} />
      {r.isPending ? (
        <Loading />
      ) : r.error ? (
        <Failure error={r.error} />
      ) : r.data.rows.length === 0 ? (
        <Empty>{t("desk.trial.none")}</Empty>
      ) : (
        <>
          <Text size="sm">{t("desk.trial.asOfDay", { date: f.date(r.data.as_of) })}</Text>
          <Table.ScrollContainer minWidth={600}>
            <Table striped>
              <Table.Caption>{t("desk.trial.caption")}</Table.Caption>
              <Table.Thead>
                <Table.Tr>
                  <Th>{t("desk.trial.code")}</Th>
                  <Th>{t("desk.trial.account")}</Th>
                  <Th>{t("desk.trial.type")}</Th>
                  <Th num>{t("desk.trial.debit")}</Th>
                  <Th num>{t("desk.trial.credit")}</Th>
                  <Th num>{t("desk.trial.balance")}</Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.data.rows.map((row) => (
                  <Table.Tr key={`${row.account_id}-${row.currency ?? ""}`}>
                    <Table.Td>{row.code}</Table.Td>
                    <Table.Td>
                      <Anchor component={Link} to={`/app/books/accounts/${row.account_id}`}>
                        {row.name}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{t(`desk.trial.types.${row.type}`)}</Table.Td>
                    <Amount>{money(row.debit, row.currency)}</Amount>
                    <Amount>{money(row.credit, row.currency)}</Amount>
                    <Amount>{money(row.balance, row.currency)}</Amount>
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                {r.data.totals.map((tot) => (
                  <Table.Tr key={tot.currency} fw={700}>
                    <Table.Th scope="row" colSpan={3}>
                      {t("desk.trial.total", { currency: tot.currency })}
                    </Table.Th>
                    <Amount>{f.money(tot.debit, tot.currency)}</Amount>
                    <Amount>{f.money(tot.credit, tot.currency)}</Amount>
                    <Amount>{f.money(tot.balance, tot.currency)}</Amount>
                  </Table.Tr>
                ))}
              </Table.Tfoot>
            </Table>
          </Table.ScrollContainer>
        </>
      )}
      <Title order={3}>{t("desk.trial.journal")}</Title>
      <Files formats={["csv", "xlsx"]} name="journal" call={(format) => api.GET("/api/v1/ledger/journal/export", { params: { query: { format: format as "csv", to: asOf || undefined } }, parseAs: "blob" })} />
    </Stack>
  );
}

// An account's lines, oldest first, 50 a page (the API's cursor).
export function AccountPage() {
  const { t } = useTranslation();
  const f = useFormat();
  const { accountId = "" } = useParams();
  const accounts = useQuery({
    queryKey: ["desk", "accounts"],
    queryFn: async () => (await ok(api.GET("/api/v1/ledger/accounts"))).accounts,
  });
  const account = accounts.data?.find((a) => a.id === accountId);
  const list = usePaged(["desk", "movements", accountId], async (after) => {
    const l = json(await ok(api.GET("/api/v1/ledger/accounts/{accountId}/movements", { params: { path: { accountId }, query: { after, per_page: 50 } } })));
    return { items: l.movements, next: l.next };
  });
  return (
    <Page title={account ? `${account.code} ${account.name}` : t("desk.account.title")} back={{ to: "/app/books?tab=trial", label: t("desk.books.tabs.trial") }}>
      <Failure error={accounts.error} />
      {account && (
        <Text size="sm">
          {t("desk.account.balance")}: {account.balances.length === 0 ? "–" : account.balances.map((b) => f.money(b.balance, b.currency)).join(" · ")}
        </Text>
      )}
      <Files formats={["csv", "xlsx"]} name="movements" call={(format) => api.GET("/api/v1/ledger/accounts/{accountId}/movements", { params: { path: { accountId }, query: { format: format as "csv" } }, parseAs: "blob" })} />
      <Failure error={list.error} />
      {list.isPending && <Loading />}
      {!list.isPending && !list.error && list.items.length === 0 && <Empty>{t("desk.account.none")}</Empty>}
      {list.items.length > 0 && (
        <Grid caption={t("desk.account.caption")} head={[t("desk.account.date"), t("desk.account.kind"), t("desk.account.memo"), t("desk.trial.debit"), t("desk.trial.credit")]}>
          {list.items.map((m) => (
            <Table.Tr key={m.id}>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{f.date(m.date)}</Table.Td>
              <Table.Td>{t(`desk.account.kinds.${m.kind}`, { defaultValue: m.kind })}</Table.Td>
              <Table.Td>{m.memo}</Table.Td>
              <Amount>{m.debit ? f.money(m.debit, m.currency) : ""}</Amount>
              <Amount>{m.credit ? f.money(m.credit, m.currency) : ""}</Amount>
            </Table.Tr>
          ))}
        </Grid>
      )}
      <More list={list} />
    </Page>
  );
}

const forms = ["anlage-v", "2044", "sa105", "schedule-e"] as const;

function TaxYear() {
  const { t } = useTranslation();
  const f = useFormat();
  const props = useProperties();
  const [year, setYear] = useState<number>(new Date().getFullYear() - 1);
  const [form, setForm] = useState("");
  const [property, setProperty] = useState("");
  const query = { year, form: (form || undefined) as (typeof forms)[number] | undefined, property_id: property || undefined };
  const r = useQuery({
    queryKey: ["desk", "tax-year", year, form, property],
    queryFn: async () => json(await ok(api.GET("/api/v1/reports/tax-year", { params: { query } }))),
  });
  const block = (b: S["TaxYearBlock"], title: string) => (
    <Stack key={`${b.property_id ?? "total"}-${b.currency}`} gap="xs">
      <Title order={3}>{title}</Title>
      <Table.ScrollContainer minWidth={420}>
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Th>{t("desk.tax.line")}</Th>
              <Th>{t("desk.tax.item")}</Th>
              <Th num>{t("desk.tax.amount")}</Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {b.lines.map((l) => (
              <Table.Tr key={l.key} fw={l.kind === "total" ? 700 : undefined}>
                <Table.Td>{l.line}</Table.Td>
                <Table.Td>{l.label}</Table.Td>
                <Amount>{l.kind === "manual" ? t("desk.tax.manual") : f.money(l.amount, b.currency)}</Amount>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
  return (
    <Stack>
      <Title order={2}>{t("desk.books.tabs.tax")}</Title>
      <Group align="flex-end">
        <NumberInput label={t("desk.tax.year")} value={year} min={2000} max={2100} allowDecimal={false} onChange={(v) => typeof v === "number" && setYear(v)} w={120} />
        <NativeSelect
          label={t("desk.tax.form")}
          value={form}
          onChange={(e) => setForm(e.currentTarget.value)}
          data={[{ value: "", label: t("desk.tax.formAuto") }, ...forms.map((x) => ({ value: x, label: t(`desk.tax.forms.${x}`) }))]}
        />
        <NativeSelect
          label={t("desk.bills.property")}
          value={property}
          onChange={(e) => setProperty(e.currentTarget.value)}
          data={[{ value: "", label: t("desk.tax.workspace") }, ...(props.data ?? []).map((p) => ({ value: p.id, label: p.name }))]}
          w={240}
        />
      </Group>
      <Files formats={["csv", "xlsx", "pdf"]} name={`tax-year-${year}`} call={(format) => api.GET("/api/v1/reports/tax-year", { params: { query: { ...query, format } }, parseAs: "blob" })} />
      {r.isPending ? (
        <Loading />
      ) : r.error ? (
        <Failure error={r.error} />
      ) : r.data.properties.length === 0 ? (
        <Empty>{t("desk.tax.none")}</Empty>
      ) : (
        <>
          <Text fw={600}>{r.data.title}</Text>
          {r.data.properties.map((b) => block(b, b.property_name ?? ""))}
          {r.data.properties.length > 1 && r.data.totals.map((b) => block(b, t("desk.trial.total", { currency: b.currency })))}
        </>
      )}
    </Stack>
  );
}
