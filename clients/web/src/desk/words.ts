// The desk's words, added to the catalogue when its chunk loads: the
// first page carries only their navigation (vite.config.ts).
import i18n from "../i18n";
import { desk as de } from "../locales/de.json";
import { desk as en } from "../locales/en.json";
import { desk as es } from "../locales/es.json";
import { desk as fr } from "../locales/fr.json";
import { desk as uk } from "../locales/uk.json";

for (const [lng, words] of Object.entries({ de, en, es, fr, uk })) i18n.addResourceBundle(lng, "translation", { desk: words }, true, true);
