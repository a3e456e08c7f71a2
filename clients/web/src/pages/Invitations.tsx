import { Alert, Anchor, Button, Group, List, Stack, Text, Title } from "@mantine/core";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useLocation, useSearchParams } from "react-router";
import { api, ok } from "../api/client";
import { formatDate, formatMoney } from "../format";
import { useToken } from "../hooks";
import { Failure } from "./common";

// Both invitations need an account with the invited address; a reader who
// is not signed in signs in or registers and comes back here (next=).
function SignInFirst() {
  const { t } = useTranslation();
  const here = useLocation();
  const next = encodeURIComponent(here.pathname + here.search);
  return (
    <Stack>
      <Text>{t("invitation.signInFirst")}</Text>
      <Group>
        <Button component={Link} to={`/sign-in?next=${next}`}>
          {t("signIn.submit")}
        </Button>
        <Button component={Link} to={`/register?next=${next}`} variant="default">
          {t("signIn.register")}
        </Button>
      </Group>
    </Stack>
  );
}

// The link of the mail a workspace owner sends (modules/workspaces).
export function AcceptWorkspace() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get("token");
  const signedIn = !!useToken();
  const accept = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/invitations/{token}/accept", { params: { path: { token: token! } } })),
  });
  return (
    <Stack>
      <Title order={1}>{t("invitation.workspaceTitle")}</Title>
      <Text>{t("invitation.workspaceIntro")}</Text>
      {!token ? (
        <Alert color="red" role="alert">{t("invitation.noToken")}</Alert>
      ) : !signedIn ? (
        <SignInFirst />
      ) : accept.isSuccess ? (
        <Alert color="green" role="status">
          {t("invitation.joined", { name: accept.data.name })}
        </Alert>
      ) : (
        <>
          <Failure error={accept.error} />
          <Button onClick={() => accept.mutate()} loading={accept.isPending}>
            {t("invitation.accept")}
          </Button>
        </>
      )}
    </Stack>
  );
}

// The link of the tenant portal's invitation (modules/tenancy).
export function AcceptTenancy() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get("token");
  const signedIn = !!useToken();
  const accept = useMutation({
    mutationFn: () => ok(api.POST("/api/v1/tenancy/invitations/{token}/accept", { params: { path: { token: token! } } })),
  });
  return (
    <Stack>
      <Title order={1}>{t("invitation.tenancyTitle")}</Title>
      <Text>{t("invitation.tenancyIntro")}</Text>
      {!token ? (
        <Alert color="red" role="alert">{t("invitation.noToken")}</Alert>
      ) : !signedIn ? (
        <SignInFirst />
      ) : accept.isSuccess ? (
        <>
          <Alert color="green" role="status">{t("invitation.tenancyDone")}</Alert>
          <TenantContracts />
        </>
      ) : (
        <>
          <Failure error={accept.error} />
          <Button onClick={() => accept.mutate()} loading={accept.isPending}>
            {t("invitation.accept")}
          </Button>
        </>
      )}
    </Stack>
  );
}

function TenantContracts() {
  const { t, i18n } = useTranslation();
  const lng = i18n.resolvedLanguage ?? "en";
  const contracts = useQuery({
    queryKey: ["tenancy", "contracts"],
    // Lists also answer CSV (?format=csv); this one asks for JSON.
    queryFn: async () => {
      const list = await ok(api.GET("/api/v1/tenancy/contracts"));
      return typeof list === "string" ? { contracts: [] } : list;
    },
  });
  if (contracts.error) return <Failure error={contracts.error} />;
  if (!contracts.data || contracts.data.contracts.length === 0) return null;
  return (
    <Stack gap="xs">
      <Title order={2} size="h3">
        {t("invitation.contracts")}
      </Title>
      <List>
        {contracts.data.contracts.map((c) => (
          <List.Item key={c.id}>
            <Anchor component={Link} to={`/portal/${c.id}`}>
              {t("invitation.contract", { number: c.number })}
            </Anchor>
            {c.start_date && <>, {t("invitation.from", { date: formatDate(c.start_date, lng) })}</>}
            {c.rent !== null && <>, {t("invitation.rent", { amount: formatMoney(c.rent, c.currency, lng) })}</>}
          </List.Item>
        ))}
      </List>
      <Anchor component={Link} to="/portal">
        {t("portal.open")}
      </Anchor>
    </Stack>
  );
}
