import type { RouteObject } from "react-router";

// The desk's pages (books, calendar, letting, team, settings), each loaded on its
// first visit: the first page carries none of their code or words.
export const deskRoutes: RouteObject[] = [
  { path: "/app/books", lazy: async () => ({ Component: (await import("./Books")).BooksPage }) },
  { path: "/app/books/accounts/:accountId", lazy: async () => ({ Component: (await import("./Books")).AccountPage }) },
  { path: "/app/calendar", lazy: async () => ({ Component: (await import("./Calendar")).CalendarPage }) },
  { path: "/app/letting", lazy: async () => ({ Component: (await import("./Letting")).LettingPage }) },
  { path: "/app/letting/:propertyId/:proposalId", lazy: async () => ({ Component: (await import("./Letting")).ListingPage }) },
  { path: "/app/team", lazy: async () => ({ Component: (await import("./Team")).TeamPage }) },
  { path: "/app/settings", lazy: async () => ({ Component: (await import("./Team")).SettingsPage }) },
];
