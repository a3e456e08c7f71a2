import { Anchor, Box, Button, Container, Group, NativeSelect } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, Outlet } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { languages } from "./i18n";
import { useToken } from "./hooks";
import { setToken } from "./session";

const names: Record<string, string> = { de: "Deutsch", en: "English", fr: "Français", es: "Español", uk: "Українська" };

export function Layout() {
  const { t, i18n } = useTranslation();
  const token = useToken();
  const queries = useQueryClient();
  return (
    <>
      <Box component="header" px="md" py="xs" style={{ borderBottom: "1px solid var(--mantine-color-gray-3)" }}>
        <Group justify="space-between" wrap="nowrap">
          <Anchor component={Link} to="/" fw={700} c="blue.9">
            {t("app.name")}
          </Anchor>
          <Group gap="xs" wrap="nowrap">
            <NativeSelect
              aria-label={t("app.language")}
              size="xs"
              value={i18n.resolvedLanguage}
              onChange={(e) => void i18n.changeLanguage(e.currentTarget.value)}
              data={languages.map((l) => ({ value: l, label: names[l] }))}
            />
            {token && (
              <Button
                size="xs"
                variant="default"
                onClick={() => {
                  setToken(null);
                  queries.clear();
                }}
              >
                {t("app.signOut")}
              </Button>
            )}
          </Group>
        </Group>
      </Box>
      <Container component="main" size="sm" py="lg" px="md">
        <Outlet />
      </Container>
    </>
  );
}
