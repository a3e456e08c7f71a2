import "@mantine/core/styles.css";
import { MantineProvider, createTheme, type CSSVariablesResolver } from "@mantine/core";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import "./i18n";
import { keepRenewed } from "./api/client";
import { router } from "./routes";

// The API's answers are the truth: a failed read is not retried blindly
// (a 404 of a mailed link stays a 404), and 4xx answers are never retried.
const queryClient = new QueryClient({ defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } } });

// Darker blue than Mantine's default, for WCAG AA contrast of white text.
const theme = createTheme({ primaryColor: "blue", primaryShade: 8 });

// Mantine's dimmed grey (descriptions, hints) is 3.3:1 on white; WCAG AA
// asks 4.5:1 of text, which gray.7 gives.
const contrast: CSSVariablesResolver = () => ({
  variables: {},
  light: { "--mantine-color-dimmed": "var(--mantine-color-gray-7)" },
  dark: {},
});

// The token is renewed shortly before it expires.
keepRenewed();

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={contrast}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
