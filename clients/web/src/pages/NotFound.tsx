import { Anchor, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

export function NotFound() {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={1}>404</Title>
      <Text>{t("app.notFound")}</Text>
      <Anchor component={Link} to="/">
        {t("app.home")}
      </Anchor>
    </Stack>
  );
}
