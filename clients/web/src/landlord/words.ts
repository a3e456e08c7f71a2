// The landlord screens' words, added to the catalogue when their chunk
// loads: the first page carries only their navigation (vite.config.ts).
import i18n from "../i18n";
import { landlord as de } from "../locales/de.json";
import { landlord as en } from "../locales/en.json";
import { landlord as es } from "../locales/es.json";
import { landlord as fr } from "../locales/fr.json";
import { landlord as uk } from "../locales/uk.json";

for (const [lng, words] of Object.entries({ de, en, es, fr, uk })) i18n.addResourceBundle(lng, "translation", { landlord: words }, true, true);
