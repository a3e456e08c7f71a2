// The landlord's navigation (the shell in Layout renders it, followed by
// the office's entries). `label` is a key of the locale files.
export interface NavItem {
  to: string;
  label: string;
}

export const landlordNav: NavItem[] = [
  { to: "/app", label: "landlord.nav.dashboard" },
  { to: "/app/properties", label: "landlord.nav.properties" },
  { to: "/app/buildings", label: "landlord.nav.buildings" },
  { to: "/app/tenants", label: "landlord.nav.tenants" },
  { to: "/app/contracts", label: "landlord.nav.contracts" },
];

// Where the shell (navigation, workspace) frames the page: every landlord
// path is under /app, and any path a navigation entry names.
export function inShell(path: string, nav: NavItem[]): boolean {
  return path === "/app" || path.startsWith("/app/") || nav.some((n) => path === n.to || path.startsWith(n.to + "/"));
}

// The entry a path belongs to: the longest `to` that prefixes it.
export function activeEntry(path: string, nav: NavItem[]): string | undefined {
  return nav
    .filter((n) => path === n.to || path.startsWith(n.to + "/"))
    .sort((a, b) => b.to.length - a.to.length)[0]?.to;
}
