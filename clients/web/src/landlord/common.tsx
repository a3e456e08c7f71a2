// What the landlord's pages share: the signed-in check, keyset paging with
// "load more", file downloads behind the bearer token, amounts and dates
// in the reader's language.
import { Anchor, Badge, Button, Group, NumberInput, Stack, Table, Text, Title, VisuallyHidden, type NumberInputProps } from "@mantine/core";
import { useInfiniteQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useLocation } from "react-router";
import type { components } from "../../../typescript/src/schema";
import { ok } from "../api/client";
import { ApiError } from "../api/errors";
import { formatDate, formatMoney, intlLocale } from "../format";
import { useToken } from "../hooks";
import { Failure, Loading } from "../pages/common";
import { filenameOf } from "../portal/logic";
import "./words";

export type S = components["schemas"];
export { Failure, Loading };

// A list route answers CSV too (?format=csv); these pages ask for JSON.
export function json<T>(x: T | string): T {
  if (typeof x === "string") throw new ApiError(0, "unexpected", "");
  return x;
}

export function useLng(): string {
  const { i18n } = useTranslation();
  return i18n.resolvedLanguage ?? "en";
}

export function useFormat() {
  const lng = useLng();
  return {
    lng,
    money: (n: number | null | undefined, currency: string) => (n == null ? "–" : formatMoney(n, currency, lng)),
    date: (d: string | null | undefined) => (d ? formatDate(d, lng) : "–"),
  };
}

export function SignedIn({ children }: { children: ReactNode }) {
  const token = useToken();
  const here = useLocation();
  if (!token) return <Navigate to={`/sign-in?next=${encodeURIComponent(here.pathname + here.search)}`} replace />;
  return <>{children}</>;
}

// A page: its heading, an optional way back, actions beside the heading.
export function Page({ title, back, actions, children }: { title: string; back?: { to: string; label: string }; actions?: ReactNode; children: ReactNode }) {
  return (
    <SignedIn>
      <Stack maw={1100}>
        {back && (
          <Anchor component={Link} to={back.to} size="sm">
            ← {back.label}
          </Anchor>
        )}
        <Group justify="space-between" align="flex-end">
          <Title order={1}>{title}</Title>
          {actions && <Group gap="xs">{actions}</Group>}
        </Group>
        {children}
      </Stack>
    </SignedIn>
  );
}

// The API's keyset pages, one more on request ("load more"): a list of
// hundreds of rows renders a page at a time.
export function usePaged<T>(key: unknown[], page: (after: string | undefined) => Promise<{ items: T[]; next: string | null }>, enabled = true) {
  const q = useInfiniteQuery({
    queryKey: key,
    queryFn: ({ pageParam }) => page(pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled,
  });
  return { ...q, items: q.data?.pages.flatMap((p) => p.items) ?? [] };
}

export function More({ list }: { list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown } }) {
  const { t } = useTranslation();
  if (!list.hasNextPage) return null;
  return (
    <Button variant="default" w="fit-content" onClick={() => void list.fetchNextPage()} loading={list.isFetchingNextPage}>
      {t("landlord.more")}
    </Button>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <Text c="dimmed">{children}</Text>;
}

// A table with its column headers; `caption` names it for a screen reader.
export function Grid({ caption, head, children }: { caption: string; head: string[]; children: ReactNode }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table striped highlightOnHover verticalSpacing="xs">
        <Table.Caption>
          <VisuallyHidden>{caption}</VisuallyHidden>
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {head.map((h) => (
              <Table.Th key={h} scope="col">
                {h}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>{children}</Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const colors: Record<string, string> = {
  draft: "gray", active: "green", ending: "orange", terminated: "gray", ended: "gray",
  unpaid: "red", partially_paid: "orange", paid: "green", cancelled: "gray", posted: "green", reversed: "gray", issued: "green", void: "gray",
};

// A state as a tinted badge with dark text (Mantine's tinted text misses
// WCAG AA's contrast at badge size).
export function State({ kind, value }: { kind: string; value: string }) {
  const { t } = useTranslation();
  return (
    <Badge color={colors[value] ?? "gray"} variant="light" c="dark.7">
      {t(`landlord.${kind}.${value}`)}
    </Badge>
  );
}

// A file of the API behind the bearer token: fetched, then saved under the
// server's name. The token never goes into a URL.
export async function download(call: Promise<{ data?: unknown; error?: unknown; response: Response }>, fallback: string) {
  const res = await call;
  const blob = (await ok(Promise.resolve(res))) as Blob;
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = filenameOf(res.response.headers.get("Content-Disposition"), fallback);
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

// Today in the reader's calendar, and a day some days from it (YYYY-MM-DD).
export function isoDay(offsetDays = 0, now = new Date()): string {
  const d = new Date(now.getFullYear(), now.getMonth(), now.getDate() + offsetDays);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
}

// A number typed as the reader writes it: "950,50" in German is 950.5,
// not 95050 (Mantine's default separator is the point).
export function Num(props: NumberInputProps) {
  const lng = useLng();
  const decimal = new Intl.NumberFormat(intlLocale(lng)).formatToParts(1.5).find((p) => p.type === "decimal")?.value ?? ".";
  return <NumberInput decimalSeparator={decimal} {...props} />;
}
