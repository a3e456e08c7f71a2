import { Anchor, Box, Button, Container, Group, NativeSelect } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, Outlet, useLocation, useNavigate } from "react-router";
import { useQueryClient } from "@tanstack/react-query";
import { languages } from "./i18n";
import { useToken } from "./hooks";
import { setToken } from "./session";
import { landlordNav, inShell } from "./landlord/nav";
import { Shell } from "./landlord/Shell";
import { setWorkspace } from "./landlord/workspace";
import { officeNav } from "./office/nav";
import { deskNav } from "./desk/nav";

const names: Record<string, string> = { de: "Deutsch", en: "English", fr: "Français", es: "Español", uk: "Українська" };

export function Layout() {
  const { t, i18n } = useTranslation();
  const token = useToken();
  const queries = useQueryClient();
  const here = useLocation();
  const navigate = useNavigate();
  // The landlord's, the office's and the desk's entries (issue 49, slices 3 and 4).
  const nav = [...landlordNav, ...officeNav.map((o) => ({ to: o.path, label: o.labelKey })), ...deskNav];
  const tools = (
    <>
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
            setWorkspace(null);
            queries.clear();
            // Out of the landlord's pages: they need a signed-in user.
            if (inShell(here.pathname, nav)) void navigate("/sign-in");
          }}
        >
          {t("app.signOut")}
        </Button>
      )}
    </>
  );
  if (token && inShell(here.pathname, nav)) {
    return (
      <Shell nav={nav} tools={tools}>
        <Outlet />
      </Shell>
    );
  }
  return (
    <>
      <Box component="header" px="md" py="xs" style={{ borderBottom: "1px solid var(--mantine-color-gray-3)" }}>
        <Group justify="space-between" wrap="nowrap">
          <Anchor component={Link} to="/" fw={700} c="blue.9">
            {t("app.name")}
          </Anchor>
          <Group gap="xs" wrap="nowrap">
            {tools}
          </Group>
        </Group>
      </Box>
      <Container component="main" size="sm" py="lg" px="md">
        <Outlet />
      </Container>
    </>
  );
}
