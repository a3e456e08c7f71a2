// Properties (issue 49, slice 3): the list (the API's keyset pages, a
// search among the rows loaded), a property's form (new and edit), and its
// page with its contracts, charges (billing, a manual charge), payments
// and documents.
import { Anchor, Button, Group, Modal, NativeSelect, Stack, Table, Tabs, Text, TextInput } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { api, ok } from "../api/client";
import { Num, Empty, Failure, Grid, Loading, More, Page, State, download, isoDay, json, useFormat, useLng, usePaged, type S } from "./common";

export function useCountries() {
  const lng = useLng();
  const q = useQuery({ queryKey: ["countries"], queryFn: () => ok(api.GET("/api/v1/countries")), staleTime: Infinity });
  return (q.data?.countries ?? []).map((c) => ({ value: c.code, label: c.name[lng] ?? c.name.en ?? c.code }));
}

export function useProperty(id: string) {
  return useQuery({
    queryKey: ["property", id],
    queryFn: () => ok(api.GET("/api/v1/properties/{propertyId}", { params: { path: { propertyId: id } } })),
    enabled: !!id,
  });
}

export function PropertyList() {
  const { t } = useTranslation();
  const [search, setSearch] = useState("");
  const list = usePaged(["properties"], async (after) => {
    const l = json(await ok(api.GET("/api/v1/properties", { params: { query: { after, per_page: 50 } } })));
    return { items: l.properties, next: l.next };
  });
  const s = search.trim().toLowerCase();
  const rows = s ? list.items.filter((p) => [p.name, p.address, p.city, p.postal_code].some((x) => x.toLowerCase().includes(s))) : list.items;
  return (
    <Page
      title={t("landlord.properties.title")}
      actions={
        <Button component={Link} to="/app/properties/new">
          {t("landlord.properties.new")}
        </Button>
      }
    >
      <TextInput label={t("landlord.search")} description={t("landlord.properties.searchHint")} value={search} onChange={(e) => setSearch(e.currentTarget.value)} maw={360} />
      <Failure error={list.error} />
      {list.isPending && <Loading />}
      {!list.isPending && rows.length === 0 && <Empty>{t("landlord.properties.none")}</Empty>}
      {rows.length > 0 && (
        <Grid caption={t("landlord.properties.title")} head={[t("landlord.properties.name"), t("landlord.properties.address"), t("landlord.properties.country")]}>
          {rows.map((p) => (
            <Table.Tr key={p.id}>
              <Table.Td>
                <Anchor component={Link} to={`/app/properties/${p.id}`}>
                  {p.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{[p.address, [p.postal_code, p.city].filter(Boolean).join(" ")].filter(Boolean).join(", ")}</Table.Td>
              <Table.Td>{p.country_code}</Table.Td>
            </Table.Tr>
          ))}
        </Grid>
      )}
      <More list={list} />
    </Page>
  );
}

function PropertyFields({ value, onChange }: { value: S["PropertyCreate"]; onChange: (v: S["PropertyCreate"]) => void }) {
  const { t } = useTranslation();
  const countries = useCountries();
  const set = (k: keyof S["PropertyCreate"]) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => onChange({ ...value, [k]: e.currentTarget.value });
  return (
    <Stack>
      <TextInput label={t("landlord.properties.name")} required value={value.name} onChange={set("name")} />
      <TextInput label={t("landlord.properties.street")} value={value.address ?? ""} onChange={set("address")} />
      <Group grow>
        <TextInput label={t("landlord.properties.postalCode")} value={value.postal_code ?? ""} onChange={set("postal_code")} />
        <TextInput label={t("landlord.properties.city")} value={value.city ?? ""} onChange={set("city")} />
      </Group>
      <NativeSelect label={t("landlord.properties.country")} required value={value.country_code} onChange={set("country_code")} data={countries.length ? countries : [value.country_code]} />
      <Num
        label={t("landlord.properties.livingArea")}
        min={0}
        decimalScale={2}
        value={value.living_area ?? ""}
        onChange={(v) => onChange({ ...value, living_area: typeof v === "number" ? v : null })}
      />
    </Stack>
  );
}

export function PropertyNew() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queries = useQueryClient();
  const [value, setValue] = useState<S["PropertyCreate"]>({ name: "", address: "", postal_code: "", city: "", country_code: "DE", living_area: null });
  const save = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/properties", { body: { ...value, living_area: value.living_area ?? undefined } })),
    onSuccess: (p) => {
      void queries.invalidateQueries({ queryKey: ["properties"] });
      void navigate(`/app/properties/${p.id}`);
    },
  });
  return (
    <Page title={t("landlord.properties.new")} back={{ to: "/app/properties", label: t("landlord.properties.title") }}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack maw={520}>
          <PropertyFields value={value} onChange={setValue} />
          <Failure error={save.error} />
          <Button type="submit" loading={save.isPending} w="fit-content">
            {t("landlord.save")}
          </Button>
        </Stack>
      </form>
    </Page>
  );
}

function EditProperty({ property, onClose }: { property: S["Property"]; onClose: () => void }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [value, setValue] = useState<S["PropertyCreate"]>({ ...property });
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.PUT("/api/v1/properties/{propertyId}", {
          params: { path: { propertyId: property.id } },
          body: { name: value.name, address: value.address, postal_code: value.postal_code, city: value.city, country_code: value.country_code, living_area: value.living_area ?? null },
        }),
      ),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["property", property.id] });
      void queries.invalidateQueries({ queryKey: ["properties"] });
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": t("landlord.close") }} title={t("landlord.properties.edit")}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack>
          <PropertyFields value={value} onChange={setValue} />
          <Failure error={save.error} />
          <Button type="submit" loading={save.isPending}>
            {t("landlord.save")}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

export function PropertyPage() {
  const { t } = useTranslation();
  const { propertyId = "" } = useParams();
  const property = useProperty(propertyId);
  const [editing, setEditing] = useState(false);
  if (property.isPending) return <Loading />;
  if (property.error) return <Failure error={property.error} />;
  const p = property.data;
  return (
    <Page
      title={p.name}
      back={{ to: "/app/properties", label: t("landlord.properties.title") }}
      actions={
        <>
          <Button variant="default" onClick={() => setEditing(true)}>
            {t("landlord.properties.edit")}
          </Button>
          <Button component={Link} to={`/app/contracts/new?property=${p.id}`}>
            {t("landlord.contracts.new")}
          </Button>
        </>
      }
    >
      <Text>{[p.address, [p.postal_code, p.city].filter(Boolean).join(" "), p.country_code].filter(Boolean).join(", ")}</Text>
      {editing && <EditProperty property={p} onClose={() => setEditing(false)} />}
      <Tabs defaultValue="contracts" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="contracts">{t("landlord.contracts.title")}</Tabs.Tab>
          <Tabs.Tab value="charges">{t("landlord.charges.title")}</Tabs.Tab>
          <Tabs.Tab value="documents">{t("landlord.documents.title")}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="contracts" pt="md">
          <ContractsOf propertyId={p.id} />
        </Tabs.Panel>
        <Tabs.Panel value="charges" pt="md">
          <Charges property={p} />
        </Tabs.Panel>
        <Tabs.Panel value="documents" pt="md">
          <Documents propertyId={p.id} />
        </Tabs.Panel>
      </Tabs>
    </Page>
  );
}

function ContractsOf({ propertyId }: { propertyId: string }) {
  const { t } = useTranslation();
  const f = useFormat();
  const list = usePaged(["contracts", { propertyId }], async (after) => {
    const l = json(await ok(api.GET("/api/v1/contracts", { params: { query: { after, property_id: propertyId } } })));
    return { items: l.contracts, next: l.next };
  });
  return (
    <Stack>
      <Failure error={list.error} />
      {list.isPending && <Loading />}
      {!list.isPending && list.items.length === 0 && <Empty>{t("landlord.contracts.none")}</Empty>}
      {list.items.length > 0 && (
        <Grid caption={t("landlord.contracts.title")} head={[t("landlord.contracts.number"), t("landlord.contracts.status"), t("landlord.contracts.start"), t("landlord.contracts.rent")]}>
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
              <Table.Td>{f.money(c.rent, c.currency)}</Table.Td>
            </Table.Tr>
          ))}
        </Grid>
      )}
      <More list={list} />
    </Stack>
  );
}

// The property's charges, billing (the API's refresh-all: every due
// period of its expenses, rents included) and a manual charge.
export function Charges({ property, contractId }: { property: S["Property"]; contractId?: string }) {
  const { t } = useTranslation();
  const f = useFormat();
  const queries = useQueryClient();
  const [adding, setAdding] = useState(false);
  const list = usePaged(["charges", property.id, contractId ?? ""], async (after) => {
    const l = json(await ok(api.GET("/api/v1/properties/{propertyId}/charges", { params: { path: { propertyId: property.id }, query: { after, contract_id: contractId } } })));
    return { items: l.charges, next: l.next };
  });
  const bill = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/properties/{propertyId}/expenses/refresh-all", { params: { path: { propertyId: property.id } } })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["charges", property.id] });
      void queries.invalidateQueries({ queryKey: ["balance", property.id] });
    },
  });
  return (
    <Stack>
      <Group>
        <Button onClick={() => bill.mutate()} loading={bill.isPending}>
          {t("landlord.charges.bill")}
        </Button>
        {!contractId && (
          <Button variant="default" onClick={() => setAdding(true)}>
            {t("landlord.charges.add")}
          </Button>
        )}
      </Group>
      {bill.data && (
        <Text role="status">{t("landlord.charges.billed", { n: bill.data.created })}</Text>
      )}
      <Failure error={bill.error ?? list.error} />
      {adding && <ManualCharge property={property} onClose={() => setAdding(false)} />}
      {list.isPending && <Loading />}
      {!list.isPending && list.items.length === 0 && <Empty>{t("landlord.charges.none")}</Empty>}
      {list.items.length > 0 && (
        <Grid caption={t("landlord.charges.title")} head={[t("landlord.charges.name"), t("landlord.charges.period"), t("landlord.charges.due"), t("landlord.charges.amount"), t("landlord.charges.outstanding"), t("landlord.charges.status")]}>
          {list.items.map((c) => (
            <Table.Tr key={c.id}>
              <Table.Td>{c.name}</Table.Td>
              <Table.Td>{c.period}</Table.Td>
              <Table.Td>{f.date(c.due_date)}</Table.Td>
              <Table.Td>{f.money(c.amount, c.currency)}</Table.Td>
              <Table.Td>{f.money(c.outstanding, c.currency)}</Table.Td>
              <Table.Td>
                <State kind="charge" value={c.status} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Grid>
      )}
      <More list={list} />
    </Stack>
  );
}

function ManualCharge({ property, onClose }: { property: S["Property"]; onClose: () => void }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [name, setName] = useState("");
  const [amount, setAmount] = useState<number | string>("");
  const [due, setDue] = useState(isoDay(0));
  const save = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/properties/{propertyId}/charges", { params: { path: { propertyId: property.id } }, body: { name, amount: Number(amount), due_date: due } })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["charges", property.id] });
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": t("landlord.close") }} title={t("landlord.charges.add")}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack>
          <TextInput label={t("landlord.charges.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <Num label={t("landlord.charges.amount")} required min={0} decimalScale={2} value={amount} onChange={setAmount} />
          <TextInput type="date" label={t("landlord.charges.due")} required value={due} onChange={(e) => setDue(e.currentTarget.value)} />
          <Failure error={save.error} />
          <Button type="submit" loading={save.isPending}>
            {t("landlord.save")}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

export function Documents({ propertyId, contractId }: { propertyId: string; contractId?: string }) {
  const { t } = useTranslation();
  const f = useFormat();
  const list = usePaged(["documents", propertyId, contractId ?? ""], async (after) => {
    const l = json(await ok(api.GET("/api/v1/properties/{propertyId}/documents", { params: { path: { propertyId }, query: { after, contract_id: contractId } } })));
    return { items: l.documents, next: l.next };
  });
  const get = useMutation({
    mutationFn: (d: S["Document"]) =>
      download(api.GET("/api/v1/properties/{propertyId}/documents/{documentId}/content", { params: { path: { propertyId, documentId: d.id } }, parseAs: "blob" }), d.filename),
  });
  return (
    <Stack>
      <Failure error={list.error ?? get.error} />
      {list.isPending && <Loading />}
      {!list.isPending && list.items.length === 0 && <Empty>{t("landlord.documents.none")}</Empty>}
      {list.items.length > 0 && (
        <Grid caption={t("landlord.documents.title")} head={[t("landlord.documents.name"), t("landlord.documents.added"), t("landlord.documents.file")]}>
          {list.items.map((d) => (
            <Table.Tr key={d.id}>
              <Table.Td>{d.title || d.filename}</Table.Td>
              <Table.Td>{f.date(d.created_at)}</Table.Td>
              <Table.Td>
                <Button size="xs" variant="default" onClick={() => get.mutate(d)} aria-label={t("landlord.documents.downloadOf", { name: d.title || d.filename })}>
                  {t("landlord.documents.download")}
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
