// The reports (issue 49, slice 3): arrears by age, the rent roll, income
// by month on a cash or an accrual basis, the owner statement (PDF), the
// trial balance and the tax year with its form. The figures, totals
// included, are the API's (modules reports, ledger, taxyear); the charts
// draw them (recharts), and the spreadsheets and PDFs are the API's files,
// fetched with the token in the Authorization header.
import { Button, Group, NativeSelect, NumberInput, Stack, Table, Tabs, Text, TextInput, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { components } from "../../../typescript/src/schema";
import { api, ok } from "../api/client";
import { ApiError } from "../api/errors";
import { formatDate, formatMoney } from "../format";
import { Failure, Loading } from "../pages/common";
import { ageBuckets, arrearsRows, incomeRows, lastMonth } from "./logic";
import { downloadFile, OfficePage, useLng, Wide } from "./shell";

type S = components["schemas"];

function json<T>(x: T | string): T {
  if (typeof x === "string") throw new ApiError(0, "unexpected", "");
  return x;
}

const tabs = ["arrears", "rentRoll", "income", "owner", "trial", "tax"] as const;

export function ReportsPage() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<string | null>("arrears");
  return (
    <OfficePage title={t("office.reports.title")}>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          {tabs.map((k) => (
            <Tabs.Tab key={k} value={k}>
              {t(`office.reports.tabs.${k}`)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        <Tabs.Panel value="arrears" pt="md">
          <Arrears />
        </Tabs.Panel>
        <Tabs.Panel value="rentRoll" pt="md">
          <RentRoll />
        </Tabs.Panel>
        <Tabs.Panel value="income" pt="md">
          <Income />
        </Tabs.Panel>
        <Tabs.Panel value="owner" pt="md">
          <OwnerStatement />
        </Tabs.Panel>
        <Tabs.Panel value="trial" pt="md">
          <TrialBalance />
        </Tabs.Panel>
        <Tabs.Panel value="tax" pt="md">
          <TaxYear />
        </Tabs.Panel>
      </Tabs>
    </OfficePage>
  );
}

// The file buttons of a report: each fetches the API's file with the
// page's query and saves it; a refusal is shown as the API's message.
function Downloads({ path, query, formats, name }: { path: string; query: Record<string, string | number | undefined>; formats: readonly string[]; name: string }) {
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
              downloadFile(path, { ...query, format }, `${name}.${format}`)
                .catch(setError)
                .finally(() => setBusy(""));
            }}
          >
            {t(`office.download.${format}`)}
          </Button>
        ))}
      </Group>
      <Failure error={error} />
    </Stack>
  );
}

// A chart is a picture of the table beside it: a figure with its caption;
// recharts' keyboard layer is off, the table carries the same numbers.
function Chart({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <figure style={{ margin: 0 }}>
      <figcaption>
        <Text size="sm" fw={600}>
          {caption}
        </Text>
      </figcaption>
      <div style={{ width: "100%", height: 260 }}>{children}</div>
    </figure>
  );
}

const Th = ({ children, num }: { children: ReactNode; num?: boolean }) => (
  <Table.Th scope="col" style={num ? { textAlign: "right" } : undefined}>
    {children}
  </Table.Th>
);
const Num = ({ children }: { children: ReactNode }) => <Table.Td style={{ textAlign: "right", whiteSpace: "nowrap" }}>{children}</Table.Td>;

function useMoney() {
  const lng = useLng();
  return (n: number | null | undefined, currency: string) => (n === null || n === undefined ? "–" : formatMoney(n, currency, lng));
}

function AsOf({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const { t } = useTranslation();
  return <TextInput type="date" label={t("office.reports.asOf")} description={t("office.reports.asOfHint")} value={value} onChange={(e) => onChange(e.currentTarget.value)} w={220} />;
}

function Arrears() {
  const { t } = useTranslation();
  const lng = useLng();
  const money = useMoney();
  const [asOf, setAsOf] = useState("");
  const query = { as_of: asOf || undefined };
  const r = useQuery({
    queryKey: ["office", "report", "arrears", asOf],
    queryFn: async () => json(await ok(api.GET("/api/v1/reports/arrears", { params: { query } }))),
  });
  return (
    <Stack>
      <Title order={2}>{t("office.reports.tabs.arrears")}</Title>
      <AsOf value={asOf} onChange={setAsOf} />
      <Downloads path="/reports/arrears" query={query} formats={["csv", "xlsx"]} name="arrears" />
      {r.isPending ? (
        <Loading />
      ) : r.error ? (
        <Failure error={r.error} />
      ) : r.data.arrears.length === 0 ? (
        <Text c="dimmed">{t("office.reports.noArrears", { date: formatDate(r.data.as_of, lng) })}</Text>
      ) : (
        <>
          {r.data.totals.map((tot) => (
            <Chart key={tot.currency} caption={t("office.reports.arrearsByAge", { currency: tot.currency })}>
              <ResponsiveContainer>
                <BarChart data={arrearsRows(tot).map((b) => ({ ...b, bucket: t(`office.reports.age.${b.bucket}`) }))} accessibilityLayer={false}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="bucket" />
                  <YAxis tickFormatter={(v: number) => money(v, tot.currency)} width={90} />
                  <Tooltip formatter={(v) => money(Number(v), tot.currency)} />
                  <Bar dataKey="amount" name={t("office.reports.owed")} fill="var(--mantine-color-red-7)" />
                </BarChart>
              </ResponsiveContainer>
            </Chart>
          ))}
          <Wide minWidth={640}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Th>{t("office.reports.property")}</Th>
                  <Th>{t("office.reports.tenant")}</Th>
                  {ageBuckets.map((b) => (
                    <Th key={b} num>
                      {t(`office.reports.age.${b}`)}
                    </Th>
                  ))}
                  <Th num>{t("office.reports.total")}</Th>
                  <Th>{t("office.reports.oldestDue")}</Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.data.arrears.map((a) => (
                  <Table.Tr key={`${a.property_id}-${a.contract_id ?? ""}-${a.currency}`}>
                    <Table.Td>{a.property_name}</Table.Td>
                    <Table.Td>
                      {a.tenant_name ?? "–"}
                      {a.contract_number && ` (${a.contract_number})`}
                    </Table.Td>
                    {ageBuckets.map((b) => (
                      <Num key={b}>{money(a[b], a.currency)}</Num>
                    ))}
                    <Num>{money(a.total, a.currency)}</Num>
                    <Table.Td>{formatDate(a.oldest_due_date, lng)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                {r.data.totals.map((tot) => (
                  <Table.Tr key={tot.currency} fw={700}>
                    <Table.Th scope="row" colSpan={2}>
                      {t("office.reports.totalIn", { currency: tot.currency })}
                    </Table.Th>
                    {ageBuckets.map((b) => (
                      <Num key={b}>{money(tot[b], tot.currency)}</Num>
                    ))}
                    <Num>{money(tot.total, tot.currency)}</Num>
                    <Table.Td />
                  </Table.Tr>
                ))}
              </Table.Tfoot>
            </Table>
          </Wide>
        </>
      )}
    </Stack>
  );
}

function RentRoll() {
  const { t } = useTranslation();
  const lng = useLng();
  const money = useMoney();
  const [asOf, setAsOf] = useState("");
  const query = { as_of: asOf || undefined };
  const r = useQuery({
    queryKey: ["office", "report", "rent-roll", asOf],
    queryFn: async () => json(await ok(api.GET("/api/v1/reports/rent-roll", { params: { query } }))),
  });
  return (
    <Stack>
      <Title order={2}>{t("office.reports.tabs.rentRoll")}</Title>
      <AsOf value={asOf} onChange={setAsOf} />
      <Downloads path="/reports/rent-roll" query={query} formats={["csv", "xlsx"]} name="rent-roll" />
      {r.isPending ? (
        <Loading />
      ) : r.error ? (
        <Failure error={r.error} />
      ) : (
        <Wide minWidth={640}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Th>{t("office.reports.property")}</Th>
                <Th>{t("office.reports.tenant")}</Th>
                <Th>{t("office.reports.period")}</Th>
                <Th num>{t("office.reports.rent")}</Th>
                <Th num>{t("office.reports.depositHeld")}</Th>
                <Th num>{t("office.reports.outstanding")}</Th>
                <Th num>{t("office.reports.overdue")}</Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {r.data.units.map((u) => (
                <Table.Tr key={u.property_id}>
                  <Table.Td>{u.property_name}</Table.Td>
                  <Table.Td>{u.tenant_name ? `${u.tenant_name} (${u.contract_number})` : t("office.reports.vacant")}</Table.Td>
                  <Table.Td>
                    {u.start_date ? `${formatDate(u.start_date, lng)} – ${u.end_date ? formatDate(u.end_date, lng) : ""}` : "–"}
                  </Table.Td>
                  <Num>{money(u.rent, u.currency)}</Num>
                  <Num>{money(u.deposit_held, u.currency)}</Num>
                  <Num>{money(u.outstanding, u.currency)}</Num>
                  <Num>{money(u.overdue, u.currency)}</Num>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              {r.data.totals.map((tot) => (
                <Table.Tr key={tot.currency} fw={700}>
                  <Table.Th scope="row">{t("office.reports.totalIn", { currency: tot.currency })}</Table.Th>
                  <Table.Td>{t("office.reports.let", { let: tot.let, units: tot.units })}</Table.Td>
                  <Table.Td />
                  <Num>{money(tot.rent, tot.currency)}</Num>
                  <Num>{money(tot.deposit_held, tot.currency)}</Num>
                  <Num>{money(tot.outstanding, tot.currency)}</Num>
                  <Num>{money(tot.overdue, tot.currency)}</Num>
                </Table.Tr>
              ))}
            </Table.Tfoot>
          </Table>
        </Wide>
      )}
    </Stack>
  );
}

function useProperties() {
  return useQuery({
    queryKey: ["office", "properties", "in-use"],
    queryFn: async () => json(await ok(api.GET("/api/v1/properties", { params: { query: { archived: "false", per_page: 100 } } }))).properties,
  });
}

function PropertySelect({ value, onChange, required }: { value: string; onChange: (v: string) => void; required?: boolean }) {
  const { t } = useTranslation();
  const props = useProperties();
  const data = (props.data ?? []).map((p) => ({ value: p.id, label: p.name }));
  return (
    <NativeSelect
      label={t("office.reports.property")}
      value={value}
      required={required}
      onChange={(e) => onChange(e.currentTarget.value)}
      data={required ? [{ value: "", label: t("office.reports.pickProperty") }, ...data] : [{ value: "", label: t("office.reports.allProperties") }, ...data]}
      w={260}
    />
  );
}

const thisYear = new Date().getUTCFullYear();

function Income() {
  const { t } = useTranslation();
  const lng = useLng();
  const money = useMoney();
  const [year, setYear] = useState<number>(thisYear);
  const [basis, setBasis] = useState<"cash" | "accrual">("cash");
  const [property, setProperty] = useState("");
  const query = { year, basis, property_id: property || undefined };
  const r = useQuery({
    queryKey: ["office", "report", "income", year, basis, property],
    queryFn: async () => json(await ok(api.GET("/api/v1/reports/income", { params: { query } }))),
  });
  const columns = ["charged", "collected", "outstanding", "rent_income", "other_income", "income", "deposits", "prepayments"] as const;
  return (
    <Stack>
      <Title order={2}>{t("office.reports.tabs.income")}</Title>
      <Group align="flex-end">
        <NumberInput label={t("office.reports.year")} value={year} min={1900} max={9998} allowDecimal={false} onChange={(v) => typeof v === "number" && setYear(v)} w={120} />
        <NativeSelect
          label={t("office.reports.basis")}
          value={basis}
          onChange={(e) => setBasis(e.currentTarget.value as "cash" | "accrual")}
          data={[
            { value: "cash", label: t("office.reports.cash") },
            { value: "accrual", label: t("office.reports.accrual") },
          ]}
        />
        <PropertySelect value={property} onChange={setProperty} />
      </Group>
      <Downloads path="/reports/income" query={query} formats={["csv", "xlsx"]} name={`income-${year}`} />
      {r.isPending ? (
        <Loading />
      ) : r.error ? (
        <Failure error={r.error} />
      ) : r.data.totals.length === 0 ? (
        <Text c="dimmed">{t("office.reports.noIncome")}</Text>
      ) : (
        r.data.totals.map((tot) => (
          <Stack key={tot.currency}>
            <Chart caption={t("office.reports.incomeByMonth", { currency: tot.currency, year: r.data.year })}>
              <ResponsiveContainer>
                <BarChart data={incomeRows(r.data.months, tot.currency, lng)} accessibilityLayer={false}>
                  <CartesianGrid strokeDasharray="3 3" />
                  <XAxis dataKey="month" />
                  <YAxis tickFormatter={(v: number) => money(v, tot.currency)} width={90} />
                  <Tooltip formatter={(v) => money(Number(v), tot.currency)} />
                  <Legend />
                  <Bar dataKey="charged" name={t("office.reports.col.charged")} fill="var(--mantine-color-gray-6)" />
                  <Bar dataKey="collected" name={t("office.reports.col.collected")} fill="var(--mantine-color-green-7)" />
                  <Bar dataKey="outstanding" name={t("office.reports.col.outstanding")} fill="var(--mantine-color-red-7)" />
                </BarChart>
              </ResponsiveContainer>
            </Chart>
            <Wide minWidth={800}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Th>{t("office.reports.month")}</Th>
                    {columns.map((c) => (
                      <Th key={c} num>
                        {t(`office.reports.col.${c}`)}
                      </Th>
                    ))}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {r.data.months
                    .filter((m) => m.currency === tot.currency)
                    .map((m) => (
                      <Table.Tr key={m.month}>
                        <Table.Td>{m.month}</Table.Td>
                        {columns.map((c) => (
                          <Num key={c}>{money(m[c], m.currency)}</Num>
                        ))}
                      </Table.Tr>
                    ))}
                </Table.Tbody>
                <Table.Tfoot>
                  <Table.Tr fw={700}>
                    <Table.Th scope="row">{t("office.reports.totalIn", { currency: tot.currency })}</Table.Th>
                    {columns.map((c) => (
                      <Num key={c}>{money(tot[c], tot.currency)}</Num>
                    ))}
                  </Table.Tr>
                </Table.Tfoot>
              </Table>
            </Wide>
          </Stack>
        ))
      )}
    </Stack>
  );
}

function OwnerStatement() {
  const { t } = useTranslation();
  const [property, setProperty] = useState("");
  const [month, setMonth] = useState(lastMonth());
  return (
    <Stack>
      <Title order={2}>{t("office.reports.tabs.owner")}</Title>
      <Text size="sm">{t("office.reports.ownerHint")}</Text>
      <Group align="flex-end">
        <PropertySelect value={property} onChange={setProperty} required />
        <TextInput type="month" label={t("office.reports.month")} value={month} onChange={(e) => setMonth(e.currentTarget.value)} w={200} />
      </Group>
      {property ? (
        <Downloads path="/reports/owner-statement" query={{ property_id: property, month: /^\d{4}-\d{2}$/.test(month) ? month : undefined }} formats={["pdf"]} name={`owner-statement-${month}`} />
      ) : null}
    </Stack>
  );
}

function TrialBalance() {
  const { t } = useTranslation();
  const lng = useLng();
  const money = useMoney();
  const [asOf, setAsOf] = useState("");
  const r = useQuery({
    queryKey: ["office", "report", "trial-balance", asOf],
    queryFn: async () => ok(api.GET("/api/v1/reports/trial-balance", { params: { query: { as_of: asOf || undefined } } })),
  });
  return (
    <Stack>
      <Title order={2}>{t("office.reports.tabs.trial")}</Title>
      <AsOf value={asOf} onChange={setAsOf} />
      {r.isPending ? (
        <Loading />
      ) : r.error ? (
        <Failure error={r.error} />
      ) : (
        <>
          <Text size="sm">{t("office.reports.asOfDay", { date: formatDate(r.data.as_of, lng) })}</Text>
          <Wide minWidth={600}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Th>{t("office.reports.code")}</Th>
                  <Th>{t("office.reports.accountName")}</Th>
                  <Th>{t("office.reports.type")}</Th>
                  <Th num>{t("office.reports.debit")}</Th>
                  <Th num>{t("office.reports.credit")}</Th>
                  <Th num>{t("office.reports.balance")}</Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {r.data.rows.map((row) => (
                  <Table.Tr key={`${row.account_id}-${row.currency ?? ""}`}>
                    <Table.Td>{row.code}</Table.Td>
                    <Table.Td>{row.name}</Table.Td>
                    <Table.Td>{t(`office.reports.accountType.${row.type}`)}</Table.Td>
                    <Num>{row.currency ? money(row.debit, row.currency) : row.debit}</Num>
                    <Num>{row.currency ? money(row.credit, row.currency) : row.credit}</Num>
                    <Num>{row.currency ? money(row.balance, row.currency) : row.balance}</Num>
                  </Table.Tr>
                ))}
              </Table.Tbody>
              <Table.Tfoot>
                {r.data.totals.map((tot) => (
                  <Table.Tr key={tot.currency} fw={700}>
                    <Table.Th scope="row" colSpan={3}>
                      {t("office.reports.totalIn", { currency: tot.currency })}
                    </Table.Th>
                    <Num>{money(tot.debit, tot.currency)}</Num>
                    <Num>{money(tot.credit, tot.currency)}</Num>
                    <Num>{money(tot.balance, tot.currency)}</Num>
                  </Table.Tr>
                ))}
              </Table.Tfoot>
            </Table>
          </Wide>
        </>
      )}
    </Stack>
  );
}

const forms = ["anlage-v", "2044", "sa105", "schedule-e"] as const;

function TaxYear() {
  const { t } = useTranslation();
  const money = useMoney();
  const [year, setYear] = useState<number>(thisYear - 1);
  const [form, setForm] = useState("");
  const [property, setProperty] = useState("");
  const query = { year, form: (form || undefined) as (typeof forms)[number] | undefined, property_id: property || undefined };
  const r = useQuery({
    queryKey: ["office", "report", "tax-year", year, form, property],
    queryFn: async () => json(await ok(api.GET("/api/v1/reports/tax-year", { params: { query } }))),
  });
  const block = (b: S["TaxYearBlock"], title: string) => (
    <Stack key={`${b.property_id ?? "total"}-${b.currency}`} gap="xs">
      <Title order={3}>{title}</Title>
      <Table striped>
        <Table.Thead>
          <Table.Tr>
            <Th>{t("office.reports.line")}</Th>
            <Th>{t("office.reports.item")}</Th>
            <Th num>{t("office.reports.amount")}</Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {b.lines.map((l) => (
            <Table.Tr key={l.key} fw={l.kind === "total" ? 700 : undefined}>
              <Table.Td>{l.line}</Table.Td>
              <Table.Td>{l.label}</Table.Td>
              <Num>{l.kind === "manual" ? t("office.reports.manual") : money(l.amount, b.currency)}</Num>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
  return (
    <Stack>
      <Title order={2}>{t("office.reports.tabs.tax")}</Title>
      <Group align="flex-end">
        <NumberInput label={t("office.reports.year")} value={year} min={2000} max={2100} allowDecimal={false} onChange={(v) => typeof v === "number" && setYear(v)} w={120} />
        <NativeSelect
          label={t("office.reports.form")}
          value={form}
          onChange={(e) => setForm(e.currentTarget.value)}
          data={[{ value: "", label: t("office.reports.formAuto") }, ...forms.map((f) => ({ value: f, label: t(`office.reports.forms.${f}`) }))]}
        />
        <PropertySelect value={property} onChange={setProperty} />
      </Group>
      <Downloads path="/reports/tax-year" query={query} formats={["csv", "xlsx", "pdf"]} name={`tax-year-${year}`} />
      {r.isPending ? (
        <Loading />
      ) : r.error ? (
        <Failure error={r.error} />
      ) : (
        <>
          <Text fw={600}>{r.data.title}</Text>
          {r.data.properties.map((b) => block(b, b.property_name ?? ""))}
          {r.data.properties.length > 1 && r.data.totals.map((b) => block(b, t("office.reports.totalIn", { currency: b.currency })))}
        </>
      )}
    </Stack>
  );
}
