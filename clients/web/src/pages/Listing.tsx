import { Alert, Button, NumberInput, Stack, Table, Text, TextInput, Textarea, Title } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useParams } from "react-router";
import { api, ok } from "../api/client";
import { formatDate, formatMoney } from "../format";
import { Failure, Loading } from "./common";

// A published listing (modules/proposals) and its application: the
// applicant confirms with the code the API mails.
export function Listing() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? "en";
  const { slug = "" } = useParams();
  const page = useQuery({
    queryKey: ["listing", slug],
    queryFn: () => ok(api.GET("/api/v1/public/proposals/{slug}", { params: { path: { slug } } })),
    retry: false,
  });
  const [form, setForm] = useState({ name: "", email: "", phone: "", household: 1, start: "", message: "" });
  const [code, setCode] = useState("");
  const apply = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/v1/public/proposals/{slug}/applications", {
          params: { path: { slug } },
          body: {
            name: form.name,
            email: form.email,
            locale: lng,
            household_size: form.household,
            ...(form.phone ? { phone: form.phone } : {}),
            ...(form.start ? { desired_start: form.start } : {}),
            ...(form.message ? { message: form.message } : {}),
          },
        }),
      ),
  });
  const confirm = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/v1/public/proposals/{slug}/applications/{applicationId}/confirm", {
          params: { path: { slug, applicationId: apply.data!.application_id } },
          body: { code },
        }),
      ),
  });
  if (page.isPending) return <Loading />;
  if (page.error) return <Failure error={page.error} />;
  const p = page.data;
  const set = (k: keyof typeof form) => (e: { currentTarget: { value: string } }) => setForm({ ...form, [k]: e.currentTarget.value });
  return (
    <Stack>
      <Title order={1}>{p.title}</Title>
      {p.description && <Text style={{ whiteSpace: "pre-line" }}>{p.description}</Text>}
      <Table>
        <Table.Tbody>
          <Table.Tr>
            <Table.Th scope="row">{t("listing.rent")}</Table.Th>
            <Table.Td>{formatMoney(p.rent, p.currency, lng)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">{t("listing.deposit")}</Table.Th>
            <Table.Td>{formatMoney(p.deposit, p.currency, lng)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">{t("listing.availableFrom")}</Table.Th>
            <Table.Td>{formatDate(p.available_from, lng)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">{t("listing.minTerm")}</Table.Th>
            <Table.Td>{t("listing.months", { count: p.min_term_months })}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">{t("listing.place")}</Table.Th>
            <Table.Td>
              {p.postal_code} {p.city}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      <Title order={2} size="h3">
        {t("listing.apply")}
      </Title>
      {confirm.isSuccess ? (
        <Alert color="green" role="status">{t("listing.confirmed")}</Alert>
      ) : apply.isSuccess ? (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            confirm.mutate();
          }}
        >
          <Stack>
            <Text role="status">{t("listing.codeSent", { email: form.email })}</Text>
            <TextInput label={t("listing.code")} inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.currentTarget.value.trim())} />
            <Failure error={confirm.error} />
            <Button type="submit" loading={confirm.isPending}>
              {t("listing.confirm")}
            </Button>
          </Stack>
        </form>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            apply.mutate();
          }}
        >
          <Stack>
            <TextInput label={t("listing.name")} autoComplete="name" required value={form.name} onChange={set("name")} />
            <TextInput label={t("listing.email")} type="email" autoComplete="email" required value={form.email} onChange={set("email")} />
            <TextInput label={t("listing.phone")} type="tel" autoComplete="tel" value={form.phone} onChange={set("phone")} />
            <NumberInput label={t("listing.household")} min={1} max={20} value={form.household} onChange={(v) => setForm({ ...form, household: Number(v) || 1 })} />
            <TextInput label={t("listing.start")} type="date" value={form.start} onChange={set("start")} />
            <Textarea label={t("listing.message")} autosize minRows={3} maxLength={2000} value={form.message} onChange={set("message")} />
            <Failure error={apply.error} />
            <Button type="submit" loading={apply.isPending}>
              {t("listing.send")}
            </Button>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
