// The bank review queue (issue 49, slice 3): the workspace's accounts, a
// statement imported into one with the import's summary, and the lines to
// review, each with the matcher's reasons: a suggestion posted to its
// contract (or another), a line ignored, a debit with its bill proposal.
// Everything is the API's (modules bankaccounts and banking).
import {
  Badge, Button, FileInput, Group, List, NativeSelect, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title,
} from "@mantine/core";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { components } from "../../../typescript/src/schema";
import { api, ok } from "../api/client";
import { ApiError } from "../api/errors";
import { formatDate, formatMoney } from "../format";
import { Failure, Loading } from "../pages/common";
import { canIgnore, canMatch, lineQuery, lineStatuses, reasonKey, type LineFilter } from "./logic";
import { downloadFile, OfficePage, useLng } from "./shell";

type S = components["schemas"];
type Line = S["BankLine"];

// A list route answers CSV too (?format=csv); these pages ask for JSON.
function json<T>(x: T | string): T {
  if (typeof x === "string") throw new ApiError(0, "unexpected", "");
  return x;
}

const statusColor: Record<string, string> = { posted: "green", suggested: "yellow", unmatched: "red", ignored: "gray", debit: "blue" };

function useAccounts() {
  return useQuery({
    queryKey: ["office", "bank-accounts"],
    queryFn: async () => json(await ok(api.GET("/api/v1/bank-accounts", { params: { query: { per_page: 100 } } }))).bank_accounts,
  });
}

// The contracts a line may be posted to: the active and ending ones (the
// first 100; a workspace with more picks a suggestion's own contract).
function useContracts() {
  return useQuery({
    queryKey: ["office", "contracts", "postable"],
    queryFn: async () => {
      const pages = await Promise.all(
        (["active", "ending"] as const).map(async (status) =>
          json(await ok(api.GET("/api/v1/contracts", { params: { query: { status, per_page: 100 } } }))).contracts,
        ),
      );
      return pages.flat();
    },
  });
}

function ContractNumber({ id }: { id: string }) {
  const { t } = useTranslation();
  const c = useQuery({
    queryKey: ["office", "contract", id],
    queryFn: () => ok(api.GET("/api/v1/contracts/{contractId}", { params: { path: { contractId: id } } })),
  });
  return <>{t("office.bank.contract", { number: c.data?.number ?? "…" })}</>;
}

function SupplierName({ id }: { id: string }) {
  const c = useQuery({
    queryKey: ["office", "contragent", id],
    queryFn: () => ok(api.GET("/api/v1/contragents/{contragentId}", { params: { path: { contragentId: id } } })),
  });
  return <>{c.data?.name ?? "…"}</>;
}

export function BankPage() {
  const { t } = useTranslation();
  const accounts = useAccounts();
  return (
    <OfficePage title={t("office.bank.title")}>
      <Title order={2}>{t("office.bank.accounts")}</Title>
      {accounts.isPending ? (
        <Loading />
      ) : accounts.error ? (
        <Failure error={accounts.error} />
      ) : accounts.data.length === 0 ? (
        <Text c="dimmed">{t("office.bank.noAccounts")}</Text>
      ) : (
        <>
          <Accounts accounts={accounts.data} />
          <Upload accounts={accounts.data} />
          <Lines accounts={accounts.data} />
        </>
      )}
    </OfficePage>
  );
}

function accountName(a: S["BankAccount"]): string {
  return a.label || a.holder;
}

function Accounts({ accounts }: { accounts: S["BankAccount"][] }) {
  const { t } = useTranslation();
  return (
    <Table striped>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{t("office.bank.account")}</Table.Th>
          <Table.Th scope="col">{t("office.bank.iban")}</Table.Th>
          <Table.Th scope="col">{t("office.bank.currency")}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {accounts.map((a) => (
          <Table.Tr key={a.id}>
            <Table.Td>
              {accountName(a)}
              {a.is_default && (
                <Badge ml="xs" variant="light" c="dark.8">
                  {t("office.bank.default")}
                </Badge>
              )}
            </Table.Td>
            <Table.Td>{a.iban_display}</Table.Td>
            <Table.Td>{a.currency}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Upload({ accounts }: { accounts: S["BankAccount"][] }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [account, setAccount] = useState(accounts[0].id);
  const [file, setFile] = useState<File | null>(null);
  const [mapping, setMapping] = useState("");
  const mappings = useQuery({
    queryKey: ["office", "csv-mappings", account],
    queryFn: async () =>
      (await ok(api.GET("/api/v1/bank-accounts/{bankAccountId}/csv-mappings", { params: { path: { bankAccountId: account } } }))).csv_mappings,
  });
  const upload = useMutation({
    mutationFn: async () => {
      const body = new FormData();
      body.set("file", file!);
      if (mapping) body.set("mapping_id", mapping);
      return ok(
        api.POST("/api/v1/bank-accounts/{bankAccountId}/statements", {
          params: { path: { bankAccountId: account } },
          // The browser writes the multipart body and its boundary.
          body: body as unknown as S["BankStatementUpload"],
          bodySerializer: (b) => b as unknown as FormData,
        }),
      );
    },
    onSuccess: () => void queries.invalidateQueries({ queryKey: ["office", "bank-lines"] }),
  });
  const r = upload.data;
  return (
    <Stack gap="sm">
      <Title order={2}>{t("office.bank.import")}</Title>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (file) upload.mutate();
        }}
      >
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NativeSelect
              label={t("office.bank.account")}
              value={account}
              onChange={(e) => {
                setAccount(e.currentTarget.value);
                setMapping("");
              }}
              data={accounts.map((a) => ({ value: a.id, label: accountName(a) }))}
            />
            <FileInput label={t("office.bank.file")} description={t("office.bank.formats")} required value={file} onChange={setFile} />
            <NativeSelect
              label={t("office.bank.mapping")}
              value={mapping}
              onChange={(e) => setMapping(e.currentTarget.value)}
              data={[{ value: "", label: t("office.bank.noMapping") }, ...(mappings.data ?? []).map((m) => ({ value: m.id, label: m.name }))]}
            />
          </SimpleGrid>
          <Button type="submit" w="fit-content" loading={upload.isPending} disabled={!file}>
            {t("office.bank.upload")}
          </Button>
        </Stack>
      </form>
      <Failure error={upload.error} />
      {r && (
        <Paper withBorder p="sm" role="status">
          <Text fw={600}>{t("office.bank.imported", { format: t(`office.bank.format.${r.format}`) })}</Text>
          <SimpleGrid cols={{ base: 2, sm: 4 }} mt="xs">
            {(["lines", "duplicates", "posted", "suggested", "unmatched", "debits", "returns"] as const).map((k) => (
              <div key={k}>
                <Text size="sm" c="dimmed">
                  {t(`office.bank.summary.${k}`)}
                </Text>
                <Text fw={600}>{r[k]}</Text>
              </div>
            ))}
          </SimpleGrid>
        </Paper>
      )}
    </Stack>
  );
}

function Lines({ accounts }: { accounts: S["BankAccount"][] }) {
  const { t } = useTranslation();
  const errorOf = useState<unknown>(null);
  const [filter, setFilter] = useState<LineFilter>({ account: "", status: "", from: "", to: "" });
  const set = (k: keyof LineFilter) => (e: { currentTarget: { value: string } }) => setFilter({ ...filter, [k]: e.currentTarget.value });
  const list = useInfiniteQuery({
    queryKey: ["office", "bank-lines", filter],
    queryFn: async ({ pageParam }) =>
      json(await ok(api.GET("/api/v1/bank-lines", { params: { query: lineQuery(filter, pageParam) } }))),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
  });
  const lines = list.data?.pages.flatMap((p) => p.bank_lines) ?? [];
  const [downloadError, setDownloadError] = errorOf;
  const q = lineQuery(filter);
  return (
    <Stack gap="sm">
      <Title order={2}>{t("office.bank.lines")}</Title>
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <NativeSelect
          label={t("office.bank.account")}
          value={filter.account}
          onChange={set("account")}
          data={[{ value: "", label: t("office.bank.allAccounts") }, ...accounts.map((a) => ({ value: a.id, label: accountName(a) }))]}
        />
        <NativeSelect
          label={t("office.bank.status")}
          value={filter.status}
          onChange={set("status")}
          data={[{ value: "", label: t("office.bank.allStatuses") }, ...lineStatuses.map((s) => ({ value: s, label: t(`office.bank.statuses.${s}`) }))]}
        />
        <TextInput type="date" label={t("office.bank.from")} value={filter.from} onChange={set("from")} />
        <TextInput type="date" label={t("office.bank.to")} value={filter.to} onChange={set("to")} />
      </SimpleGrid>
      <Group>
        {(["csv", "xlsx"] as const).map((format) => (
          <Button
            key={format}
            variant="default"
            size="xs"
            onClick={() => {
              setDownloadError(null);
              downloadFile("/bank-lines", { format, bank_account_id: q.bank_account_id, status: q.status, from: q.from, to: q.to }, `bank-lines.${format}`).catch(setDownloadError);
            }}
          >
            {t(`office.download.${format}`)}
          </Button>
        ))}
      </Group>
      <Failure error={downloadError} />
      {list.isPending ? (
        <Loading />
      ) : list.error ? (
        <Failure error={list.error} />
      ) : lines.length === 0 ? (
        <Text c="dimmed">{t("office.bank.noLines")}</Text>
      ) : (
        <Stack gap="xs" component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }}>
          {lines.map((l) => (
            <LineCard key={l.id} line={l} />
          ))}
        </Stack>
      )}
      {list.hasNextPage && (
        <Button variant="default" w="fit-content" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
          {t("office.more")}
        </Button>
      )}
    </Stack>
  );
}

function LineCard({ line }: { line: Line }) {
  const { t } = useTranslation();
  const lng = useLng();
  const queries = useQueryClient();
  const [picked, setPicked] = useState("");
  const contracts = useContracts();
  const done = (next: Line) => {
    // The line changes in place; the other pages keep their order.
    queries.setQueriesData<{ pages: { bank_lines: Line[] }[] }>({ queryKey: ["office", "bank-lines"] }, (old) =>
      old ? { ...old, pages: old.pages.map((p) => ({ ...p, bank_lines: p.bank_lines.map((l) => (l.id === next.id ? next : l)) })) } : old,
    );
  };
  const match = useMutation({
    mutationFn: (contractId: string) =>
      ok(api.POST("/api/v1/bank-lines/{bankLineId}/match", { params: { path: { bankLineId: line.id } }, body: { contract_id: contractId } })),
    onSuccess: done,
  });
  const ignore = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/bank-lines/{bankLineId}/ignore", { params: { path: { bankLineId: line.id } } })),
    onSuccess: done,
  });
  const p = line.bill_proposal;
  const title = `${formatDate(line.booking_date, lng)} · ${formatMoney(line.amount, line.currency, lng)}`;
  return (
    <Paper component="li" withBorder p="sm" aria-label={title}>
      <Group justify="space-between" wrap="wrap">
        <Text fw={600}>{title}</Text>
        <Badge color={statusColor[line.status]} variant="light" c="dark.8">
          {t(`office.bank.statuses.${line.status}`)}
        </Badge>
      </Group>
      <Text size="sm">
        {line.counterparty_name || t("office.bank.noName")}
        {line.counterparty_iban && ` · ${line.counterparty_iban}`}
      </Text>
      {line.remittance && (
        <Text size="sm" c="dimmed">
          {line.remittance}
        </Text>
      )}
      {line.reasons.length > 0 && (
        <>
          <Text size="sm" mt="xs" fw={600}>
            {t("office.bank.reasons")}
          </Text>
          <List size="sm">
            {line.reasons.map((r) => {
              const k = reasonKey(r);
              return <List.Item key={r}>{k ? t(k) : r}</List.Item>;
            })}
          </List>
        </>
      )}
      {line.contract_id && (
        <Text size="sm" mt="xs">
          {line.status === "suggested" ? t("office.bank.candidate") : t("office.bank.postedTo")} <ContractNumber id={line.contract_id} />
        </Text>
      )}
      {p && (
        <Paper bg="gray.0" p="xs" mt="xs">
          <Text size="sm" fw={600}>
            {t("office.bank.billProposal")}
          </Text>
          <Text size="sm">
            {formatMoney(p.amount, line.currency, lng)} · {t("office.bank.paidOn", { date: formatDate(p.paid_on, lng) })} ·{" "}
            {p.supplier_id ? <SupplierName id={p.supplier_id} /> : t("office.bank.noSupplier")}
          </Text>
          <Text size="sm" c="dimmed">
            {p.note}
          </Text>
        </Paper>
      )}
      {(canMatch(line) || canIgnore(line)) && (
        <Group mt="sm" align="flex-end" wrap="wrap">
          {canMatch(line) && line.contract_id && (
            <Button size="xs" onClick={() => match.mutate(line.contract_id!)} loading={match.isPending}>
              {t("office.bank.acceptSuggestion")}
            </Button>
          )}
          {canMatch(line) && (
            <>
              <NativeSelect
                size="xs"
                label={t("office.bank.postTo")}
                value={picked}
                onChange={(e) => setPicked(e.currentTarget.value)}
                data={[{ value: "", label: t("office.bank.pickContract") }, ...(contracts.data ?? []).map((c) => ({ value: c.id, label: c.number }))]}
              />
              <Button size="xs" variant="light" c="dark.8" disabled={!picked} onClick={() => match.mutate(picked)} loading={match.isPending}>
                {t("office.bank.match")}
              </Button>
            </>
          )}
          {canIgnore(line) && (
            <Button size="xs" variant="default" onClick={() => ignore.mutate()} loading={ignore.isPending}>
              {t("office.bank.ignore")}
            </Button>
          )}
        </Group>
      )}
      <Failure error={match.error ?? ignore.error} />
    </Paper>
  );
}
