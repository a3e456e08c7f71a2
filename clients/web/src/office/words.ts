// The office screens' words, added to the catalogue when their chunk
// loads: the first page carries only their navigation (vite.config.ts).
import i18n from "../i18n";
import { office as de } from "../locales/de.json";
import { office as en } from "../locales/en.json";
import { office as es } from "../locales/es.json";
import { office as fr } from "../locales/fr.json";
import { office as uk } from "../locales/uk.json";

for (const [lng, words] of Object.entries({ de, en, es, fr, uk })) i18n.addResourceBundle(lng, "translation", { office: words }, true, true);
