// Operating-cost statements (issue 49, slice 4): every building's
// statement deadline, and per building its statements: a draft computed
// for a period, each tenant's result, posted, sent, each contract's
// letter (PDF), and the proposed new prepayment confirmed. The arithmetic
// and every amount are the API's (modules/opcosts).
import { Anchor, Badge, Button, Checkbox, Group, NumberInput, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import type { components } from "../../../typescript/src/schema";
import { api, ok } from "../api/client";
import { ApiError } from "../api/errors";
import { formatDate, formatMoney } from "../format";
import { Failure, Loading } from "../pages/common";
import { firstOfNextMonth, previousYear } from "./logic";
import { downloadFile, OfficePage, useLng, Wide } from "./shell";

type S = components["schemas"];
type Statement = S["OpcostStatement"];

const Th = ({ children, num }: { children: ReactNode; num?: boolean }) => (
  <Table.Th scope="col" style={num ? { textAlign: "right" } : undefined}>
    {children}
  </Table.Th>
);
const Num = ({ children }: { children: ReactNode }) => <Table.Td style={{ textAlign: "right", whiteSpace: "nowrap" }}>{children}</Table.Td>;

// A list route answers CSV too (?format=csv); these pages ask for JSON.
function json<T>(x: T | string): T {
  if (typeof x === "string") throw new ApiError(0, "unexpected", "");
  return x;
}

const deadlineColor: Record<string, string> = { open: "yellow", posted: "green", no_deadline: "gray" };
const statementColor: Record<string, string> = { draft: "yellow", posted: "green", superseded: "gray" };

export function OpcostsPage() {
  const { t } = useTranslation();
  const lng = useLng();
  const list = useInfiniteQuery({
    queryKey: ["office", "opcost-deadlines"],
    queryFn: async ({ pageParam }) => json(await ok(api.GET("/api/v1/opcosts/deadlines", { params: { query: { per_page: 50, after: pageParam } } }))),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const rows = list.data?.pages.flatMap((p) => p.deadlines) ?? [];
  return (
    <OfficePage title={t("office.opcosts.title")}>
      <Title order={2}>{t("office.opcosts.deadlines")}</Title>
      {list.isPending ? (
        <Loading />
      ) : list.error ? (
        <Failure error={list.error} />
      ) : rows.length === 0 ? (
        <Text c="dimmed">{t("office.opcosts.noBuildings")}</Text>
      ) : (
        <Wide minWidth={600}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Th>{t("office.opcosts.building")}</Th>
                <Th>{t("office.opcosts.period")}</Th>
                <Th>{t("office.opcosts.status")}</Th>
                <Th>{t("office.opcosts.deadline")}</Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((d) => (
                <Table.Tr key={d.building_id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/app/opcosts/${d.building_id}`}>
                      {d.building_name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>
                    {formatDate(d.period_from, lng)} – {formatDate(d.period_to, lng)}
                  </Table.Td>
                  <Table.Td>
                    <Badge color={deadlineColor[d.status]} variant="light" c="dark.8">
                      {t(`office.opcosts.deadlineStatus.${d.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {d.deadline ? (
                      <>
                        {formatDate(d.deadline, lng)} ({d.source})
                        <Text size="sm" c={d.warning ? "red.9" : undefined} fw={d.warning ? 700 : undefined}>
                          {d.days_left !== null && d.days_left < 0
                            ? t("office.opcosts.passed", { n: -d.days_left })
                            : t("office.opcosts.daysLeft", { n: d.days_left ?? 0 })}
                        </Text>
                      </>
                    ) : (
                      t("office.opcosts.noDeadline")
                    )}
                    {d.overdue_periods > 0 && (
                      <Text size="sm" c="red.9">
                        {t("office.opcosts.overduePeriods", { n: d.overdue_periods })}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Wide>
      )}
      {list.hasNextPage && (
        <Button variant="default" w="fit-content" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
          {t("office.more")}
        </Button>
      )}
    </OfficePage>
  );
}

export function OpcostBuildingPage() {
  const { t } = useTranslation();
  const { buildingId = "" } = useParams();
  const building = useQuery({
    queryKey: ["office", "building", buildingId],
    queryFn: () => ok(api.GET("/api/v1/buildings/{buildingId}", { params: { path: { buildingId } } })),
  });
  const statements = useInfiniteQuery({
    queryKey: ["office", "opcost-statements", buildingId],
    queryFn: async ({ pageParam }) =>
      json(await ok(api.GET("/api/v1/buildings/{buildingId}/opcost-statements", { params: { path: { buildingId }, query: { per_page: 20, after: pageParam } } }))),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const list = statements.data?.pages.flatMap((p) => p.statements) ?? [];
  return (
    <OfficePage title={building.data ? t("office.opcosts.buildingTitle", { name: building.data.name }) : t("office.opcosts.title")}>
      <Anchor component={Link} to="/app/opcosts" size="sm">
        ← {t("office.opcosts.deadlines")}
      </Anchor>
      <Failure error={building.error} />
      <Compute buildingId={buildingId} />
      <Title order={2}>{t("office.opcosts.statements")}</Title>
      {statements.isPending ? (
        <Loading />
      ) : statements.error ? (
        <Failure error={statements.error} />
      ) : list.length === 0 ? (
        <Text c="dimmed">{t("office.opcosts.noStatements")}</Text>
      ) : (
        list.map((s) => <StatementCard key={s.id} statement={s} />)
      )}
      {statements.hasNextPage && (
        <Button variant="default" w="fit-content" onClick={() => void statements.fetchNextPage()} loading={statements.isFetchingNextPage}>
          {t("office.more")}
        </Button>
      )}
    </OfficePage>
  );
}

function Compute({ buildingId }: { buildingId: string }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [period, setPeriod] = useState(previousYear());
  const compute = useMutation({
    mutationFn: () =>
      ok(api.POST("/api/v1/buildings/{buildingId}/opcost-statements", { params: { path: { buildingId } }, body: { period_from: period.from, period_to: period.to } })),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ["office", "opcost-statements", buildingId] }),
  });
  return (
    <Stack gap="xs">
      <Title order={2}>{t("office.opcosts.compute")}</Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          compute.mutate();
        }}
      >
        <Group align="flex-end">
          <TextInput type="date" required label={t("office.opcosts.from")} value={period.from} onChange={(e) => setPeriod({ ...period, from: e.currentTarget.value })} />
          <TextInput type="date" required label={t("office.opcosts.to")} value={period.to} onChange={(e) => setPeriod({ ...period, to: e.currentTarget.value })} />
          <Button type="submit" loading={compute.isPending}>
            {t("office.opcosts.computeButton")}
          </Button>
        </Group>
      </form>
      <Failure error={compute.error} />
    </Stack>
  );
}

function StatementCard({ statement: s }: { statement: Statement }) {
  const { t } = useTranslation();
  const lng = useLng();
  const queries = useQueryClient();
  const [late, setLate] = useState(false);
  const path = { buildingId: s.building_id, statementId: s.id };
  const refresh = () => void queries.invalidateQueries({ queryKey: ["office", "opcost-statements", s.building_id] });
  const post = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/buildings/{buildingId}/opcost-statements/{statementId}/post", { params: { path }, body: { late_not_at_fault: late } })),
    onSuccess: refresh,
  });
  const send = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/buildings/{buildingId}/opcost-statements/{statementId}/send", { params: { path } })),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: () => ok(api.DELETE("/api/v1/buildings/{buildingId}/opcost-statements/{statementId}", { params: { path } })),
    onSuccess: refresh,
  });
  const money = (n: number) => formatMoney(n, s.currency, lng);
  const title = t("office.opcosts.statementOf", { from: formatDate(s.period_from, lng), to: formatDate(s.period_to, lng) });
  const sent = s.contracts.length > 0 && s.contracts.every((c) => c.message_id);
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3}>{title}</Title>
          <Badge color={statementColor[s.status]} variant="light" c="dark.8">
            {t(`office.opcosts.statementStatus.${s.status}`)}
          </Badge>
        </Group>
        {s.deadline && (
          <Text size="sm">
            {t("office.opcosts.deadlineIs", { date: formatDate(s.deadline, lng), source: s.deadline_source ?? "" })}
          </Text>
        )}
        <Table striped>
          <Table.Thead>
            <Table.Tr>
              <Th>{t("office.opcosts.category")}</Th>
              <Th>{t("office.opcosts.key")}</Th>
              <Th num>{t("office.opcosts.total")}</Th>
              <Th num>{t("office.opcosts.tenants")}</Th>
              <Th num>{t("office.opcosts.landlord")}</Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {s.categories.map((c) => (
              <Table.Tr key={c.category}>
                <Table.Td>{t(`office.opcosts.categories.${c.category}`, { defaultValue: c.category })}</Table.Td>
                <Table.Td>{t(`office.opcosts.keys.${c.key}`, { defaultValue: c.key })}</Table.Td>
                <Num>{money(c.total)}</Num>
                <Num>{money(c.tenants)}</Num>
                <Num>{money(c.landlord)}</Num>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Title order={4}>{t("office.opcosts.results")}</Title>
        <Stack gap="xs">
          {s.contracts.map((c) => (
            <ContractResult key={c.contract_id} statement={s} line={c} />
          ))}
        </Stack>
        <Group>
          {s.status === "draft" && (
            <>
              <Checkbox label={t("office.opcosts.lateNotAtFault")} checked={late} onChange={(e) => setLate(e.currentTarget.checked)} />
              <Button onClick={() => post.mutate()} loading={post.isPending}>
                {t("office.opcosts.post")}
              </Button>
              <Button variant="default" onClick={() => remove.mutate()} loading={remove.isPending}>
                {t("office.opcosts.delete")}
              </Button>
            </>
          )}
          {s.status === "posted" &&
            (sent ? (
              <Text size="sm">{t("office.opcosts.sent")}</Text>
            ) : (
              <Button onClick={() => send.mutate()} loading={send.isPending}>
                {t("office.opcosts.send")}
              </Button>
            ))}
        </Group>
        <Failure error={post.error ?? send.error ?? remove.error} />
      </Stack>
    </Paper>
  );
}

function ContractResult({ statement: s, line: c }: { statement: Statement; line: S["OpcostContractLine"] }) {
  const { t } = useTranslation();
  const lng = useLng();
  const queries = useQueryClient();
  const [from, setFrom] = useState(firstOfNextMonth());
  const [amount, setAmount] = useState<number | string>(c.proposed_prepayment);
  const [pdfError, setPdfError] = useState<unknown>(null);
  const money = (n: number) => formatMoney(n, s.currency, lng);
  const confirm = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/v1/buildings/{buildingId}/opcost-statements/{statementId}/contracts/{contractId}/prepayment", {
          params: { path: { buildingId: s.building_id, statementId: s.id, contractId: c.contract_id } },
          body: { from, amount: typeof amount === "number" ? amount : undefined },
        }),
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ["office", "opcost-statements", s.building_id] }),
  });
  const label = t("office.opcosts.contractLine", { number: c.contract_number, unit: c.unit });
  return (
    <Paper withBorder p="sm" aria-label={label}>
      <Text fw={600}>{label}</Text>
      <Text size="sm">
        {formatDate(c.from, lng)} – {formatDate(c.to, lng)} · {t("office.opcosts.days", { n: c.days })}
      </Text>
      <Table mt="xs">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th scope="row">{t("office.opcosts.costTotal")}</Table.Th>
            <Num>{money(c.cost_total)}</Num>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">{t("office.opcosts.prepaymentsPaid")}</Table.Th>
            <Num>{money(c.prepayments_paid)}</Num>
          </Table.Tr>
          {s.corrects_id && (
            <Table.Tr>
              <Table.Th scope="row">{t("office.opcosts.previouslyBooked")}</Table.Th>
              <Num>{money(c.previously_booked)}</Num>
            </Table.Tr>
          )}
          <Table.Tr>
            <Table.Th scope="row">{c.result >= 0 ? t("office.opcosts.balanceDue") : t("office.opcosts.credit")}</Table.Th>
            <Num>
              <strong>{money(Math.abs(c.result))}</strong>
            </Num>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {c.excluded && (
        <Text size="sm" c="red.9">
          {t("office.opcosts.excluded")}
        </Text>
      )}
      <Group mt="xs" align="flex-end">
        <Button
          size="xs"
          variant="default"
          onClick={() => {
            setPdfError(null);
            downloadFile(
              `/buildings/${s.building_id}/opcost-statements/${s.id}/contracts/${c.contract_id}/pdf`,
              {},
              `statement-${c.contract_number}.pdf`,
            ).catch(setPdfError);
          }}
        >
          {t("office.opcosts.letter")}
        </Button>
      </Group>
      <Failure error={pdfError} />
      {s.status === "posted" && (
        <Stack gap="xs" mt="sm">
          <Text size="sm">
            {t("office.opcosts.prepaymentNow", { amount: money(c.prepayment_monthly) })} {t("office.opcosts.prepaymentProposed", { amount: money(c.proposed_prepayment) })}
          </Text>
          {c.proposal_applied_from ? (
            <Text size="sm" fw={600}>
              {t("office.opcosts.applied", { date: formatDate(c.proposal_applied_from, lng) })}
            </Text>
          ) : (
            <form
              onSubmit={(e) => {
                e.preventDefault();
                confirm.mutate();
              }}
            >
              <Group align="flex-end">
                <NumberInput size="xs" label={t("office.opcosts.newPrepayment")} value={amount} onChange={setAmount} min={0} decimalScale={2} w={160} />
                <TextInput size="xs" type="date" required label={t("office.opcosts.applyFrom")} value={from} onChange={(e) => setFrom(e.currentTarget.value)} />
                <Button size="xs" type="submit" loading={confirm.isPending}>
                  {t("office.opcosts.confirm")}
                </Button>
              </Group>
            </form>
          )}
          <Failure error={confirm.error} />
        </Stack>
      )}
    </Paper>
  );
}
