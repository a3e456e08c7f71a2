import i18n from "i18next";
import LanguageDetector from "i18next-browser-languagedetector";
import { initReactI18next } from "react-i18next";
import de from "./locales/de.json?first";
import en from "./locales/en.json?first";
import es from "./locales/es.json?first";
import fr from "./locales/fr.json?first";
import uk from "./locales/uk.json?first";
// ?first: without the landlord screens' words (vite.config.ts), which
// src/landlord/words.ts adds when their chunk loads.

export const languages = ["de", "en", "fr", "es", "uk"] as const;
export type Language = (typeof languages)[number];

// The language: ?lng= in the address (a mail's link may carry it), else
// the reader's earlier choice, else the browser's; English when none of
// them is one of the five.
void i18n
  .use(LanguageDetector)
  .use(initReactI18next)
  .init({
    resources: { de: { translation: de }, en: { translation: en }, fr: { translation: fr }, es: { translation: es }, uk: { translation: uk } },
    supportedLngs: [...languages],
    nonExplicitSupportedLngs: true,
    fallbackLng: "en",
    interpolation: { escapeValue: false },
    detection: { order: ["querystring", "localStorage", "navigator"], lookupQuerystring: "lng", caches: ["localStorage"] },
  });

i18n.on("languageChanged", (lng) => {
  if (typeof document !== "undefined") document.documentElement.lang = lng;
});

export default i18n;
