// Team and settings (issue 49, slice 3): the workspace's members (change a
// role, remove one) and invitations (invite by email, revoke); the
// workspace's name, time zone and run times, its notices (rent calls,
// reminders, receipts, contract ends, rent changes), and the signed-in
// user's profile (name, language of their mails). Only what the API has:
// the workspace has no locale or currency of its own (a contract has its
// language, a property its country's currency).
import { Button, Checkbox, Group, Modal, NativeSelect, NumberInput, Paper, Stack, Table, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, ok } from "../api/client";
import { languages } from "../i18n";
import { Empty, Failure, Grid, Loading, More, Page, json, useFormat, usePaged, type S } from "../landlord/common";
import { plausibleEmail, roles, scheduleValue, type Role } from "./logic";
import { useCurrentWorkspace } from "./shared";

export function TeamPage() {
  const { t } = useTranslation();
  const ws = useCurrentWorkspace();
  const id = ws.current?.id;
  return (
    <Page title={t("desk.team.title")}>
      <Failure error={ws.error} />
      {ws.isPending ? (
        <Loading />
      ) : id === undefined ? (
        <Empty>{t("desk.team.noWorkspace")}</Empty>
      ) : (
        <>
          <Text size="sm">{t("desk.team.yourRole", { role: t(`desk.roles.${ws.current!.role}`) })}</Text>
          <Members workspaceId={id} />
          {ws.current!.role === "owner" && <Invitations workspaceId={id} />}
        </>
      )}
    </Page>
  );
}

type Member = S["WorkspaceMember"];

function Members({ workspaceId }: { workspaceId: number }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [removing, setRemoving] = useState<Member | null>(null);
  const list = usePaged(["desk", "members", workspaceId], async (after) => {
    const l = json(await ok(api.GET("/api/v1/workspaces/{workspaceId}/members", { params: { path: { workspaceId: String(workspaceId) }, query: { after, per_page: 50 } } })));
    return { items: l.members, next: l.next };
  });
  const change = useMutation({
    mutationFn: ({ userId, role }: { userId: number; role: Role }) =>
      ok(api.PATCH("/api/v1/workspaces/{workspaceId}/members/{userId}", { params: { path: { workspaceId: String(workspaceId), userId: String(userId) } }, body: { role } })),
    onSettled: () => void queries.invalidateQueries({ queryKey: ["desk", "members", workspaceId] }),
  });
  return (
    <Stack component="section" aria-labelledby="members-title">
      <Title order={2} id="members-title">
        {t("desk.team.members")}
      </Title>
      <Failure error={list.error ?? change.error} />
      {list.isPending && <Loading />}
      {!list.isPending && !list.error && list.items.length === 0 && <Empty>{t("desk.team.noMembers")}</Empty>}
      {list.items.length > 0 && (
        <Grid caption={t("desk.team.members")} head={[t("desk.team.name"), t("desk.team.email"), t("desk.team.role"), t("desk.bills.actions")]}>
          {list.items.map((m) => (
            <Table.Tr key={m.user_id}>
              <Table.Td>{m.name}</Table.Td>
              <Table.Td style={{ overflowWrap: "anywhere" }}>{m.email}</Table.Td>
              <Table.Td>
                <NativeSelect
                  size="xs"
                  aria-label={t("desk.team.roleOf", { name: m.name })}
                  value={m.role}
                  disabled={change.isPending}
                  onChange={(e) => change.mutate({ userId: m.user_id, role: e.currentTarget.value as Role })}
                  data={roles.map((r) => ({ value: r, label: t(`desk.roles.${r}`) }))}
                />
              </Table.Td>
              <Table.Td>
                <Button size="compact-xs" variant="default" onClick={() => setRemoving(m)} aria-label={t("desk.team.removeOf", { name: m.name })}>
                  {t("desk.team.remove")}
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
        </Grid>
      )}
      <More list={list} />
      {removing && <RemoveMember workspaceId={workspaceId} member={removing} onClose={() => setRemoving(null)} />}
    </Stack>
  );
}

function RemoveMember({ workspaceId, member, onClose }: { workspaceId: number; member: Member; onClose: () => void }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const del = useMutation({
    mutationFn: () => ok(api.DELETE("/api/v1/workspaces/{workspaceId}/members/{userId}", { params: { path: { workspaceId: String(workspaceId), userId: String(member.user_id) } } })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["desk", "members", workspaceId] });
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": t("landlord.close") }} title={t("desk.team.remove")}>
      <Stack>
        <Text>{t("desk.team.removeConfirm", { name: member.name, email: member.email })}</Text>
        <Failure error={del.error} />
        <Group>
          <Button color="red" onClick={() => del.mutate()} loading={del.isPending}>
            {t("desk.team.remove")}
          </Button>
          <Button variant="default" onClick={onClose}>
            {t("desk.cancel")}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function Invitations({ workspaceId }: { workspaceId: number }) {
  const { t } = useTranslation();
  const f = useFormat();
  const queries = useQueryClient();
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<Role>("manager");
  const [shown, setShown] = useState(false);
  const list = usePaged(["desk", "invitations", workspaceId], async (after) => {
    const l = json(await ok(api.GET("/api/v1/workspaces/{workspaceId}/invitations", { params: { path: { workspaceId: String(workspaceId) }, query: { after, per_page: 50 } } })));
    return { items: l.invitations, next: l.next };
  });
  const invite = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/workspaces/{workspaceId}/invitations", { params: { path: { workspaceId: String(workspaceId) } }, body: { email: email.trim(), role } })),
    onSuccess: () => {
      setEmail("");
      setShown(false);
      void queries.invalidateQueries({ queryKey: ["desk", "invitations", workspaceId] });
    },
  });
  const revoke = useMutation({
    mutationFn: (invitationId: number) => ok(api.DELETE("/api/v1/workspaces/{workspaceId}/invitations/{invitationId}", { params: { path: { workspaceId: String(workspaceId), invitationId: String(invitationId) } } })),
    onSettled: () => void queries.invalidateQueries({ queryKey: ["desk", "invitations", workspaceId] }),
  });
  const bad = !plausibleEmail(email);
  return (
    <Stack component="section" aria-labelledby="invitations-title">
      <Title order={2} id="invitations-title">
        {t("desk.team.invitations")}
      </Title>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setShown(true);
          if (!bad) invite.mutate();
        }}
      >
        <Group align="flex-start" wrap="wrap">
          <TextInput label={t("desk.team.email")} type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} error={shown && bad ? t("desk.team.badEmail") : undefined} miw={240} />
          <NativeSelect label={t("desk.team.role")} value={role} onChange={(e) => setRole(e.currentTarget.value as Role)} data={roles.map((r) => ({ value: r, label: t(`desk.roles.${r}`) }))} />
          <Button type="submit" mt={25} loading={invite.isPending}>
            {t("desk.team.invite")}
          </Button>
        </Group>
      </form>
      {invite.isSuccess && <Text role="status">{t("desk.team.invited")}</Text>}
      <Failure error={invite.error ?? revoke.error ?? list.error} />
      {list.isPending && <Loading />}
      {!list.isPending && !list.error && list.items.length === 0 && <Empty>{t("desk.team.noInvitations")}</Empty>}
      {list.items.length > 0 && (
        <Grid caption={t("desk.team.invitations")} head={[t("desk.team.email"), t("desk.team.role"), t("desk.team.status"), t("desk.team.expires"), t("desk.bills.actions")]}>
          {list.items.map((i) => (
            <Table.Tr key={i.id}>
              <Table.Td style={{ overflowWrap: "anywhere" }}>{i.email}</Table.Td>
              <Table.Td>{t(`desk.roles.${i.role}`)}</Table.Td>
              <Table.Td>{t(`desk.team.states.${i.status}`)}</Table.Td>
              <Table.Td style={{ whiteSpace: "nowrap" }}>{f.date(i.expires_at)}</Table.Td>
              <Table.Td>
                {i.status === "pending" && (
                  <Button size="compact-xs" variant="default" disabled={revoke.isPending} onClick={() => revoke.mutate(i.id)} aria-label={t("desk.team.revokeOf", { email: i.email })}>
                    {t("desk.team.revoke")}
                  </Button>
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Grid>
      )}
      <More list={list} />
    </Stack>
  );
}

export function SettingsPage() {
  const { t } = useTranslation();
  const ws = useCurrentWorkspace();
  return (
    <Page title={t("desk.settings.title")}>
      <Failure error={ws.error} />
      {ws.isPending ? <Loading /> : ws.current && <WorkspaceSettings key={ws.current.id} workspace={ws.current} />}
      <Notices />
      <Profile />
    </Page>
  );
}

const runs = ["billing", "late_fees", "notices"] as const;

function WorkspaceSettings({ workspace }: { workspace: S["Workspace"] }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const owner = workspace.role === "owner";
  const [name, setName] = useState(workspace.name);
  const [zone, setZone] = useState(workspace.time_zone);
  const [times, setTimes] = useState<Record<string, string>>(() => Object.fromEntries(runs.map((r) => [r, workspace.schedule[r] ?? ""])));
  const bad = runs.filter((r) => scheduleValue(times[r]) === undefined);
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.PATCH("/api/v1/workspaces/{workspaceId}", {
          params: { path: { workspaceId: String(workspace.id) } },
          body: { name: name.trim(), time_zone: zone.trim(), schedule: Object.fromEntries(runs.map((r) => [r, scheduleValue(times[r]) ?? null])) },
        }),
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ["workspaces"] }),
  });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="ws-title">
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (bad.length === 0) save.mutate();
        }}
      >
        <Stack>
          <Title order={2} id="ws-title">
            {t("desk.settings.workspace")}
          </Title>
          {!owner && <Text size="sm">{t("desk.settings.ownerOnly")}</Text>}
          <TextInput label={t("desk.settings.name")} required maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} disabled={!owner} />
          <TextInput label={t("desk.settings.zone")} description={t("desk.settings.zoneHint")} maxLength={64} value={zone} onChange={(e) => setZone(e.currentTarget.value)} disabled={!owner} />
          <Group grow wrap="wrap" align="flex-start">
            {runs.map((r) => (
              <TextInput
                key={r}
                label={t(`desk.settings.runs.${r}`)}
                description={t("desk.settings.runHint")}
                value={times[r]}
                onChange={(e) => setTimes({ ...times, [r]: e.currentTarget.value })}
                error={bad.includes(r) ? t("desk.settings.badTime") : undefined}
                disabled={!owner}
                miw={150}
              />
            ))}
          </Group>
          <Failure error={save.error} />
          {save.isSuccess && <Text role="status">{t("landlord.saved")}</Text>}
          {owner && (
            <Button type="submit" loading={save.isPending} w="fit-content">
              {t("landlord.save")}
            </Button>
          )}
        </Stack>
      </form>
    </Paper>
  );
}

const kinds = ["rent_call", "reminder", "receipt", "contract_end", "rent_change"] as const;

function Notices() {
  const { t } = useTranslation();
  const r = useQuery({ queryKey: ["desk", "notices"], queryFn: () => ok(api.GET("/api/v1/notice-settings")) });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="notices-title">
      <Stack>
        <Title order={2} id="notices-title">
          {t("desk.notices.title")}
        </Title>
        {r.isPending ? <Loading /> : r.error ? <Failure error={r.error} /> : <NoticeForm value={r.data} />}
      </Stack>
    </Paper>
  );
}

function NoticeForm({ value }: { value: S["NoticeSettings"] }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [v, setV] = useState(value);
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.PATCH("/api/v1/notice-settings", {
          body: {
            rent_call: v.rent_call, reminder: v.reminder, receipt: v.receipt, contract_end: v.contract_end, rent_change: v.rent_change,
            rent_call_days_before: v.rent_call_days_before, contract_end_days_before: v.contract_end_days_before,
            reminder_step2_days: v.reminder_step2_days, reminder_step3_days: v.reminder_step3_days,
          },
        }),
      ),
    onSuccess: () => void queries.invalidateQueries({ queryKey: ["desk", "notices"] }),
  });
  const days = (k: "rent_call_days_before" | "contract_end_days_before" | "reminder_step2_days" | "reminder_step3_days", min: number, max: number) => (
    <NumberInput label={t(`desk.notices.${k}`)} value={v[k]} min={min} max={max} allowDecimal={false} clampBehavior="strict" onChange={(n) => typeof n === "number" && setV({ ...v, [k]: n })} w={220} />
  );
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack>
        {kinds.map((k) => (
          <Checkbox key={k} label={t(`desk.notices.kinds.${k}`)} checked={v[k]} onChange={(e) => setV({ ...v, [k]: e.currentTarget.checked })} />
        ))}
        <Group wrap="wrap" align="flex-start">
          {days("rent_call_days_before", 0, 28)}
          {days("contract_end_days_before", 0, 365)}
          {days("reminder_step2_days", 1, 90)}
          {days("reminder_step3_days", 1, 90)}
        </Group>
        <Failure error={save.error} />
        {save.isSuccess && <Text role="status">{t("landlord.saved")}</Text>}
        <Button type="submit" loading={save.isPending} w="fit-content">
          {t("landlord.save")}
        </Button>
      </Stack>
    </form>
  );
}

const names: Record<string, string> = { de: "Deutsch", en: "English", fr: "Français", es: "Español", uk: "Українська" };

function Profile() {
  const { t } = useTranslation();
  const r = useQuery({ queryKey: ["desk", "profile"], queryFn: () => ok(api.GET("/api/v1/user/profile")) });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="profile-title">
      <Stack>
        <Title order={2} id="profile-title">
          {t("desk.profile.title")}
        </Title>
        {r.isPending ? <Loading /> : r.error ? <Failure error={r.error} /> : <ProfileForm value={r.data} />}
      </Stack>
    </Paper>
  );
}

function ProfileForm({ value }: { value: S["Profile"] }) {
  const { t, i18n } = useTranslation();
  const queries = useQueryClient();
  const [name, setName] = useState(value.name);
  const [locale, setLocale] = useState(value.locale);
  const save = useMutation({
    mutationFn: () => ok(api.PUT("/api/v1/user/profile", { body: { name: name.trim(), locale } })),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["desk", "profile"] });
      // The app speaks the language the mails will.
      if ((languages as readonly string[]).includes(locale)) void i18n.changeLanguage(locale);
    },
  });
  const choices = (languages as readonly string[]).includes(value.locale) ? languages : [...languages, value.locale];
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack>
        <Text size="sm">{value.email}</Text>
        <TextInput label={t("desk.profile.name")} required minLength={2} maxLength={100} value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <NativeSelect label={t("desk.profile.language")} description={t("desk.profile.languageHint")} value={locale} onChange={(e) => setLocale(e.currentTarget.value)} data={choices.map((l) => ({ value: l, label: names[l] ?? l }))} />
        <Failure error={save.error} />
        {save.isSuccess && <Text role="status">{t("landlord.saved")}</Text>}
        <Button type="submit" loading={save.isPending} w="fit-content" disabled={name.trim().length < 2}>
          {t("landlord.save")}
        </Button>
      </Stack>
    </form>
  );
}
