import type { RouteObject } from "react-router";

// The office's pages, each its own chunk loaded on its first visit: the
// first page carries none of them, and only the reports carry the charts.
export const officeRoutes: RouteObject[] = [
  { path: "/app/bank", lazy: async () => ({ Component: (await import("./Bank")).BankPage }) },
  { path: "/app/reports", lazy: async () => ({ Component: (await import("./Reports")).ReportsPage }) },
  { path: "/app/opcosts", lazy: async () => ({ Component: (await import("./Opcosts")).OpcostsPage }) },
  { path: "/app/repairs", lazy: async () => ({ Component: (await import("./Repairs")).RepairsPage }) },
  { path: "/app/repairs/:propertyId/:requestId", lazy: async () => ({ Component: (await import("./Repairs")).RepairPage }) },
  { path: "/app/opcosts/:buildingId", lazy: async () => ({ Component: (await import("./Opcosts")).OpcostBuildingPage }) },
];
