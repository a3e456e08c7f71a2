import { createBrowserRouter } from "react-router";
import { Layout } from "./Layout";
import { AcceptTenancy, AcceptWorkspace } from "./pages/Invitations";
import { Home } from "./pages/Home";
import { Listing } from "./pages/Listing";
import { Negotiation } from "./pages/Negotiation";
import { NotFound } from "./pages/NotFound";
import { OIDC } from "./pages/OIDC";
import { Register } from "./pages/Register";
import { SignIn } from "./pages/SignIn";
import { WorkOrder } from "./pages/WorkOrder";
import { landlordRoutes } from "./landlord/routes";
import { officeRoutes } from "./office/routes";
import { deskRoutes } from "./desk/routes";

type PortalPage = keyof typeof import("./portal/Portal");
const portal = (name: PortalPage) => async () => ({ Component: (await import("./portal/Portal"))[name] });

// Every path a mail links to is here (the Go side builds those links from
// http.publicurl): /accept-invitation, /tenancy/accept, /negotiations/:token,
// /work-orders/:token; /listings/:slug is the published listing; /auth/oidc
// is where a single sign-on provider's callback lands.
export const router = createBrowserRouter([
  {
    element: <Layout />,
    children: [
      { path: "/", element: <Home /> },
      { path: "/sign-in", element: <SignIn /> },
      { path: "/register", element: <Register /> },
      { path: "/auth/oidc", element: <OIDC /> },
      { path: "/accept-invitation", element: <AcceptWorkspace /> },
      { path: "/tenancy/accept", element: <AcceptTenancy /> },
      { path: "/listings/:slug", element: <Listing /> },
      { path: "/negotiations/:token", element: <Negotiation /> },
      { path: "/work-orders/:token", element: <WorkOrder /> },
      // The tenant portal, loaded on its first visit only: the first page
      // (sign-in, a mailed link) does not carry its code.
      { path: "/portal", lazy: portal("PortalHome") },
      { path: "/portal/:contractId", lazy: portal("PortalContract") },
      { path: "/portal/:contractId/charges", lazy: portal("PortalCharges") },
      { path: "/portal/:contractId/receipts", lazy: portal("PortalReceipts") },
      { path: "/portal/:contractId/documents", lazy: portal("PortalDocuments") },
      { path: "/portal/:contractId/messages", lazy: portal("PortalMessages") },
      { path: "/portal/:contractId/meters", lazy: portal("PortalMeters") },
      { path: "/portal/:contractId/repairs", lazy: portal("PortalRepairs") },
      ...landlordRoutes,
      ...officeRoutes,
      ...deskRoutes,
      { path: "*", element: <NotFound /> },
    ],
  },
]);
