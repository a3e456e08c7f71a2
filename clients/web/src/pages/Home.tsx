import { Button, Stack, Text, Title } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, Navigate } from "react-router";
import { api, ok } from "../api/client";
import { useToken } from "../hooks";
import { Failure, Loading } from "./common";

export function Home() {
  const { t } = useTranslation();
  const token = useToken();
  const me = useQuery({
    queryKey: ["me", token],
    queryFn: () => ok(api.GET("/api/v1/auth/me")),
    enabled: !!token,
  });
  if (!token) return <Navigate to="/sign-in" replace />;
  if (me.isPending) return <Loading />;
  if (me.error) return <Failure error={me.error} />;
  return (
    <Stack>
      <Title order={1}>{t("signIn.welcome", { name: me.data.name })}</Title>
      <Button component={Link} to="/portal" variant="light" w="fit-content">
        {t("portal.open")}
      </Button>
      <Text>{t("signIn.next")}</Text>
    </Stack>
  );
}
