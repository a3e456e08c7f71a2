// Tenants (contragents with the role tenant): the list (the API's search
// and keyset pages), the form (new and edit), and the CSV import, all or
// nothing, its per-line errors shown as the API gives them.
import { Anchor, Button, Checkbox, FileInput, Group, List, Modal, NativeSelect, Stack, Table, Text, TextInput, Textarea } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { api, ok } from "../api/client";
import { ApiError } from "../api/errors";
import { Empty, Failure, Grid, Loading, More, Page, json, usePaged, type S } from "./common";

export function TenantList() {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const [q, setQ] = useState("");
  const [importing, setImporting] = useState(false);
  const list = usePaged(["contragents", q], async (after) => {
    const l = json(await ok(api.GET("/api/v1/contragents", { params: { query: { after, role: "tenant", q: q || undefined, per_page: 50 } } })));
    return { items: l.contragents, next: l.next };
  });
  return (
    <Page
      title={t("landlord.tenants.title")}
      actions={
        <>
          <Button variant="default" onClick={() => setImporting(true)}>
            {t("landlord.tenants.import")}
          </Button>
          <Button component={Link} to="/app/tenants/new">
            {t("landlord.tenants.new")}
          </Button>
        </>
      }
    >
      <form
        role="search"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(search.trim());
        }}
      >
        <Group align="flex-end">
          <TextInput label={t("landlord.search")} value={search} onChange={(e) => setSearch(e.currentTarget.value)} maw={360} />
          <Button type="submit" variant="default">
            {t("landlord.find")}
          </Button>
        </Group>
      </form>
      {importing && <ImportTenants onClose={() => setImporting(false)} />}
      <Failure error={list.error} />
      {list.isPending && <Loading />}
      {!list.isPending && list.items.length === 0 && <Empty>{t("landlord.tenants.none")}</Empty>}
      {list.items.length > 0 && (
        <Grid caption={t("landlord.tenants.title")} head={[t("landlord.tenants.name"), t("landlord.tenants.email"), t("landlord.tenants.phone")]}>
          {list.items.map((c) => (
            <Table.Tr key={c.id}>
              <Table.Td>
                <Anchor component={Link} to={`/app/tenants/${c.id}`}>
                  {c.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{c.email}</Table.Td>
              <Table.Td>{c.phone}</Table.Td>
            </Table.Tr>
          ))}
        </Grid>
      )}
      <More list={list} />
    </Page>
  );
}

function ImportTenants({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const run = useMutation({
    mutationFn: async () =>
      ok(
        api.POST("/api/v1/contragents/import", {
          body: await file!.text(),
          bodySerializer: (b: string) => b,
          headers: { "Content-Type": "text/csv" },
        }),
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ["contragents"] }),
  });
  const lines = run.error instanceof ApiError ? run.error.details : [];
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": t("landlord.close") }} title={t("landlord.tenants.import")} size="lg">
      <Stack>
        <Text size="sm">{t("landlord.tenants.importHint")}</Text>
        <FileInput label={t("landlord.csvFile")} accept=".csv,text/csv" value={file} onChange={setFile} clearable clearButtonProps={{ "aria-label": t("landlord.clearFile") }} />
        {run.error && lines.length === 0 && <Failure error={run.error} />}
        {lines.length > 0 && (
          <List size="sm" c="red.9" aria-label={t("landlord.lineErrors")}>
            {lines.map((l) => (
              <List.Item key={l}>{l}</List.Item>
            ))}
          </List>
        )}
        {run.data && <Text role="status">{t("landlord.tenants.imported", { n: run.data.created })}</Text>}
        <Button onClick={() => run.mutate()} disabled={!file} loading={run.isPending} w="fit-content">
          {t("landlord.tenants.importRun")}
        </Button>
      </Stack>
    </Modal>
  );
}

type Form = { kind: "person" | "company"; name: string; email: string; phone: string; address: string; notes: string; guarantor: boolean };

function TenantFields({ value, onChange }: { value: Form; onChange: (v: Form) => void }) {
  const { t } = useTranslation();
  const set = (k: keyof Form) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement>) => onChange({ ...value, [k]: e.currentTarget.value });
  return (
    <Stack>
      <NativeSelect
        label={t("landlord.tenants.kind")}
        value={value.kind}
        onChange={set("kind")}
        data={[
          { value: "person", label: t("landlord.tenants.person") },
          { value: "company", label: t("landlord.tenants.company") },
        ]}
      />
      <TextInput label={t("landlord.tenants.name")} required value={value.name} onChange={set("name")} />
      <TextInput label={t("landlord.tenants.email")} type="email" value={value.email} onChange={set("email")} />
      <TextInput label={t("landlord.tenants.phone")} description={t("landlord.tenants.phoneHint")} value={value.phone} onChange={set("phone")} />
      <Textarea label={t("landlord.tenants.address")} value={value.address} onChange={set("address")} autosize minRows={2} />
      <Textarea label={t("landlord.tenants.notes")} value={value.notes} onChange={set("notes")} autosize minRows={2} />
      <Checkbox label={t("landlord.tenants.alsoGuarantor")} checked={value.guarantor} onChange={(e) => onChange({ ...value, guarantor: e.currentTarget.checked })} />
    </Stack>
  );
}

function body(v: Form): S["ContragentCreate"] {
  return { kind: v.kind, name: v.name, email: v.email, phone: v.phone, address: v.address, notes: v.notes, roles: v.guarantor ? ["tenant", "guarantor"] : ["tenant"] };
}

export function TenantNew() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [value, setValue] = useState<Form>({ kind: "person", name: "", email: "", phone: "", address: "", notes: "", guarantor: false });
  const save = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/contragents", { body: body(value) })),
    onSuccess: (c) => {
      void queries.invalidateQueries({ queryKey: ["contragents"] });
      void navigate(`/app/tenants/${c.id}`);
    },
  });
  return (
    <Page title={t("landlord.tenants.new")} back={{ to: "/app/tenants", label: t("landlord.tenants.title") }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack maw={520}>
          <TenantFields value={value} onChange={setValue} />
          <Failure error={save.error} />
          <Button type="submit" loading={save.isPending} w="fit-content">
            {t("landlord.save")}
          </Button>
        </Stack>
      </form>
    </Page>
  );
}

export function TenantPage() {
  const { t } = useTranslation();
  const { tenantId = "" } = useParams();
  const queries = useQueryClient();
  const tenant = useQuery({ queryKey: ["contragent", tenantId], queryFn: () => ok(api.GET("/api/v1/contragents/{contragentId}", { params: { path: { contragentId: tenantId } } })) });
  const [value, setValue] = useState<Form | null>(null);
  const save = useMutation({
    mutationFn: (v: Form) => ok(api.PUT("/api/v1/contragents/{contragentId}", { params: { path: { contragentId: tenantId } }, body: body(v) })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["contragent", tenantId] });
      void queries.invalidateQueries({ queryKey: ["contragents"] });
    },
  });
  const invite = useMutation({ mutationFn: () => ok(api.POST("/api/v1/contragents/{contragentId}/portal-invitation", { params: { path: { contragentId: tenantId } } })) });
  if (tenant.isPending) return <Loading />;
  if (tenant.error) return <Failure error={tenant.error} />;
  const c = tenant.data;
  const form: Form = value ?? { kind: c.kind, name: c.name, email: c.email, phone: c.phone, address: c.address, notes: c.notes, guarantor: c.roles.includes("guarantor") };
  return (
    <Page
      title={c.name}
      back={{ to: "/app/tenants", label: t("landlord.tenants.title") }}
      actions={
        <>
          <Button variant="default" onClick={() => invite.mutate()} loading={invite.isPending} disabled={!c.email}>
            {t("landlord.tenants.invite")}
          </Button>
          <Button component={Link} to={`/app/contracts/new?tenant=${c.id}`}>
            {t("landlord.contracts.new")}
          </Button>
        </>
      }
    >
      {invite.isSuccess && <Text role="status">{t("landlord.tenants.invited", { email: c.email })}</Text>}
      <Failure error={invite.error} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(form);
        }}
      >
        <Stack maw={520}>
          <TenantFields value={form} onChange={setValue} />
          <Failure error={save.error} />
          {save.isSuccess && <Text role="status">{t("landlord.saved")}</Text>}
          <Button type="submit" loading={save.isPending} w="fit-content">
            {t("landlord.save")}
          </Button>
        </Stack>
      </form>
    </Page>
  );
}
