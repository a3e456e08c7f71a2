import { useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";
import { errorMessage } from "./api/errors";
import { getToken, subscribe } from "./session";

export function useToken(): string | null {
  return useSyncExternalStore(subscribe, getToken, getToken);
}

// The sentence for an error of the API in the reader's language.
export function useErrorText(): (err: unknown) => string {
  const { t, i18n } = useTranslation();
  return (err) => errorMessage(err, (k, o) => t(k, o) as string, (k) => i18n.exists(k));
}
