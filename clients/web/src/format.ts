// Numbers, amounts and dates in the reader's language, through Intl: the
// API sends amounts as JSON numbers with two decimals and dates as ISO
// strings.

// The app's language code as Intl's locale: Ukrainian is formatted as in
// Ukraine (uk-UA); the others by their language alone.
export function intlLocale(lng: string): string {
  return lng === "uk" ? "uk-UA" : lng;
}

export function formatMoney(amount: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(intlLocale(locale), { style: "currency", currency }).format(amount);
}

export function formatNumber(value: number, locale: string): string {
  return new Intl.NumberFormat(intlLocale(locale)).format(value);
}

// A calendar date (YYYY-MM-DD) is the same day everywhere: formatted in UTC
// so that no time zone moves it to the day before.
export function formatDate(isoDate: string, locale: string): string {
  const d = new Date(isoDate.length === 10 ? isoDate + "T00:00:00Z" : isoDate);
  if (Number.isNaN(d.getTime())) return isoDate;
  return new Intl.DateTimeFormat(intlLocale(locale), {
    dateStyle: "medium",
    timeZone: isoDate.length === 10 ? "UTC" : undefined,
  }).format(d);
}

export function formatDateTime(iso: string, locale: string, timeZone?: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(intlLocale(locale), { dateStyle: "medium", timeStyle: "short", timeZone }).format(d);
}
