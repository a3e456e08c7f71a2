// Buildings and their units: the list (keyset pages), a new building, a
// building's page with its units, a property added as a unit, and the CSV
// import of units: first the API's dry run (what each line would change,
// or every line's error), then the import itself.
import { Anchor, Badge, Button, FileInput, Group, List, Modal, NativeSelect, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { api, ok } from "../api/client";
import { ApiError } from "../api/errors";
import { Empty, Failure, Grid, Loading, More, Page, json, useFormat, usePaged, type S } from "./common";
import { useCountries } from "./Properties";

export function BuildingList() {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);
  const list = usePaged(["buildings"], async (after) => {
    const l = json(await ok(api.GET("/api/v1/buildings", { params: { query: { after, per_page: 50 } } })));
    return { items: l.buildings, next: l.next };
  });
  return (
    <Page title={t("landlord.buildings.title")} actions={<Button onClick={() => setAdding(true)}>{t("landlord.buildings.new")}</Button>}>
      {adding && <NewBuilding onClose={() => setAdding(false)} />}
      <Failure error={list.error} />
      {list.isPending && <Loading />}
      {!list.isPending && list.items.length === 0 && <Empty>{t("landlord.buildings.none")}</Empty>}
      {list.items.length > 0 && (
        <Grid caption={t("landlord.buildings.title")} head={[t("landlord.properties.name"), t("landlord.properties.address")]}>
          {list.items.map((b) => (
            <Table.Tr key={b.id}>
              <Table.Td>
                <Anchor component={Link} to={`/app/buildings/${b.id}`}>
                  {b.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{[b.address, [b.postal_code, b.city].filter(Boolean).join(" ")].filter(Boolean).join(", ")}</Table.Td>
            </Table.Tr>
          ))}
        </Grid>
      )}
      <More list={list} />
    </Page>
  );
}

function NewBuilding({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const countries = useCountries();
  const [v, setV] = useState<S["BuildingCreate"]>({ name: "", address: "", postal_code: "", city: "", country_code: "DE" });
  const set = (k: keyof S["BuildingCreate"]) => (e: React.ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setV({ ...v, [k]: e.currentTarget.value });
  const save = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/buildings", { body: v })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["buildings"] });
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": t("landlord.close") }} title={t("landlord.buildings.new")}>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate();
        }}
      >
        <Stack>
          <TextInput label={t("landlord.properties.name")} required value={v.name} onChange={set("name")} />
          <TextInput label={t("landlord.properties.street")} value={v.address} onChange={set("address")} />
          <Group grow>
            <TextInput label={t("landlord.properties.postalCode")} value={v.postal_code} onChange={set("postal_code")} />
            <TextInput label={t("landlord.properties.city")} value={v.city} onChange={set("city")} />
          </Group>
          <NativeSelect label={t("landlord.properties.country")} value={v.country_code} onChange={set("country_code")} data={countries.length ? countries : [v.country_code]} />
          <Failure error={save.error} />
          <Button type="submit" loading={save.isPending}>
            {t("landlord.save")}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

export function BuildingPage() {
  const { t } = useTranslation();
  const f = useFormat();
  const { buildingId = "" } = useParams();
  const queries = useQueryClient();
  const [importing, setImporting] = useState(false);
  const [adding, setAdding] = useState("");
  const building = useQuery({ queryKey: ["building", buildingId], queryFn: () => ok(api.GET("/api/v1/buildings/{buildingId}", { params: { path: { buildingId } } })) });
  const units = useQuery({ queryKey: ["building", buildingId, "units"], queryFn: () => ok(api.GET("/api/v1/buildings/{buildingId}/units", { params: { path: { buildingId } } })) });
  const properties = useQuery({ queryKey: ["properties", "all"], queryFn: async () => json(await ok(api.GET("/api/v1/properties", { params: { query: { per_page: 100 } } }))).properties });
  const add = useMutation({
    mutationFn: (propertyId: string) => ok(api.PUT("/api/v1/buildings/{buildingId}/units/{propertyId}", { params: { path: { buildingId, propertyId } }, body: {} })),
    onSuccess: () => {
      setAdding("");
      void queries.invalidateQueries({ queryKey: ["building", buildingId, "units"] });
    },
  });
  if (building.isPending) return <Loading />;
  if (building.error) return <Failure error={building.error} />;
  const b = building.data;
  const inside = new Set((units.data?.units ?? []).map((u) => u.property_id));
  const candidates = (properties.data ?? []).filter((p) => !inside.has(p.id));
  return (
    <Page
      title={b.name}
      back={{ to: "/app/buildings", label: t("landlord.buildings.title") }}
      actions={
        <Button variant="default" onClick={() => setImporting(true)}>
          {t("landlord.buildings.import")}
        </Button>
      }
    >
      <Text>{[b.address, [b.postal_code, b.city].filter(Boolean).join(" "), b.country_code].filter(Boolean).join(", ")}</Text>
      {importing && <ImportUnits buildingId={buildingId} onClose={() => setImporting(false)} />}
      <Title order={2} size="h3">
        {t("landlord.buildings.units")}
      </Title>
      <Failure error={units.error ?? add.error} />
      {units.isPending && <Loading />}
      {units.data && units.data.units.length === 0 && <Empty>{t("landlord.buildings.noUnits")}</Empty>}
      {units.data && units.data.units.length > 0 && (
        <Grid caption={t("landlord.buildings.units")} head={[t("landlord.properties.name"), t("landlord.buildings.area"), t("landlord.buildings.rooms"), t("landlord.buildings.floor"), t("landlord.buildings.share")]}>
          {units.data.units.map((u) => (
            <Table.Tr key={u.property_id}>
              <Table.Td>
                <Anchor component={Link} to={`/app/properties/${u.property_id}`}>
                  {u.name}
                </Anchor>
              </Table.Td>
              <Table.Td>{u.living_area == null ? "–" : `${new Intl.NumberFormat(f.lng).format(u.living_area)} m²`}</Table.Td>
              <Table.Td>{u.rooms ?? "–"}</Table.Td>
              <Table.Td>{u.floor ?? "–"}</Table.Td>
              <Table.Td>{u.share ?? "–"}</Table.Td>
            </Table.Tr>
          ))}
        </Grid>
      )}
      {candidates.length > 0 && (
        <Group align="flex-end">
          <NativeSelect
            label={t("landlord.buildings.addUnit")}
            value={adding}
            onChange={(e) => setAdding(e.currentTarget.value)}
            data={[{ value: "", label: "—" }, ...candidates.map((p) => ({ value: p.id, label: p.name }))]}
          />
          <Button variant="default" disabled={!adding} loading={add.isPending} onClick={() => add.mutate(adding)}>
            {t("landlord.buildings.addUnitButton")}
          </Button>
        </Group>
      )}
    </Page>
  );
}

function ImportUnits({ buildingId, onClose }: { buildingId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const send = (dry: boolean) =>
    ok(
      api.POST("/api/v1/buildings/{buildingId}/units/import", {
        params: { path: { buildingId }, query: { dry_run: dry } },
        body: { file: "" },
        bodySerializer: () => {
          const form = new FormData();
          form.append("file", file!);
          return form;
        },
      }),
    );
  const dry = useMutation({ mutationFn: () => send(true) });
  const run = useMutation({
    mutationFn: () => send(false),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ["building", buildingId, "units"] }),
  });
  const error = run.error ?? dry.error;
  const lines = error instanceof ApiError ? error.details : [];
  const result = run.data ?? dry.data;
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": t("landlord.close") }} title={t("landlord.buildings.import")} size="lg">
      <Stack>
        <Text size="sm">{t("landlord.buildings.importHint")}</Text>
        <FileInput
          label={t("landlord.csvFile")}
          accept=".csv,text/csv"
          value={file}
          onChange={(f) => {
            setFile(f);
            dry.reset();
            run.reset();
          }}
          clearable
          clearButtonProps={{ "aria-label": t("landlord.clearFile") }}
        />
        {error && lines.length === 0 && <Failure error={error} />}
        {lines.length > 0 && (
          <div role="alert">
            <Text fw={600} c="red.9">
              {t("landlord.lineErrors")}
            </Text>
            <List size="sm" c="red.9">
              {lines.map((l) => (
                <List.Item key={l}>{l}</List.Item>
              ))}
            </List>
          </div>
        )}
        {result && (
          <Stack gap="xs" role="status">
            <Text fw={600}>
              {t(result.dry_run ? "landlord.buildings.wouldChange" : "landlord.buildings.changed", { added: result.added, updated: result.updated, unchanged: result.unchanged })}
            </Text>
            <Grid caption={t("landlord.buildings.lines")} head={[t("landlord.buildings.line"), t("landlord.properties.name"), t("landlord.buildings.action")]}>
              {result.lines.map((l) => (
                <Table.Tr key={l.line}>
                  <Table.Td>{l.line}</Table.Td>
                  <Table.Td>{l.name}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color="gray" c="dark.7">
                      {t(`landlord.buildings.action_${l.action}`)}
                    </Badge>{" "}
                    {l.changed.join(", ")}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Grid>
          </Stack>
        )}
        <Group>
          <Button variant="default" onClick={() => dry.mutate()} disabled={!file} loading={dry.isPending}>
            {t("landlord.buildings.dryRun")}
          </Button>
          <Button onClick={() => run.mutate()} disabled={!file || !dry.data} loading={run.isPending}>
            {t("landlord.buildings.importRun")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
