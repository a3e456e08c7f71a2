// The calendar (issue 49, slice 3): a month of the workspace's events as
// an agenda, day by day (the API's window: stored events with their
// recurrences, and the derived ones: rent due, contract start and end,
// indexation, deposit and operating-cost deadlines), a new event, and the
// member's iCalendar feed address (modules calendar).
import { Badge, Button, Checkbox, CopyButton, Group, Modal, NativeSelect, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { api, ok } from "../api/client";
import { intlLocale } from "../format";
import { Empty, Failure, Loading, Page, isoDay, useFormat, type S } from "../landlord/common";
import { agendaDays, eventStart, localTime, monthWindow, shiftMonth } from "./logic";
import { useCurrentWorkspace } from "./shared";

const storedKinds = ["viewing", "inspection", "repair", "meeting", "other"] as const;
type Window = S["CalendarWindow"];

export function CalendarPage() {
  const { t } = useTranslation();
  const { lng } = useFormat();
  const ws = useCurrentWorkspace();
  const zone = ws.current?.time_zone ?? "UTC";
  const [month, setMonth] = useState(() => isoDay().slice(0, 7));
  const [adding, setAdding] = useState(false);
  const { from, to } = monthWindow(month);
  const r = useQuery({
    queryKey: ["desk", "calendar", from, to, zone],
    enabled: !ws.isPending,
    queryFn: async () => {
      const w = await ok(api.GET("/api/v1/calendar-events", { params: { query: { from, to, time_zone: zone } } }));
      if (!("occurrences" in w)) throw new Error("unexpected");
      return w as Window;
    },
  });
  const monthName = new Intl.DateTimeFormat(intlLocale(lng), { month: "long", year: "numeric", timeZone: "UTC" }).format(new Date(`${from}T00:00:00Z`));
  const dayName = (d: string) => new Intl.DateTimeFormat(intlLocale(lng), { weekday: "long", day: "numeric", month: "long", timeZone: "UTC" }).format(new Date(`${d}T00:00:00Z`));
  const days = agendaDays(r.data?.occurrences ?? []);
  return (
    <Page title={t("desk.calendar.title")} actions={<Button onClick={() => setAdding(true)}>{t("desk.calendar.new")}</Button>}>
      <Group justify="space-between" wrap="nowrap">
        <Button variant="default" size="xs" onClick={() => setMonth(shiftMonth(month, -1))} aria-label={t("desk.calendar.previous")}>
          ←
        </Button>
        <Title order={2} size="h3" aria-live="polite">
          {monthName}
        </Title>
        <Button variant="default" size="xs" onClick={() => setMonth(shiftMonth(month, 1))} aria-label={t("desk.calendar.next")}>
          →
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t("desk.calendar.zone", { zone })}
      </Text>
      {r.isPending ? (
        <Loading />
      ) : r.error ? (
        <Failure error={r.error} />
      ) : days.length === 0 ? (
        <Empty>{t("desk.calendar.none")}</Empty>
      ) : (
        <Stack gap="sm" component="section" aria-label={t("desk.calendar.agenda")}>
          {days.map((d) => (
            <Paper key={d.day} withBorder p="sm">
              <Title order={3} size="h5" mb={4}>
                {dayName(d.day)}
              </Title>
              <Stack gap={4} component="ul" style={{ listStyle: "none", margin: 0, padding: 0 }}>
                {d.items.map((o) => (
                  <Group key={o.id} component="li" gap="xs" wrap="nowrap" align="flex-start">
                    <Text size="sm" w={48} style={{ flexShrink: 0 }}>
                      {o.all_day ? t("desk.calendar.allDay") : localTime(o.starts_at)}
                    </Text>
                    <Badge variant="light" color={o.source === "event" ? "blue" : "gray"} c="dark.7" style={{ flexShrink: 0 }}>
                      {t(`desk.calendar.kinds.${o.kind}`)}
                    </Badge>
                    <Text size="sm" style={{ overflowWrap: "anywhere" }}>
                      {o.title}
                    </Text>
                  </Group>
                ))}
              </Stack>
            </Paper>
          ))}
        </Stack>
      )}
      <Feed />
      {adding && <NewEvent zone={zone} onClose={() => setAdding(false)} />}
    </Page>
  );
}

function NewEvent({ zone, onClose }: { zone: string; onClose: () => void }) {
  const { t } = useTranslation();
  const queries = useQueryClient();
  const [title, setTitle] = useState("");
  const [kind, setKind] = useState<(typeof storedKinds)[number]>("viewing");
  const [day, setDay] = useState(isoDay());
  const [allDay, setAllDay] = useState(false);
  const [start, setStart] = useState("10:00");
  const [end, setEnd] = useState("11:00");
  const [shown, setShown] = useState(false);
  const bad = {
    title: title.trim() === "" ? t("desk.calendar.errors.title") : undefined,
    day: !/^\d{4}-\d{2}-\d{2}$/.test(day) ? t("desk.calendar.errors.day") : undefined,
    end: !allDay && end <= start ? t("desk.calendar.errors.end") : undefined,
  };
  const save = useMutation({
    mutationFn: () =>
      ok(
        api.POST("/api/v1/calendar-events", {
          body: {
            title: title.trim(),
            kind,
            all_day: allDay,
            time_zone: zone,
            starts_at: eventStart(day, start, allDay, zone),
            ends_at: allDay ? day : eventStart(day, end, false, zone),
          },
        }),
      ),
    onSuccess: () => {
      void queries.invalidateQueries({ queryKey: ["desk", "calendar"] });
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} closeButtonProps={{ "aria-label": t("landlord.close") }} title={t("desk.calendar.new")}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          setShown(true);
          if (!bad.title && !bad.day && !bad.end) save.mutate();
        }}
      >
        <Stack>
          <TextInput label={t("desk.calendar.eventTitle")} required maxLength={200} value={title} onChange={(e) => setTitle(e.currentTarget.value)} error={shown && bad.title} />
          <NativeSelect label={t("desk.calendar.kind")} value={kind} onChange={(e) => setKind(e.currentTarget.value as typeof kind)} data={storedKinds.map((k) => ({ value: k, label: t(`desk.calendar.kinds.${k}`) }))} />
          <TextInput type="date" label={t("desk.calendar.day")} required value={day} onChange={(e) => setDay(e.currentTarget.value)} error={shown && bad.day} />
          <Checkbox label={t("desk.calendar.allDay")} checked={allDay} onChange={(e) => setAllDay(e.currentTarget.checked)} />
          {!allDay && (
            <Group grow>
              <TextInput type="time" label={t("desk.calendar.start")} value={start} onChange={(e) => setStart(e.currentTarget.value)} />
              <TextInput type="time" label={t("desk.calendar.end")} value={end} onChange={(e) => setEnd(e.currentTarget.value)} error={shown && bad.end} />
            </Group>
          )}
          <Text size="xs" c="dimmed">
            {t("desk.calendar.zone", { zone })}
          </Text>
          <Failure error={save.error} />
          <Button type="submit" loading={save.isPending} w="fit-content">
            {t("landlord.save")}
          </Button>
        </Stack>
      </form>
    </Modal>
  );
}

// The member's secret feed address: made on request and shown once (the
// API keeps only its hash); a new one ends the previous one.
function Feed() {
  const { t } = useTranslation();
  const make = useMutation({ mutationFn: () => ok(api.POST("/api/v1/calendar/feed-token")) });
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="feed-title">
      <Stack gap="xs">
        <Title order={2} size="h4" id="feed-title">
          {t("desk.calendar.feed")}
        </Title>
        <Text size="sm">{t("desk.calendar.feedHint")}</Text>
        {make.data ? (
          <Group align="flex-end" gap="xs" wrap="wrap">
            <TextInput label={t("desk.calendar.feedUrl")} value={make.data.url} readOnly style={{ flex: 1 }} miw={220} onFocus={(e) => e.currentTarget.select()} />
            <CopyButton value={make.data.url}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? t("desk.copied") : t("desk.copy")}
                </Button>
              )}
            </CopyButton>
          </Group>
        ) : null}
        <Failure error={make.error} />
        <Button variant="default" w="fit-content" loading={make.isPending} onClick={() => make.mutate()}>
          {make.data ? t("desk.calendar.feedAgain") : t("desk.calendar.feedMake")}
        </Button>
      </Stack>
    </Paper>
  );
}
