import type { RouteObject } from "react-router";

// The landlord's pages (issue 49, slice 3), each loaded on its first visit:
// the first page (sign-in, a mailed link) carries none of their code.
const page =
  <M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) =>
  async () => ({ Component: (await load())[name] as React.ComponentType });

const dashboard = () => import("./Dashboard");
const properties = () => import("./Properties");
const buildings = () => import("./Buildings");
const tenants = () => import("./Tenants");
const contracts = () => import("./Contracts");

export const landlordRoutes: RouteObject[] = [
  { path: "/app", lazy: page(dashboard, "Dashboard") },
  { path: "/app/properties", lazy: page(properties, "PropertyList") },
  { path: "/app/properties/new", lazy: page(properties, "PropertyNew") },
  { path: "/app/properties/:propertyId", lazy: page(properties, "PropertyPage") },
  { path: "/app/buildings", lazy: page(buildings, "BuildingList") },
  { path: "/app/buildings/:buildingId", lazy: page(buildings, "BuildingPage") },
  { path: "/app/tenants", lazy: page(tenants, "TenantList") },
  { path: "/app/tenants/new", lazy: page(tenants, "TenantNew") },
  { path: "/app/tenants/:tenantId", lazy: page(tenants, "TenantPage") },
  { path: "/app/contracts", lazy: page(contracts, "ContractList") },
  { path: "/app/contracts/new", lazy: page(contracts, "ContractNew") },
  { path: "/app/contracts/:contractId", lazy: page(contracts, "ContractPage") },
];
