// Letting (issue 49, slice 4): a property's listings (the API's
// proposals): a draft (title, rent, available from, deposit, minimum term,
// description), published (its public page is /listings/<slug>) or closed;
// a listing's confirmed applications, each shortlisted or declined (the
// API has no "accept": a shortlisted applicant goes on to the negotiation).
import { Anchor, Badge, Button, Group, Modal, NativeSelect, NumberInput, Paper, Stack, Table, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { api, ok } from "../api/client";
import { Empty, Failure, Grid, Loading, More, Page, isoDay, json, useFormat, usePaged, type S } from "../landlord/common";
import { parseAmount } from "./logic";
import { useProperties } from "./shared";

const colors: Record<string, string> = { draft: "gray", published: "green", closed: "gray", new: "blue", shortlisted: "green", declined: "gray" };

function StatusBadge({ value }: { value: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={colors[value] ?? "gray"} variant="light" c="dark.7">
      {t(`desk.letting.states.${value}`)}
    </Badge>
  );
}

export function LettingPage() {
  const { t } = useTranslation();
  const f = useFormat();
  const props = useProperties();
  const [chosen, setChosen] = useState("");
  const [adding, setAdding] = useState(false);
  const property = chosen || props.data?.[0]?.id || "";
  const list = usePaged(
    ["desk", "proposals", property],
    async (after) => {
      const l = json(await ok(api.GET("/api/v1/properties/{propertyId}/proposals", { params: { path: { propertyId: property }, query: { after, per_page: 50 } } })));
      return { items: l.proposals, next: l.next };
    },
    property !== "",
  );
  return (
    <Page title={t("desk.letting.title")} actions={property && <Button onClick={() => setAdding(true)}>{t("desk.letting.new")}</Button>}>
      <Failure error={props.error} />
      {props.isPending ? (
        <Loading />
      ) : (props.data ?? []).length === 0 ? (
        <Empty>{t("desk.letting.noProperty")}</Empty>
      ) : (
        <>
          <NativeSelect label={t("desk.bills.property")} value={property} onChange={(e) => setChosen(e.currentTarget.value)} data={(props.data ?? []).map((p) => ({ value: p.id, label: p.name }))} w={260} />
          <Failure error={list.error} />
          {list.isPending && <Loading />}
          {!list.isPending && !list.error && list.items.length === 0 && <Empty>{t("desk.letting.none")}</Empty>}
          {list.items.length > 0 && (
            <Grid caption={t("desk.letting.title")} head={[t("desk.letting.listing"), t("desk.letting.rent"), t("desk.letting.from"), t("desk.bills.status"), t("desk.letting.public")]}>
              {list.items.map((p) => (
                <Table.Tr key={p.id}>
                  <Table.Td>
                    <Anchor component={Link} to={`/app/letting/${p.property_id}/${p.id}`}>
                      {p.title}
                    </Anchor>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{f.money(p.rent, p.currency)}</Table.Td>
                  <Table.Td style={{ whiteSpace: "nowrap" }}>{f.date(p.available_from)}</Table.Td>
                  <Table.Td>
                    <StatusBadge value={p.status} />
                  </Table.Td>
                  <Table.Td>{p.status === "published" ? <Anchor href={`/listings/${p.slug}`}>{`/listings/${p.slug}`}</Anchor> : "–"}</Table.Td>
                </Table.Tr>
              ))}
            </Grid>
          )}
          <More list={list} />
        </>
      )}
      {adding && <NewListing propertyId={property} onClose={() => setAdding(false)} />}
    </Page>
  );
}

function NewListing({ propertyId, onClose }: { propertyId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { lng } = useFormat();
  const queries = useQueryClient();
  const [title, setTitle] = useState("");
  const [rent, setRent] = useState("");
  const [from, setFrom] = useState(isoDay(14));
  const [deposit, setDeposit] = useState<number>(3);
  const [term, setTerm] = useState<number>(0);
  const [description, setDescription] = useState("");
  const [shown, setShown] = useState(false);
  const amount = parseAmount(rent, lng);
  const bad = {
    title: title.trim() === "" ? t("desk.bills.errors.required") : undefined,
    rent: amount === null || amount <= 0 ? t("desk.bills.errors.amount") : undefined,
    from: !/^\d{4}-\d{2}-\d{2}$/.test(from) ? t("desk.bills.errors.date") : undefined,
  };
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/v1/properties/{propertyId}/proposals", {
          params: { path: { propertyId } },
          body: { title: title.trim(), rent: amount ?? 0, available_from: from, deposit_months: deposit, min_term_months: term, description },
        }),
      ),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["desk", "proposals"] });
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": t("landlord.close") }} title={t("desk.letting.new")} size="lg">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setShown(true);
          if (!bad.title && !bad.rent && !bad.from) save.mutate();
        }}
      >
        <Stack>
          <TextInput label={t("desk.letting.listing")} required maxLength={200} value={title} onChange={(e) => setTitle(e.currentTarget.value)} error={shown && bad.title} />
          <Group grow align="flex-start" wrap="wrap">
            <TextInput label={t("desk.letting.rent")} required inputMode="decimal" value={rent} onChange={(e) => setRent(e.currentTarget.value)} error={shown && bad.rent} miw={150} />
            <TextInput type="date" label={t("desk.letting.from")} required value={from} onChange={(e) => setFrom(e.currentTarget.value)} error={shown && bad.from} miw={150} />
          </Group>
          <Group grow align="flex-start" wrap="wrap">
            <NumberInput label={t("desk.letting.deposit")} value={deposit} min={0} max={12} allowDecimal={false} clampBehavior="strict" onChange={(n) => typeof n === "number" && setDeposit(n)} miw={150} />
            <NumberInput label={t("desk.letting.term")} value={term} min={0} max={120} allowDecimal={false} clampBehavior="strict" onChange={(n) => typeof n === "number" && setTerm(n)} miw={150} />
          </Group>
          <Textarea label={t("desk.letting.description")} value={description} onChange={(e) => setDescription(e.currentTarget.value)} autosize minRows={3} maxLength={4000} />
          <Failure error={save.error} />
          <Button type="submit" loading={save.isPending} w="fit-content">
            {t("desk.letting.saveDraft")}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

// A listing: publish or close it, and its applications.
export function ListingPage() {
  const { t } = useTranslation();
  const f = useFormat();
  const queries = useQueryClient();
  const { propertyId = "", proposalId = "" } = useParams();
  const path = { propertyId, proposalId };
  const proposal = useQuery({
    queryKey: ["desk", "proposal", proposalId],
    queryFn: () => ok(api.GET("/api/v1/properties/{propertyId}/proposals/{proposalId}", { params: { path } })),
  });
  const p: S["Proposal"] | undefined = proposal.data;
  const step = useMutation({
    mutationFn: (to: "publish" | "close") =>
      to === "publish"
        ? ok(api.POST("/api/v1/properties/{propertyId}/proposals/{proposalId}/publish", { params: { path } }))
        : ok(api.POST("/api/v1/properties/{propertyId}/proposals/{proposalId}/close", { params: { path } })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["desk", "proposal", proposalId] });
      void queries.invalidateQueries({ queryKey: ["desk", "proposals"] });
    },
  });
  const apps = usePaged(["desk", "applications", proposalId], async (after) => {
    const l = json(await ok(api.GET("/api/v1/properties/{propertyId}/proposals/{proposalId}/applications", { params: { path, query: { after, per_page: 50 } } })));
    return { items: l.applications, next: l.next };
  });
  const decide = useMutation({
    mutationFn: ({ id, to }: { id: string; to: "shortlist" | "decline" }) =>
      to === "shortlist"
        ? ok(api.POST("/api/v1/properties/{propertyId}/proposals/{proposalId}/applications/{applicationId}/shortlist", { params: { path: { ...path, applicationId: id } } }))
        : ok(api.POST("/api/v1/properties/{propertyId}/proposals/{proposalId}/applications/{applicationId}/decline", { params: { path: { ...path, applicationId: id } } })),
    onSettled: () => void queries.invalidateQueries({ queryKey: ["desk", "applications", proposalId] }),
  });
  return (
    <Page title={p?.title ?? t("desk.letting.listing")} back={{ to: "/app/letting", label: t("desk.letting.title") }}>
      <Failure error={proposal.error} />
      {proposal.isPending && <Loading />}
      {p && (
        <Paper withBorder p="md">
          <Stack gap="xs">
            <Group gap="xs">
              <StatusBadge value={p.status} />
              <Text size="sm">
                {f.money(p.rent, p.currency)} · {t("desk.letting.from")} {f.date(p.available_from)}
              </Text>
            </Group>
            {p.description && <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>{p.description}</Text>}
            {p.status === "published" && (
              <Text size="sm">
                {t("desk.letting.public")}: <Anchor href={`/listings/${p.slug}`}>{`/listings/${p.slug}`}</Anchor>
              </Text>
            )}
            <Failure error={step.error} />
            <Group>
              {p.status === "draft" && (
                <Button onClick={() => step.mutate("publish")} loading={step.isPending}>
                  {t("desk.letting.publish")}
                </Button>
              )}
              {p.status === "published" && (
                <Button variant="default" onClick={() => step.mutate("close")} loading={step.isPending}>
                  {t("desk.letting.close")}
                </Button>
              )}
            </Group>
          </Stack>
        </Paper>
      )}
      <Title order={2}>{t("desk.letting.applications")}</Title>
      <Failure error={apps.error ?? decide.error} />
      {apps.isPending && <Loading />}
      {!apps.isPending && !apps.error && apps.items.length === 0 && <Empty>{t("desk.letting.noApplications")}</Empty>}
      {apps.items.length > 0 && (
        <Grid caption={t("desk.letting.applications")} head={[t("desk.team.name"), t("desk.team.email"), t("desk.letting.household"), t("desk.letting.start"), t("desk.bills.status"), t("desk.bills.actions")]}>
          {apps.items.map((a) => (
            <Table.Tr key={a.id}>
              <Table.Td>
                {a.name}
                {a.message && (
                  <Text size="xs" c="dimmed" style={{ whiteSpace: "pre-wrap" }}>
                    {a.message}
                  </Text>
                )}
              </Table.Td>
              <Table.Td style={{ overflowWrap: "anywhere" }}>{a.email}</Table.Td>
              <Table.Td>{a.household_size ?? "–"}</Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{f.date(a.desired_start)}</Table.Td>
              <Table.Td>
                <StatusBadge value={a.status} />
              </Table.Td>
              <Table.Td>
                <Group gap={4} wrap="nowrap">
                  {a.status === "new" && (
                    <Button size="compact-xs" onClick={() => decide.mutate({ id: a.id, to: "shortlist" })} disabled={decide.isPending} aria-label={t("desk.letting.shortlistOf", { name: a.name })}>
                      {t("desk.letting.shortlist")}
                    </Button>
                  )}
                  {a.status !== "declined" && (
                    <Button size="compact-xs" variant="default" onClick={() => decide.mutate({ id: a.id, to: "decline" })} disabled={decide.isPending} aria-label={t("desk.letting.declineOf", { name: a.name })}>
                      {t("desk.letting.decline")}
                    </Button>
                  )}
                </Group>
              </Table.Td>
            </Table.Tr>
          ))}
        </Grid>
      )}
      <More list={apps} />
    </Page>
  );
}
