package tracking

import "strings"

// countries are the ISO 3166-1 alpha-2 codes in use: the last two letters
// of an S10 number are one of them (UPU S10, section 5).
const countries = "AD AE AF AG AI AL AM AO AQ AR AS AT AU AW AX AZ BA BB BD BE BF BG BH BI BJ BL BM BN BO BQ BR BS BT BV BW BY BZ " +
	"CA CC CD CF CG CH CI CK CL CM CN CO CR CU CV CW CX CY CZ DE DJ DK DM DO DZ EC EE EG EH ER ES ET FI FJ FK FM FO FR " +
	"GA GB GD GE GF GG GH GI GL GM GN GP GQ GR GS GT GU GW GY HK HM HN HR HT HU ID IE IL IM IN IO IQ IR IS IT JE JM JO JP " +
	"KE KG KH KI KM KN KP KR KW KY KZ LA LB LC LI LK LR LS LT LU LV LY MA MC MD ME MF MG MH MK ML MM MN MO MP MQ MR MS MT MU MV MW MX MY MZ " +
	"NA NC NE NF NG NI NL NO NP NR NU NZ OM PA PE PF PG PH PK PL PM PN PR PS PT PW PY QA RE RO RS RU RW " +
	"SA SB SC SD SE SG SH SI SJ SK SL SM SN SO SR SS ST SV SX SY SZ TC TD TF TG TH TJ TK TL TM TN TO TR TT TV TW TZ " +
	"UA UG UM US UY UZ VA VC VE VG VI VN VU WF WS YE YT ZA ZM ZW"

func isCountry(code string) bool {
	return len(code) == 2 && strings.Contains(countries, code)
}

type post struct{ name, url string }

// posts are the national posts whose public tracking page takes the number
// in its address ({n}). A country not listed still gets its carrier and
// country, without a URL.
var posts = map[string]post{
	"AT": {"Österreichische Post", "https://www.post.at/s/sendungssuche?snr={n}"},
	"AU": {"Australia Post", "https://auspost.com.au/mypost/track/details/{n}"},
	"BE": {"bpost", "https://track.bpost.cloud/btr/web/#/search?itemCode={n}&lang=en"},
	"CA": {"Canada Post", "https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor={n}"},
	"CH": {"Swiss Post", "https://service.post.ch/ekp-web/ui/entry/search/{n}"},
	"CZ": {"Česká pošta", "https://www.postaonline.cz/trackandtrace/-/zasilka/cislo?parcelNumbers={n}"},
	"DE": {"Deutsche Post", "https://www.deutschepost.de/de/s/sendungsverfolgung.html?piececode={n}"},
	"DK": {"PostNord", "https://tracking.postnord.com/dk/?id={n}"},
	"ES": {"Correos", "https://www.correos.es/es/es/herramientas/localizador/envios/detalle?tracking-number={n}"},
	"FI": {"Posti", "https://www.posti.fi/en/tracking#/lahetys/{n}"},
	"FR": {"La Poste", "https://www.laposte.fr/outils/suivre-vos-envois?code={n}"},
	"GB": {"Royal Mail", "https://www.royalmail.com/track-your-item#/tracking-results/{n}"},
	"IE": {"An Post", "https://www.anpost.com/Post-Parcels/Track/History?item={n}"},
	"IT": {"Poste Italiane", "https://www.poste.it/cerca/index.html#/risultati-spedizioni/{n}"},
	"JP": {"Japan Post", "https://trackings.post.japanpost.jp/services/srv/search/direct?reqCodeNo1={n}&locale=en"},
	"LU": {"POST Luxembourg", "https://www.post.lu/en/particuliers/colis-courrier/track-and-trace#/search?code={n}"},
	"NL": {"PostNL", "https://jouw.postnl.nl/track-and-trace/{n}"},
	"NO": {"Posten", "https://sporing.posten.no/sporing/{n}"},
	"PL": {"Poczta Polska", "https://emonitoring.poczta-polska.pl/?numer={n}"},
	"PT": {"CTT", "https://appserver.ctt.pt/CustomerArea/PublicArea_Detail?ObjectCodeInput={n}&SearchInput={n}"},
	"SE": {"PostNord", "https://tracking.postnord.com/se/?id={n}"},
	"UA": {"Ukrposhta", "https://track.ukrposhta.ua/tracking_UA.html?barcode={n}"},
	"US": {"USPS", "https://tools.usps.com/go/TrackConfirmAction?tLabels={n}"},
}
