// Where `/` sends a signed-in user: a tenant (contracts in the portal and
// no property of their own) to the portal, everyone else (a landlord, a
// team member, a new account) to the landlord's dashboard.
export function homeOf(tenancies: number, properties: number): "/portal" | "/app" {
  return tenancies > 0 && properties === 0 ? "/portal" : "/app";
}
