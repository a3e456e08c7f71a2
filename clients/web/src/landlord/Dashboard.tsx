// The landlord's day at a glance, composed of the API's own reports: who
// owes (the arrears report), what falls due this week (each property's
// open charges), open repairs, the operating-cost statements' deadlines,
// and the bank lines waiting for a match. Each links to its screen.
import { Anchor, Card, Group, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { api, ok } from "../api/client";
import { Empty, Failure, Grid, Loading, Page, isoDay, json, useFormat, type S } from "./common";
import { dueBetween, isOpenRepair } from "./logic";

// The dashboard looks into this many properties for this week's charges
// and open repairs: the API has no workspace-wide list of either.
const PROPERTIES = 50;

function Panel({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card withBorder padding="md">
      <Title order={2} size="h4" mb="xs">
        {title}
      </Title>
      {children}
    </Card>
  );
}

export function Dashboard() {
  const { t } = useTranslation();
  const f = useFormat();
  const arrears = useQuery({ queryKey: ["reports", "arrears"], queryFn: async () => json(await ok(api.GET("/api/v1/reports/arrears"))) });
  const deadlines = useQuery({ queryKey: ["opcosts", "deadlines"], queryFn: async () => json(await ok(api.GET("/api/v1/opcosts/deadlines"))) });
  const bank = useQuery({
    queryKey: ["bank-lines", "count"],
    queryFn: async () => {
      const count = async (status: "unmatched" | "suggested") =>
        json(await ok(api.GET("/api/v1/bank-lines", { params: { query: { status, page: 1, per_page: 1 } } }))).total ?? 0;
      const [unmatched, suggested] = await Promise.all([count("unmatched"), count("suggested")]);
      return { unmatched, suggested };
    },
  });
  const week = useQuery({
    queryKey: ["dashboard", "week"],
    queryFn: async () => {
      const props = json(await ok(api.GET("/api/v1/properties", { params: { query: { per_page: PROPERTIES } } }))).properties;
      const from = isoDay(0);
      const to = isoDay(6);
      const per = await Promise.all(
        props.map(async (p) => {
          const [unpaid, partly, repairs] = await Promise.all([
            ok(api.GET("/api/v1/properties/{propertyId}/charges", { params: { path: { propertyId: p.id }, query: { status: "unpaid", per_page: 100 } } })),
            ok(api.GET("/api/v1/properties/{propertyId}/charges", { params: { path: { propertyId: p.id }, query: { status: "partially_paid", per_page: 100 } } })),
            ok(api.GET("/api/v1/properties/{propertyId}/repair-requests", { params: { path: { propertyId: p.id }, query: { per_page: 100 } } })),
          ]);
          return {
            property: p,
            due: dueBetween([...json(unpaid).charges, ...json(partly).charges], from, to),
            repairs: json(repairs).repair_requests.filter((r) => isOpenRepair(r.status)),
          };
        }),
      );
      return {
        due: per.flatMap((x) => x.due.map((c) => ({ charge: c, property: x.property }))).sort((a, b) => (a.charge.due_date < b.charge.due_date ? -1 : 1)),
        repairs: per.flatMap((x) => x.repairs.map((r) => ({ repair: r, property: x.property }))),
      };
    },
  });
  return (
    <Page title={t("landlord.dashboard.title")}>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Panel title={t("landlord.dashboard.arrears")}>
          <Failure error={arrears.error} />
          {arrears.isPending && <Loading />}
          {arrears.data && arrears.data.arrears.length === 0 && <Empty>{t("landlord.dashboard.noArrears")}</Empty>}
          {arrears.data && arrears.data.arrears.length > 0 && (
            <Stack gap="xs">
              <Grid caption={t("landlord.dashboard.arrears")} head={[t("landlord.dashboard.who"), t("landlord.dashboard.since"), t("landlord.dashboard.owes")]}>
                {arrears.data.arrears.slice(0, 8).map((a) => (
                  <Table.Tr key={`${a.property_id}-${a.contract_id}`}>
                    <Table.Td>
                      {a.contract_id ? (
                        <Anchor component={Link} to={`/app/contracts/${a.contract_id}`}>
                          {a.tenant_name ?? a.contract_number}
                        </Anchor>
                      ) : (
                        <Anchor component={Link} to={`/app/properties/${a.property_id}`}>
                          {a.property_name}
                        </Anchor>
                      )}
                      <Text size="xs" c="dimmed">
                        {a.property_name}
                      </Text>
                    </Table.Td>
                    <Table.Td>{f.date(a.oldest_due_date)}</Table.Td>
                    <Table.Td>{f.money(a.total, a.currency)}</Table.Td>
                  </Table.Tr>
                ))}
              </Grid>
              {arrears.data.totals.map((tot) => (
                <Text key={tot.currency} fw={600}>
                  {t("landlord.dashboard.totalOwed", { amount: f.money(tot.total, tot.currency) })}
                </Text>
              ))}
            </Stack>
          )}
        </Panel>
        <Panel title={t("landlord.dashboard.week")}>
          <Failure error={week.error} />
          {week.isPending && <Loading />}
          {week.data && week.data.due.length === 0 && <Empty>{t("landlord.dashboard.nothingDue")}</Empty>}
          {week.data && week.data.due.length > 0 && (
            <Grid caption={t("landlord.dashboard.week")} head={[t("landlord.charges.name"), t("landlord.charges.due"), t("landlord.charges.outstanding")]}>
              {week.data.due.slice(0, 10).map(({ charge: c, property: p }) => (
                <Table.Tr key={c.id}>
                  <Table.Td>
                    <Anchor component={Link} to={c.contract_id ? `/app/contracts/${c.contract_id}` : `/app/properties/${p.id}`}>
                      {c.name}
                    </Anchor>
                    <Text size="xs" c="dimmed">
                      {p.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>{f.date(c.due_date)}</Table.Td>
                  <Table.Td>{f.money(c.outstanding, c.currency)}</Table.Td>
                </Table.Tr>
              ))}
            </Grid>
          )}
        </Panel>
        <Panel title={t("landlord.dashboard.repairs")}>
          {week.isPending && <Loading />}
          {week.data && week.data.repairs.length === 0 && <Empty>{t("landlord.dashboard.noRepairs")}</Empty>}
          <Stack gap={4}>
            {week.data?.repairs.slice(0, 10).map(({ repair: r, property: p }) => (
              <Group key={r.id} justify="space-between" wrap="nowrap">
                <Anchor component={Link} to={`/app/properties/${p.id}`}>
                  {r.title}
                </Anchor>
                <Text size="sm" c="dimmed">
                  {p.name} · {t(`landlord.repair.${r.status}`)}
                </Text>
              </Group>
            ))}
          </Stack>
        </Panel>
        <Panel title={t("landlord.dashboard.deadlines")}>
          <Failure error={deadlines.error} />
          {deadlines.isPending && <Loading />}
          {deadlines.data && deadlines.data.deadlines.length === 0 && <Empty>{t("landlord.dashboard.noDeadlines")}</Empty>}
          <Stack gap={4}>
            {deadlines.data?.deadlines.map((d: S["OpcostDeadline"]) => (
              <Group key={`${d.building_id}-${d.period_from}`} justify="space-between" wrap="nowrap">
                <Anchor component={Link} to={`/app/buildings/${d.building_id}`}>
                  {d.building_name}
                </Anchor>
                <Text size="sm">
                  {d.deadline
                    ? t("landlord.dashboard.deadline", { date: f.date(d.deadline), days: d.days_left ?? 0 })
                    : t("landlord.dashboard.noLegalDeadline")}
                </Text>
              </Group>
            ))}
          </Stack>
        </Panel>
        <Panel title={t("landlord.dashboard.bank")}>
          <Failure error={bank.error} />
          {bank.isPending && <Loading />}
          {bank.data && (
            <Text>
              {t("landlord.dashboard.bankLines", { unmatched: bank.data.unmatched, suggested: bank.data.suggested })}
            </Text>
          )}
        </Panel>
      </SimpleGrid>
    </Page>
  );
}
