// The office's entries in the landlord's navigation (Layout renders
// [...landlordNav, ...officeNav]); labelKey is a key of the locales.
export interface NavEntry {
  path: string;
  labelKey: string;
  icon?: string;
}

export const officeNav: NavEntry[] = [
  { path: "/app/bank", labelKey: "office.nav.bank" },
  { path: "/app/reports", labelKey: "office.nav.reports" },
  { path: "/app/opcosts", labelKey: "office.nav.opcosts" },
  { path: "/app/repairs", labelKey: "office.nav.repairs" },
];
