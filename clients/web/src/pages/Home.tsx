import { useQuery } from "@tanstack/react-query";
import { Navigate } from "react-router";
import { api, ok } from "../api/client";
import { useToken } from "../hooks";
import { homeOf } from "../landlord/home";
import { Failure, Loading } from "./common";

// `/`: sign-in when signed out; else the landlord's dashboard or, for a
// tenant, the portal (landlord/home.ts).
export function Home() {
  const token = useToken();
  const where = useQuery({
    queryKey: ["home", token],
    queryFn: async () => {
      const [tenancies, properties] = await Promise.all([
        ok(api.GET("/api/v1/tenancy/contracts", { params: { query: { per_page: 1 } } })),
        ok(api.GET("/api/v1/properties", { params: { query: { per_page: 1 } } })),
      ]);
      const count = (x: unknown, key: string) => (typeof x === "object" && x ? ((x as Record<string, unknown[]>)[key]?.length ?? 0) : 0);
      return homeOf(count(tenancies, "contracts"), count(properties, "properties"));
    },
    enabled: !!token,
  });
  if (!token) return <Navigate to="/sign-in" replace />;
  if (where.isPending) return <Loading />;
  if (where.error) return <Failure error={where.error} />;
  return <Navigate to={where.data} replace />;
}
