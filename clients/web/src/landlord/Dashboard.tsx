// The landlord's day at a glance: GET /dashboard (modules/dashboard), the
// API's own figures in one read: the largest arrears, the charges due this
// week, the open repairs, the bank lines waiting for a person, the
// operating-cost statements' deadlines and the warnings among them in the
// reader's language. Each block links to its screen. A block whose module
// is off is null and not shown. A server without the dashboard module
// (404) gets the older page composed from the lists (Composed, below).
import { Alert, Anchor, Card, Group, SimpleGrid, Stack, Table, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { api, ok } from "../api/client";
import { ApiError } from "../api/errors";
import { Empty, Failure, Grid, Loading, Page, isoDay, json, useFormat, useLng, type S } from "./common";
import { dueBetween, isOpenRepair, warningLink } from "./logic";

// The dashboard looks into this many properties for this week's charges
// and open repairs: the API has no workspace-wide list of either.
const PROPERTIES = 50;

export function Dashboard() {
  const { t } = useTranslation();
  const lng = useLng();
  const f = useFormat();
  const board = useQuery({
    queryKey: ["dashboard", lng],
    queryFn: () => ok(api.GET("/api/v1/dashboard", { params: { query: { locale: lng } } })),
    retry: (n, e) => !(e instanceof ApiError && e.status === 404) && n < 1,
  });
  if (board.error instanceof ApiError && board.error.status === 404) return <Composed />;
  const d = board.data;
  return (
    <Page title={t("landlord.dashboard.title")}>
      <Failure error={board.error} />
      {board.isPending && <Loading />}
      {d && d.warnings.length > 0 && (
        <Stack gap={4} role="list" aria-label={t("landlord.dashboard.warnings")}>
          {d.warnings.map((w) => (
            <Alert key={`${w.kind}-${w.subject_ids.join("-")}`} role="listitem" color={w.kind === "opcost_deadline_near" ? "yellow" : "red"} c="dark.8" py={6}>
              <Anchor component={Link} to={warningLink(w)} c="dark.8" underline="always">
                {w.message}
              </Anchor>
            </Alert>
          ))}
        </Stack>
      )}
      {d && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {d.arrears && (
            <Panel title={t("landlord.dashboard.arrears")} to="/app/reports">
              {d.arrears.length === 0 && <Empty>{t("landlord.dashboard.noArrears")}</Empty>}
              {d.arrears.length > 0 && (
                <Grid caption={t("landlord.dashboard.arrears")} head={[t("landlord.dashboard.who"), t("landlord.dashboard.since"), t("landlord.dashboard.owes")]}>
                  {d.arrears.map((a) => (
                    <Table.Tr key={`${a.property_id}-${a.contract_id}`}>
                      <Table.Td>
                        <Anchor component={Link} to={a.contract_id ? `/app/contracts/${a.contract_id}` : `/app/properties/${a.property_id}`}>
                          {a.tenant_name ?? a.contract_number ?? a.property_name}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {a.property_name}
                        </Text>
                      </Table.Td>
                      <Table.Td>{f.date(a.oldest_due)}</Table.Td>
                      <Table.Td>{f.money(a.overdue, a.currency)}</Table.Td>
                    </Table.Tr>
                  ))}
                </Grid>
              )}
            </Panel>
          )}
          <Panel title={t("landlord.dashboard.week")} to="/app/contracts">
            {d.due_this_week.length === 0 && <Empty>{t("landlord.dashboard.nothingDue")}</Empty>}
            {d.due_this_week.length > 0 && (
              <Grid caption={t("landlord.dashboard.week")} head={[t("landlord.charges.name"), t("landlord.charges.due"), t("landlord.charges.outstanding")]}>
                {d.due_this_week.map((c) => (
                  <Table.Tr key={c.charge_id}>
                    <Table.Td>
                      <Anchor component={Link} to={c.contract_id ? `/app/contracts/${c.contract_id}` : `/app/properties/${c.property_id}`}>
                        {c.name}
                      </Anchor>
                      <Text size="xs" c="dimmed">
                        {c.property_name}
                      </Text>
                    </Table.Td>
                    <Table.Td>{f.date(c.due_date)}</Table.Td>
                    <Table.Td>{f.money(c.open_amount, c.currency)}</Table.Td>
                  </Table.Tr>
                ))}
              </Grid>
            )}
          </Panel>
          {d.open_repairs && (
            <Panel title={t("landlord.dashboard.repairs")} to="/app/repairs">
              {d.open_repairs.total === 0 && <Empty>{t("landlord.dashboard.noRepairs")}</Empty>}
              {d.open_repairs.total > 0 && (
                <Stack gap={4}>
                  <Text fw={600}>
                    {t("landlord.dashboard.repairsByStatus", {
                      total: d.open_repairs.total,
                      reported: d.open_repairs.by_status.reported,
                      triaged: d.open_repairs.by_status.triaged,
                      ordered: d.open_repairs.by_status.ordered,
                      scheduled: d.open_repairs.by_status.scheduled,
                    })}
                  </Text>
                  {d.open_repairs.oldest.map((r) => (
                    <Group key={r.id} justify="space-between" wrap="nowrap">
                      <Anchor component={Link} to={`/app/repairs/${r.property_id}/${r.id}`}>
                        {r.title}
                      </Anchor>
                      <Text size="sm" c="dimmed">
                        {t(`landlord.repair.${r.status}`)} · {f.date(r.deadline.slice(0, 10))}
                      </Text>
                    </Group>
                  ))}
                </Stack>
              )}
            </Panel>
          )}
          {d.opcost_deadlines && (
            <Panel title={t("landlord.dashboard.deadlines")} to="/app/opcosts">
              {d.opcost_deadlines.length === 0 && <Empty>{t("landlord.dashboard.noDeadlines")}</Empty>}
              <Stack gap={4}>
                {d.opcost_deadlines.map((o) => (
                  <Group key={`${o.building_id}-${o.period_from}`} justify="space-between" wrap="nowrap">
                    <Anchor component={Link} to={`/app/opcosts/${o.building_id}`}>
                      {o.building_name}
                    </Anchor>
                    <Text size="sm">{t("landlord.dashboard.deadline", { date: f.date(o.deadline), days: o.days_left })}</Text>
                  </Group>
                ))}
              </Stack>
            </Panel>
          )}
          {d.bank_lines_to_review && (
            <Panel title={t("landlord.dashboard.bank")} to="/app/bank">
              <Text>{t("landlord.dashboard.bankLines", { unmatched: d.bank_lines_to_review.unmatched, suggested: d.bank_lines_to_review.suggested })}</Text>
            </Panel>
          )}
        </SimpleGrid>
      )}
    </Page>
  );
}

// A block of the dashboard; its heading links to the block's own screen.
function Panel({ title, to, children }: { title: string; to?: string; children: React.ReactNode }) {
  return (
    <Card withBorder padding="md">
      <Title order={2} size="h4" mb="xs">
        {to ? (
          <Anchor component={Link} to={to} inherit>
            {title}
          </Anchor>
        ) : (
          title
        )}
      </Title>
      {children}
    </Card>
  );
}

// Composed from the lists, for a server without the dashboard module
// (GET /dashboard answers 404).
function Composed() {
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
