import type { NavItem } from "../landlord/nav";

// The desk's entries in the landlord's navigation, after the office's
// (Layout); `label` is a key of the locale files.
export const deskNav: NavItem[] = [
  { to: "/app/books", label: "desk.nav.books" },
  { to: "/app/calendar", label: "desk.nav.calendar" },
  { to: "/app/letting", label: "desk.nav.letting" },
  { to: "/app/team", label: "desk.nav.team" },
  { to: "/app/settings", label: "desk.nav.settings" },
];
