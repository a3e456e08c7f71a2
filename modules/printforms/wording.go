package printforms

import (
	"strconv"
	"strings"
)

// clause is the lease wording of one agreement block in one language:
// Value for an int, float, date or text block, Yes and No for a bool
// block. The wording is what the parties sign; the block's description in
// the catalogue is our guidance to the landlord and never goes into the
// document.
//
// Placeholders: {value} is the term's value formatted for the locale (an
// amount with its currency, a date, a number, the text as typed),
// {deposit} the contract's deposit as an amount (the parenthesis around it
// is left out when the contract has none), and {n:one|other} (uk:
// {n:one|few|many}) the form of a noun that agrees with the term's
// integer value.
type clause struct{ Value, Yes, No string }

// wording is the lease wording of every block of the catalogue
// (modules/agreements/catalog/blocks.json) in every supported locale. A
// block without wording (one an administrator imported) is printed as
// "<name>: <value>."; a locale without wording falls back to English.
var wording = map[string]map[string]clause{
	"MONTHLY_RENT_AMOUNT": {
		"en": {Value: "The monthly rent is {value}."},
		"de": {Value: "Die monatliche Miete beträgt {value}."},
		"fr": {Value: "Le loyer mensuel est fixé à {value}."},
		"es": {Value: "La renta mensual se fija en {value}."},
		"uk": {Value: "Розмір щомісячної плати за користування житлом становить {value}."},
	},
	"DEPOSIT_MONTHS": {
		"en": {Value: "The tenant provides a security deposit of {value} {n:month’s rent|months’ rent} ({deposit}). It secures all claims of the landlord arising from the tenancy and shall be repaid at the end of the tenancy, less any justified claims of the landlord."},
		"de": {Value: "Der Mieter leistet eine Mietsicherheit (Kaution) in Höhe von {value} {n:Monatsmiete|Monatsmieten} ({deposit}). Sie sichert alle Ansprüche des Vermieters aus dem Mietverhältnis und ist nach dessen Ende, abzüglich berechtigter Ansprüche des Vermieters, zurückzuzahlen."},
		"fr": {Value: "Le locataire verse un dépôt de garantie de {value} mois de loyer ({deposit}). Il garantit l’exécution des obligations du locataire et lui est restitué en fin de bail, déduction faite des sommes restant dues au bailleur et dûment justifiées."},
		"es": {Value: "El arrendatario entrega una fianza de {value} {n:mensualidad|mensualidades} de renta ({deposit}), que garantiza el cumplimiento de sus obligaciones y le será devuelta a la finalización del contrato, deducidas las cantidades que adeude justificadamente al arrendador."},
		"uk": {Value: "Наймач вносить гарантійний платіж у розмірі {value} {n:місячної плати|місячних плат|місячних плат} ({deposit}). Він забезпечує виконання зобов’язань наймача за договором і повертається після закінчення строку найму за вирахуванням обґрунтованих вимог наймодавця."},
	},
	"DEPOSIT_AMOUNT": {
		"en": {Value: "The tenant provides a security deposit of {value}. It secures all claims of the landlord arising from the tenancy and shall be repaid at the end of the tenancy, less any justified claims of the landlord."},
		"de": {Value: "Der Mieter leistet eine Mietsicherheit (Kaution) in Höhe von {value}. Sie sichert alle Ansprüche des Vermieters aus dem Mietverhältnis und ist nach dessen Ende, abzüglich berechtigter Ansprüche des Vermieters, zurückzuzahlen."},
		"fr": {Value: "Le locataire verse un dépôt de garantie de {value}. Il garantit l’exécution des obligations du locataire et lui est restitué en fin de bail, déduction faite des sommes restant dues au bailleur et dûment justifiées."},
		"es": {Value: "El arrendatario entrega una fianza de {value}, que garantiza el cumplimiento de sus obligaciones y le será devuelta a la finalización del contrato, deducidas las cantidades que adeude justificadamente al arrendador."},
		"uk": {Value: "Наймач вносить гарантійний платіж у розмірі {value}. Він забезпечує виконання зобов’язань наймача за договором і повертається після закінчення строку найму за вирахуванням обґрунтованих вимог наймодавця."},
	},
	"PAYMENT_DAY_OF_MONTH": {
		"en": {Value: "The rent is payable monthly in advance, no later than day {value} of each month."},
		"de": {Value: "Die Miete ist monatlich im Voraus, spätestens am {value}. Tag eines jeden Monats, zu zahlen."},
		"fr": {Value: "Le loyer est payable mensuellement et d’avance, au plus tard le {value} de chaque mois."},
		"es": {Value: "La renta se pagará por meses anticipados, a más tardar el día {value} de cada mes."},
		"uk": {Value: "Плата вноситься щомісяця наперед, не пізніше {value}-го числа кожного місяця."},
	},
	"CONTRACT_START_DATE": {
		"en": {Value: "The tenancy begins on {value}."},
		"de": {Value: "Das Mietverhältnis beginnt am {value}."},
		"fr": {Value: "Le bail prend effet le {value}."},
		"es": {Value: "El contrato entra en vigor el {value}."},
		"uk": {Value: "Строк найму починається {value}."},
	},
	"CONTRACT_END_DATE": {
		"en": {Value: "The tenancy is concluded for a fixed term and ends on {value}."},
		"de": {Value: "Das Mietverhältnis wird auf bestimmte Zeit geschlossen und endet am {value}."},
		"fr": {Value: "Le bail est conclu pour une durée déterminée et prend fin le {value}."},
		"es": {Value: "El contrato se celebra por un plazo determinado que finaliza el {value}."},
		"uk": {Value: "Договір укладено на визначений строк, який спливає {value}."},
	},
	"MINIMUM_LEASE_TERM_MONTHS": {
		"en": {Value: "Neither party may terminate the tenancy by ordinary notice for a period of {value} {n:month|months} from the start of the tenancy."},
		"de": {Value: "Die ordentliche Kündigung ist für beide Vertragsparteien für die Dauer von {value} {n:Monat|Monaten} ab Beginn des Mietverhältnisses ausgeschlossen."},
		"fr": {Value: "Aucune des parties ne peut résilier le bail par congé ordinaire pendant une durée de {value} mois à compter de sa prise d’effet."},
		"es": {Value: "Ninguna de las partes podrá resolver el contrato mediante preaviso ordinario durante un plazo de {value} {n:mes|meses} desde su entrada en vigor."},
		"uk": {Value: "Протягом {value} {n:місяця|місяців|місяців} з початку строку найму жодна зі сторін не може розірвати договір у звичайному порядку."},
	},
	"NOTICE_PERIOD_DAYS": {
		"en": {Value: "Either party may terminate the tenancy by written notice of {value} {n:day|days}, unless the law prescribes a period more favourable to the tenant."},
		"de": {Value: "Die Kündigung bedarf der Schriftform. Die Kündigungsfrist beträgt {value} {n:Tag|Tage}, soweit das Gesetz keine für den Mieter günstigere Frist zwingend vorschreibt."},
		"fr": {Value: "Chaque partie peut donner congé par écrit en respectant un préavis de {value} {n:jour|jours}, sous réserve des délais plus favorables au locataire imposés par la loi."},
		"es": {Value: "Cualquiera de las partes podrá poner fin al contrato mediante notificación escrita con una antelación de {value} {n:día|días}, sin perjuicio de los plazos más favorables al arrendatario que imponga la ley."},
		"uk": {Value: "Кожна зі сторін може розірвати договір, письмово попередивши іншу сторону не пізніше ніж за {value} {n:день|дні|днів}, якщо закон не встановлює сприятливішого для наймача строку."},
	},
	"UTILITIES_INCLUDED": {
		"en": {Yes: "The rent includes the costs of heating, water, electricity and other utilities.", No: "The costs of heating, water, electricity and other utilities are not included in the rent and are borne by the tenant in addition."},
		"de": {Yes: "Mit der Miete sind die Kosten für Heizung, Wasser, Strom und sonstige Nebenkosten abgegolten.", No: "Die Kosten für Heizung, Wasser, Strom und sonstige Nebenkosten sind in der Miete nicht enthalten und werden vom Mieter zusätzlich getragen."},
		"fr": {Yes: "Le loyer comprend les frais de chauffage, d’eau, d’électricité et les autres charges.", No: "Les frais de chauffage, d’eau, d’électricité et les autres charges ne sont pas compris dans le loyer et sont supportés en sus par le locataire."},
		"es": {Yes: "La renta incluye los gastos de calefacción, agua, electricidad y demás suministros.", No: "Los gastos de calefacción, agua, electricidad y demás suministros no están incluidos en la renta y corren a cargo del arrendatario."},
		"uk": {Yes: "Орендна плата включає витрати на опалення, водопостачання, електроенергію та інші комунальні послуги.", No: "Витрати на опалення, водопостачання, електроенергію та інші комунальні послуги не входять до орендної плати і сплачуються наймачем додатково."},
	},
	"UTILITY_PREPAYMENT_AMOUNT": {
		"en": {Value: "In addition to the rent, the tenant pays a monthly advance of {value} towards the operating and utility costs, which is settled against the actual costs in an annual statement."},
		"de": {Value: "Neben der Miete zahlt der Mieter auf die Betriebs- und Nebenkosten eine monatliche Vorauszahlung in Höhe von {value}, über die jährlich nach den tatsächlichen Kosten abgerechnet wird."},
		"fr": {Value: "En sus du loyer, le locataire verse chaque mois une provision sur charges de {value}, qui fait l’objet d’une régularisation annuelle sur la base des dépenses réelles."},
		"es": {Value: "Además de la renta, el arrendatario abona mensualmente un anticipo de {value} a cuenta de los gastos y suministros, que se liquidará anualmente según los gastos reales."},
		"uk": {Value: "Крім орендної плати, наймач щомісяця вносить авансовий платіж у розмірі {value} в рахунок експлуатаційних і комунальних витрат, остаточний розрахунок за якими здійснюється щороку за фактичними витратами."},
	},
	"LATE_FEE_PERCENTAGE": {
		"en": {Value: "If the rent is paid late, the tenant owes a late payment fee of {value} of the overdue amount, to the extent permitted by law."},
		"de": {Value: "Gerät der Mieter mit der Zahlung der Miete in Verzug, schuldet er, soweit gesetzlich zulässig, einen Verzugszuschlag in Höhe von {value} des rückständigen Betrags."},
		"fr": {Value: "En cas de retard de paiement du loyer, le locataire est redevable, dans la mesure permise par la loi, d’une pénalité de {value} du montant impayé."},
		"es": {Value: "En caso de retraso en el pago de la renta, el arrendatario abonará, en la medida en que la ley lo permita, un recargo del {value} de la cantidad adeudada."},
		"uk": {Value: "У разі прострочення внесення плати наймач сплачує пеню в розмірі {value} від простроченої суми, якщо це допускає закон."},
	},
	"LATE_FEE_ON_FINES": {
		"en": {Yes: "The late payment fee, or the statutory interest that replaces it, is also owed on a fine under this contract that is paid late.", No: "No late payment fee is charged on a fine under this contract that is paid late."},
		"de": {Yes: "Der Verzugszuschlag oder die an seine Stelle tretenden gesetzlichen Verzugszinsen sind auch auf eine verspätet gezahlte Vertragsstrafe aus diesem Vertrag geschuldet.", No: "Auf eine verspätet gezahlte Vertragsstrafe aus diesem Vertrag wird kein Verzugszuschlag berechnet."},
		"fr": {Yes: "La pénalité de retard, ou les intérêts légaux qui la remplacent, est également due sur une amende prévue au présent bail payée en retard.", No: "Aucune pénalité de retard n’est due sur une amende prévue au présent bail payée en retard."},
		"es": {Yes: "El recargo por demora, o los intereses legales que lo sustituyan, se devengará también sobre una multa prevista en este contrato que se pague con retraso.", No: "No se devengará recargo por demora sobre una multa prevista en este contrato que se pague con retraso."},
		"uk": {Yes: "Пеня за прострочення або встановлені законом проценти, що її замінюють, нараховуються також на штраф за цим договором, сплачений із простроченням.", No: "На штраф за цим договором, сплачений із простроченням, пеня не нараховується."},
	},
	"RENT_INDEXATION": {
		"en": {Yes: "The rent is adjusted periodically in line with the official price or rent index, within the limits set by law.", No: "The rent is not index-linked."},
		"de": {Yes: "Die Miete wird in den gesetzlichen Grenzen regelmäßig an die Entwicklung des amtlichen Preis- oder Mietindex angepasst.", No: "Eine Indexierung der Miete ist nicht vereinbart."},
		"fr": {Yes: "Le loyer est révisé périodiquement en fonction de l’indice officiel de référence, dans les limites fixées par la loi.", No: "Le loyer n’est pas indexé."},
		"es": {Yes: "La renta se actualizará periódicamente conforme al índice oficial de referencia, dentro de los límites legales.", No: "La renta no está sujeta a actualización."},
		"uk": {Yes: "Орендна плата періодично індексується відповідно до офіційного індексу цін або орендної плати в межах, установлених законом.", No: "Індексація орендної плати не передбачена."},
	},
	"PETS_ALLOWED": {
		"en": {Yes: "The tenant may keep pets in the property.", No: "The tenant may keep pets other than small animals only with the landlord’s prior written consent."},
		"de": {Yes: "Dem Mieter ist die Haltung von Haustieren gestattet.", No: "Die Haltung von Haustieren, ausgenommen Kleintiere, bedarf der vorherigen schriftlichen Zustimmung des Vermieters."},
		"fr": {Yes: "Le locataire est autorisé à détenir des animaux familiers dans le logement.", No: "Hormis les animaux familiers dont la loi autorise la détention, le locataire ne peut détenir d’animaux sans l’accord écrit préalable du bailleur ; les chiens d’attaque sont interdits."},
		"es": {Yes: "Se permite al arrendatario tener animales domésticos en la vivienda.", No: "El arrendatario no podrá tener animales domésticos en la vivienda sin el consentimiento previo y por escrito del arrendador."},
		"uk": {Yes: "Наймачеві дозволяється утримувати в житлі домашніх тварин.", No: "Утримання в житлі домашніх тварин допускається лише за попередньою письмовою згодою наймодавця."},
	},
	"SMOKING_ALLOWED": {
		"en": {Yes: "Smoking is permitted inside the property.", No: "Smoking is not permitted inside the property."},
		"de": {Yes: "Das Rauchen in den Mieträumen ist gestattet.", No: "Das Rauchen in den Mieträumen ist nicht gestattet."},
		"fr": {Yes: "Il est permis de fumer à l’intérieur du logement.", No: "Il est interdit de fumer à l’intérieur du logement."},
		"es": {Yes: "Se permite fumar en el interior de la vivienda.", No: "No se permite fumar en el interior de la vivienda."},
		"uk": {Yes: "Куріння в житлі дозволяється.", No: "Куріння в житлі заборонено."},
	},
	"SUBLETTING_ALLOWED": {
		"en": {Yes: "The tenant may sublet all or part of the property.", No: "The tenant may not sublet the property, in whole or in part, without the landlord’s prior written consent."},
		"de": {Yes: "Der Mieter ist berechtigt, die Mieträume ganz oder teilweise unterzuvermieten.", No: "Eine Untervermietung der Mieträume, ganz oder teilweise, bedarf der vorherigen schriftlichen Erlaubnis des Vermieters."},
		"fr": {Yes: "Le locataire est autorisé à sous-louer tout ou partie du logement.", No: "Le locataire ne peut sous-louer tout ou partie du logement sans l’accord écrit préalable du bailleur, y compris sur le prix du loyer."},
		"es": {Yes: "El arrendatario podrá subarrendar la vivienda total o parcialmente.", No: "El arrendatario no podrá subarrendar la vivienda, total o parcialmente, sin el consentimiento previo y por escrito del arrendador."},
		"uk": {Yes: "Наймач має право передати житло або його частину в піднайм.", No: "Передання житла або його частини в піднайм допускається лише за письмовою згодою наймодавця."},
	},
	"MAXIMUM_OCCUPANTS": {
		"en": {Value: "The property may be occupied permanently by no more than {value} {n:person|persons}, the tenant included."},
		"de": {Value: "Die Mieträume dürfen dauerhaft von höchstens {value} {n:Person|Personen}, den Mieter eingeschlossen, bewohnt werden."},
		"fr": {Value: "Le logement ne peut être occupé de manière permanente par plus de {value} {n:personne|personnes}, locataire compris."},
		"es": {Value: "La vivienda no podrá ser ocupada de forma permanente por más de {value} {n:persona|personas}, incluido el arrendatario."},
		"uk": {Value: "У житлі можуть постійно проживати не більше {value} {n:особи|осіб|осіб}, включно з наймачем."},
	},
	"FURNISHED": {
		"en": {Yes: "The property is let furnished, with the furniture and equipment needed for everyday living.", No: "The property is let unfurnished."},
		"de": {Yes: "Die Wohnung wird möbliert, mit der für das tägliche Wohnen erforderlichen Einrichtung, vermietet.", No: "Die Wohnung wird unmöbliert vermietet."},
		"fr": {Yes: "Le logement est loué meublé, avec le mobilier et les équipements nécessaires à la vie courante.", No: "Le logement est loué nu (non meublé)."},
		"es": {Yes: "La vivienda se arrienda amueblada, con el mobiliario y el equipamiento necesarios para la vida diaria.", No: "La vivienda se arrienda sin amueblar."},
		"uk": {Yes: "Житло здається в найм із меблями та обладнанням, необхідними для повсякденного проживання.", No: "Житло здається в найм без меблів."},
	},
	"KEYS_HANDED_OVER": {
		"en": {Value: "On moving in, the tenant receives {value} {n:key|keys} (access cards included). All keys must be returned at the end of the tenancy."},
		"de": {Value: "Der Mieter erhält bei Übergabe {value} Schlüssel (einschließlich Zugangskarten). Sämtliche Schlüssel sind bei Beendigung des Mietverhältnisses zurückzugeben."},
		"fr": {Value: "Lors de la remise des lieux, le locataire reçoit {value} {n:clé|clés} (badges compris). Toutes les clés sont restituées en fin de bail."},
		"es": {Value: "A la entrega de la vivienda el arrendatario recibe {value} {n:llave|llaves} (incluidas las tarjetas de acceso). Todas las llaves deberán devolverse al finalizar el contrato."},
		"uk": {Value: "Під час передання житла наймач отримує {value} {n:ключ|ключі|ключів} (включно з картками доступу). Після закінчення строку найму всі ключі підлягають поверненню."},
	},
	"INVENTORY_LIST": {
		"en": {Value: "The following furniture, appliances and fittings are let together with the property; their condition at the start of the tenancy is recorded as follows:\n{value}"},
		"de": {Value: "Mitvermietet sind die folgenden Einrichtungsgegenstände, Geräte und Ausstattungen; ihr Zustand bei Mietbeginn wird wie folgt festgehalten:\n{value}"},
		"fr": {Value: "Sont loués avec le logement les meubles, appareils et équipements suivants, dont l’état à l’entrée dans les lieux est constaté comme suit :\n{value}"},
		"es": {Value: "Se arriendan junto con la vivienda los siguientes muebles, electrodomésticos y enseres, cuyo estado al inicio del arrendamiento se hace constar a continuación:\n{value}"},
		"uk": {Value: "Разом із житлом у найм передаються такі меблі, побутова техніка та обладнання; їхній стан на початок строку найму зафіксовано так:\n{value}"},
	},
	"SPECIAL_CONDITIONS": {
		"en": {Value: "The parties further agree as follows:\n{value}"},
		"de": {Value: "Die Vertragsparteien vereinbaren ferner Folgendes:\n{value}"},
		"fr": {Value: "Les parties conviennent en outre de ce qui suit :\n{value}"},
		"es": {Value: "Las partes acuerdan además lo siguiente:\n{value}"},
		"uk": {Value: "Сторони також домовилися про таке:\n{value}"},
	},
	"DE_KAUTION_MONTHS": {
		"en": {Value: "The tenant provides a rent deposit (Kaution) of {value} {n:month’s|months’} net rent excluding operating costs ({deposit}). The tenant may pay it in three equal monthly instalments, the first due at the start of the tenancy. The landlord keeps the deposit separate from the landlord’s own assets at the interest rate usual for savings deposits with three months’ notice; the interest belongs to the tenant (§ 551 BGB)."},
		"de": {Value: "Der Mieter leistet eine Mietsicherheit (Kaution) in Höhe von {value} {n:Nettokaltmiete|Nettokaltmieten} ({deposit}). Er ist berechtigt, sie in drei gleichen monatlichen Teilzahlungen zu erbringen; die erste Teilzahlung ist zu Beginn des Mietverhältnisses fällig. Der Vermieter legt die Kaution getrennt von seinem Vermögen zu dem für Spareinlagen mit dreimonatiger Kündigungsfrist üblichen Zinssatz an; die Zinsen stehen dem Mieter zu (§ 551 BGB)."},
		"fr": {Value: "Le locataire verse un dépôt de garantie (Kaution) de {value} mois de loyer hors charges ({deposit}). Le locataire peut le verser en trois mensualités égales, la première au début du bail. Le bailleur le place séparément de son patrimoine au taux d’intérêt usuel des dépôts d’épargne à préavis de trois mois ; les intérêts reviennent au locataire (§ 551 BGB)."},
		"es": {Value: "El arrendatario entrega una fianza (Kaution) de {value} {n:mensualidad|mensualidades} de renta sin gastos ({deposit}). Podrá abonarla en tres plazos mensuales iguales, el primero al inicio del arrendamiento. El arrendador la depositará separada de su patrimonio al tipo de interés habitual de los depósitos de ahorro con preaviso de tres meses; los intereses corresponden al arrendatario (§ 551 BGB)."},
		"uk": {Value: "Наймач вносить гарантійний платіж (Kaution) у розмірі {value} {n:місячної орендної плати|місячних орендних плат|місячних орендних плат} без експлуатаційних витрат ({deposit}). Наймач може сплатити його трьома рівними щомісячними частинами, перша з яких вноситься на початку строку найму. Наймодавець зберігає гарантійний платіж окремо від власного майна під звичайний відсоток за ощадними вкладами з тримісячним строком попередження; відсотки належать наймачеві (§ 551 BGB)."},
	},
	"DE_MIETPREISBREMSE": {
		"en": {Yes: "The property lies in an area with a tight housing market in which the rules on the rent brake (Mietpreisbremse, §§ 556d et seq. BGB) apply.", No: "The rules on the rent brake (Mietpreisbremse, §§ 556d et seq. BGB) do not apply to this tenancy."},
		"de": {Yes: "Die Wohnung liegt in einem Gebiet mit angespanntem Wohnungsmarkt, in dem die Vorschriften über die Mietpreisbremse (§§ 556d ff. BGB) gelten.", No: "Die Vorschriften über die Mietpreisbremse (§§ 556d ff. BGB) finden auf dieses Mietverhältnis keine Anwendung."},
		"fr": {Yes: "Le logement est situé dans une zone à marché locatif tendu où s’applique le plafonnement des loyers allemand (Mietpreisbremse, §§ 556d et suivants BGB).", No: "Le plafonnement des loyers allemand (Mietpreisbremse, §§ 556d et suivants BGB) ne s’applique pas au présent bail."},
		"es": {Yes: "La vivienda se encuentra en una zona de mercado de vivienda tensionado en la que rige el freno a los alquileres (Mietpreisbremse, §§ 556d y ss. BGB).", No: "El freno a los alquileres (Mietpreisbremse, §§ 556d y ss. BGB) no es aplicable a este contrato."},
		"uk": {Yes: "Житло розташоване на території з напруженим ринком житла, де діють правила обмеження орендної плати (Mietpreisbremse, §§ 556d і наст. BGB).", No: "Правила обмеження орендної плати (Mietpreisbremse, §§ 556d і наст. BGB) до цього договору не застосовуються."},
	},
	"DE_STAFFELMIETE": {
		"en": {Yes: "The parties agree a graduated rent (Staffelmiete, § 557a BGB): the rent increases on the dates and by the amounts set out in the rent schedule of this contract; between two steps the rent remains unchanged for at least one year.", No: "No graduated rent (Staffelmiete) is agreed."},
		"de": {Yes: "Die Parteien vereinbaren eine Staffelmiete (§ 557a BGB): Die Miete erhöht sich zu den Zeitpunkten und auf die Beträge, die in der Mietstaffel dieses Vertrags angegeben sind; zwischen zwei Erhöhungen bleibt die Miete jeweils mindestens ein Jahr unverändert.", No: "Eine Staffelmiete ist nicht vereinbart."},
		"fr": {Yes: "Les parties conviennent d’un loyer progressif (Staffelmiete, § 557a BGB) : le loyer augmente aux dates et aux montants indiqués dans l’échéancier du loyer du présent contrat ; entre deux paliers, il reste inchangé pendant au moins un an.", No: "Aucun loyer progressif (Staffelmiete) n’est convenu."},
		"es": {Yes: "Las partes pactan una renta escalonada (Staffelmiete, § 557a BGB): la renta aumentará en las fechas y hasta los importes indicados en el calendario de renta de este contrato; entre dos escalones permanecerá invariable durante al menos un año.", No: "No se pacta renta escalonada (Staffelmiete)."},
		"uk": {Yes: "Сторони погоджують ступінчасту орендну плату (Staffelmiete, § 557a BGB): плата підвищується в строки та до розмірів, зазначених у графіку орендної плати цього договору; між двома підвищеннями вона залишається незмінною щонайменше один рік.", No: "Ступінчаста орендна плата (Staffelmiete) не передбачена."},
	},
	"DE_INDEXMIETE": {
		"en": {Yes: "The parties agree an index-linked rent (Indexmiete, § 557b BGB): the rent follows the consumer price index for Germany published by the Federal Statistical Office. Apart from increases under §§ 559 to 560 BGB, the rent remains unchanged for at least one year at a time; an adjustment must be declared in text form, stating the change in the index, and is payable from the beginning of the second month after the declaration is received.", No: "No index-linked rent (Indexmiete) is agreed."},
		"de": {Yes: "Die Parteien vereinbaren eine Indexmiete (§ 557b BGB): Die Miete wird durch den vom Statistischen Bundesamt ermittelten Verbraucherpreisindex für Deutschland bestimmt. Sie muss, von Erhöhungen nach den §§ 559 bis 560 BGB abgesehen, jeweils mindestens ein Jahr unverändert bleiben. Eine Änderung ist durch Erklärung in Textform unter Angabe der eingetretenen Änderung des Index geltend zu machen und ab dem Beginn des übernächsten Monats nach Zugang der Erklärung zu entrichten.", No: "Eine Indexmiete ist nicht vereinbart."},
		"fr": {Yes: "Les parties conviennent d’un loyer indexé (Indexmiete, § 557b BGB) sur l’indice des prix à la consommation pour l’Allemagne publié par l’Office fédéral de la statistique. Le loyer reste inchangé pendant au moins un an ; toute adaptation est déclarée par écrit, avec l’indication de la variation de l’indice, et est due à compter du début du deuxième mois suivant la réception de la déclaration.", No: "Aucun loyer indexé (Indexmiete) n’est convenu."},
		"es": {Yes: "Las partes pactan una renta indexada (Indexmiete, § 557b BGB) al índice de precios de consumo de Alemania publicado por la Oficina Federal de Estadística. La renta permanecerá invariable durante al menos un año; cada ajuste se comunicará por escrito indicando la variación del índice y será exigible desde el inicio del segundo mes siguiente a la recepción de la comunicación.", No: "No se pacta renta indexada (Indexmiete)."},
		"uk": {Yes: "Сторони погоджують індексовану орендну плату (Indexmiete, § 557b BGB) відповідно до індексу споживчих цін для Німеччини, який публікує Федеральне статистичне відомство. Плата залишається незмінною щонайменше один рік; про її зміну повідомляється в текстовій формі із зазначенням зміни індексу, і змінена плата сплачується з початку другого місяця після отримання повідомлення.", No: "Індексована орендна плата (Indexmiete) не передбачена."},
	},
	"DE_TENANT_NOTICE_MONTHS": {
		"en": {Value: "The tenant may terminate the tenancy with a notice period of {value} {n:month|months}; notice must be given in writing no later than the third working day of a calendar month. Statutory notice periods more favourable to the tenant (§ 573c BGB) remain unaffected."},
		"de": {Value: "Der Mieter kann das Mietverhältnis mit einer Frist von {value} {n:Monat|Monaten} kündigen; die schriftliche Kündigung muss spätestens am dritten Werktag eines Kalendermonats zugehen. Für den Mieter günstigere gesetzliche Kündigungsfristen (§ 573c BGB) bleiben unberührt."},
		"fr": {Value: "Le locataire peut résilier le bail moyennant un préavis de {value} mois, notifié par écrit au plus tard le troisième jour ouvrable d’un mois civil. Les délais légaux plus favorables au locataire (§ 573c BGB) demeurent applicables."},
		"es": {Value: "El arrendatario podrá resolver el contrato con un preaviso de {value} {n:mes|meses}, notificado por escrito a más tardar el tercer día hábil de un mes natural. Quedan a salvo los plazos legales más favorables al arrendatario (§ 573c BGB)."},
		"uk": {Value: "Наймач може розірвати договір, попередивши наймодавця за {value} {n:місяць|місяці|місяців}; письмове повідомлення має надійти не пізніше третього робочого дня календарного місяця. Сприятливіші для наймача строки, встановлені законом (§ 573c BGB), не змінюються."},
	},
	"DE_SCHOENHEITSREPARATUREN": {
		"en": {Yes: "The tenant carries out, as needed and in a workmanlike manner, the decorative repairs (Schönheitsreparaturen) made necessary by the tenant’s use of the property during the tenancy; no fixed intervals are agreed.", No: "Decorative repairs (Schönheitsreparaturen) remain the landlord’s responsibility."},
		"de": {Yes: "Der Mieter führt die während der Mietzeit durch seine Nutzung erforderlich werdenden Schönheitsreparaturen nach Bedarf und fachgerecht aus; starre Fristen sind nicht vereinbart.", No: "Die Schönheitsreparaturen obliegen dem Vermieter."},
		"fr": {Yes: "Le locataire effectue, selon les besoins et dans les règles de l’art, les travaux de remise en état décorative (Schönheitsreparaturen) rendus nécessaires par son usage du logement pendant le bail ; aucun délai fixe n’est convenu.", No: "Les travaux de remise en état décorative (Schönheitsreparaturen) incombent au bailleur."},
		"es": {Yes: "El arrendatario realizará, según sea necesario y de forma profesional, las reparaciones decorativas (Schönheitsreparaturen) que requiera su uso de la vivienda durante el arrendamiento; no se pactan plazos fijos.", No: "Las reparaciones decorativas (Schönheitsreparaturen) corresponden al arrendador."},
		"uk": {Yes: "Наймач у разі потреби й належним чином виконує косметичний ремонт (Schönheitsreparaturen), необхідність якого зумовлена його користуванням житлом протягом строку найму; фіксовані строки не встановлюються.", No: "Косметичний ремонт (Schönheitsreparaturen) є обов’язком наймодавця."},
	},
	"DE_BETRIEBSKOSTEN_VORAUSZAHLUNG": {
		"en": {Value: "In addition to the rent, the tenant pays a monthly advance of {value} towards the operating costs within the meaning of the Operating Costs Ordinance (Betriebskostenverordnung). The landlord settles the advances annually; the statement must reach the tenant no later than twelve months after the end of the billing period (§ 556 BGB)."},
		"de": {Value: "Neben der Miete zahlt der Mieter für die Betriebskosten im Sinne der Betriebskostenverordnung eine monatliche Vorauszahlung in Höhe von {value}. Über die Vorauszahlungen wird jährlich abgerechnet; die Abrechnung ist dem Mieter spätestens bis zum Ablauf des zwölften Monats nach Ende des Abrechnungszeitraums mitzuteilen (§ 556 BGB)."},
		"fr": {Value: "En sus du loyer, le locataire verse chaque mois une provision de {value} sur les charges d’exploitation au sens de l’ordonnance allemande sur les charges (Betriebskostenverordnung). Le bailleur en établit le décompte annuel, qui doit parvenir au locataire au plus tard douze mois après la fin de la période de décompte (§ 556 BGB)."},
		"es": {Value: "Además de la renta, el arrendatario abona mensualmente un anticipo de {value} a cuenta de los gastos de explotación conforme al Reglamento alemán de gastos de explotación (Betriebskostenverordnung). El arrendador practicará una liquidación anual, que deberá comunicar al arrendatario a más tardar doce meses después del final del período liquidado (§ 556 BGB)."},
		"uk": {Value: "Крім орендної плати, наймач щомісяця вносить авансовий платіж у розмірі {value} в рахунок експлуатаційних витрат відповідно до Положення про експлуатаційні витрати (Betriebskostenverordnung). Наймодавець щороку складає розрахунок за авансовими платежами і надає його наймачеві не пізніше дванадцяти місяців після закінчення розрахункового періоду (§ 556 BGB)."},
	},
	"DE_KLEINREPARATUREN_LIMIT": {
		"en": {Value: "The tenant bears the costs of minor repairs to installations and fittings to which the tenant has frequent and direct access (such as taps, switches, window and door handles) up to {value} per repair; the total the tenant bears in a year shall not exceed 8% of the annual net rent."},
		"de": {Value: "Der Mieter trägt die Kosten für Kleinreparaturen an Installationsgegenständen und Einrichtungen, die seinem häufigen und unmittelbaren Zugriff ausgesetzt sind (z. B. Wasserhähne, Schalter, Fenster- und Türgriffe), bis zu {value} je Reparatur; der im Jahr vom Mieter zu tragende Gesamtbetrag ist auf 8 % der Jahresnettokaltmiete begrenzt."},
		"fr": {Value: "Le locataire supporte le coût des petites réparations des installations et équipements auxquels il a un accès fréquent et direct (robinets, interrupteurs, poignées de fenêtres et de portes, etc.) jusqu’à {value} par réparation ; le total annuel à sa charge ne peut dépasser 8 % du loyer annuel hors charges."},
		"es": {Value: "El arrendatario asume el coste de las pequeñas reparaciones de instalaciones y elementos a los que tiene acceso frecuente y directo (grifos, interruptores, manillas de puertas y ventanas, etc.) hasta {value} por reparación; el total anual a su cargo no podrá superar el 8 % de la renta anual sin gastos."},
		"uk": {Value: "Наймач несе витрати на дрібний ремонт обладнання та пристроїв, якими він користується часто й безпосередньо (крани, вимикачі, ручки вікон і дверей тощо), у розмірі до {value} за один ремонт; загальна сума таких витрат за рік не може перевищувати 8 % річної орендної плати без експлуатаційних витрат."},
	},
	"DE_KLEINREPARATUREN_YEARLY_CAP": {
		"en": {Value: "In addition, the total the tenant bears for minor repairs in a calendar year shall not exceed {value}."},
		"de": {Value: "Zudem ist der vom Mieter im Kalenderjahr für Kleinreparaturen insgesamt zu tragende Betrag auf {value} begrenzt."},
		"fr": {Value: "En outre, le total à la charge du locataire pour les petites réparations ne peut dépasser {value} par année civile."},
		"es": {Value: "Además, el total a cargo del arrendatario por pequeñas reparaciones no podrá superar {value} por año natural."},
		"uk": {Value: "Крім того, загальна сума, яку наймач несе за дрібний ремонт протягом календарного року, не може перевищувати {value}."},
	},
	"DE_ENERGIEAUSWEIS_CLASS": {
		"en": {Value: "According to the energy performance certificate (Energieausweis) of the building, which the landlord has presented to the tenant, the building is in energy efficiency class {value}."},
		"de": {Value: "Nach dem Energieausweis des Gebäudes, den der Vermieter dem Mieter vorgelegt hat, gehört das Gebäude der Energieeffizienzklasse {value} an."},
		"fr": {Value: "Selon le certificat de performance énergétique (Energieausweis) du bâtiment, présenté au locataire par le bailleur, le bâtiment relève de la classe d’efficacité énergétique {value}."},
		"es": {Value: "Según el certificado de eficiencia energética (Energieausweis) del edificio, que el arrendador ha presentado al arrendatario, el edificio tiene la clase de eficiencia energética {value}."},
		"uk": {Value: "Згідно з енергетичним сертифікатом будівлі (Energieausweis), який наймодавець пред’явив наймачеві, будівля належить до класу енергоефективності {value}."},
	},
	"DE_STATUTORY_INTEREST": {
		"en": {Yes: "If the tenant is in default with a payment, the tenant owes default interest of five percentage points a year above the base rate on the overdue amount (§§ 286, 288 (1) BGB); no further late payment fee is agreed.", No: "Apart from the statutory consequences of default, no late payment fee or default interest is agreed."},
		"de": {Yes: "Gerät der Mieter mit einer Zahlung in Verzug, schuldet er auf den rückständigen Betrag Verzugszinsen in Höhe von fünf Prozentpunkten jährlich über dem Basiszinssatz (§§ 286, 288 Abs. 1 BGB); ein weitergehender Verzugszuschlag wird nicht vereinbart.", No: "Über die gesetzlichen Verzugsfolgen hinaus werden weder ein Verzugszuschlag noch Verzugszinsen vereinbart."},
		"fr": {Yes: "En cas de retard de paiement, le locataire doit sur le montant impayé des intérêts moratoires de cinq points de pourcentage par an au-dessus du taux de base (BGB §§ 286, 288, al. 1) ; aucune autre pénalité de retard n’est convenue.", No: "En dehors des conséquences légales du retard, aucune pénalité ni aucun intérêt de retard n’est convenu."},
		"es": {Yes: "Si el arrendatario incurre en mora en un pago, deberá sobre la cantidad adeudada intereses de demora de cinco puntos porcentuales anuales por encima del tipo básico (BGB §§ 286, 288.1); no se pacta ningún otro recargo por demora.", No: "Aparte de las consecuencias legales de la mora, no se pacta recargo ni interés de demora alguno."},
		"uk": {Yes: "У разі прострочення платежу наймач сплачує на прострочену суму проценти в розмірі п’яти процентних пунктів річних понад базову ставку (§§ 286, 288 ч. 1 BGB); іншої пені сторони не встановлюють.", No: "Крім передбачених законом наслідків прострочення, сторони не встановлюють ні пені, ні процентів за прострочення."},
	},
	"FR_DEPOT_GARANTIE_MONTHS": {
		"en": {Value: "The tenant pays a security deposit (dépôt de garantie) of {value} {n:month’s|months’} rent excluding charges ({deposit}). It is returned within one month of the return of the keys if the exit inventory matches the entry inventory, otherwise within two months, less any sums justifiably owed to the landlord (loi n° 89-462, art. 22)."},
		"de": {Value: "Der Mieter leistet eine Sicherheit (dépôt de garantie) in Höhe von {value} {n:Monatsmiete|Monatsmieten} ohne Nebenkosten ({deposit}). Sie wird innerhalb eines Monats nach Rückgabe der Schlüssel zurückgezahlt, wenn das Auszugsprotokoll dem Einzugsprotokoll entspricht, andernfalls innerhalb von zwei Monaten, jeweils abzüglich nachgewiesener Forderungen des Vermieters (Gesetz Nr. 89-462, Art. 22)."},
		"fr": {Value: "Le locataire verse un dépôt de garantie de {value} mois de loyer hors charges ({deposit}). Il est restitué dans un délai d’un mois à compter de la remise des clés lorsque l’état des lieux de sortie est conforme à l’état des lieux d’entrée, et de deux mois dans le cas contraire, déduction faite des sommes restant dues au bailleur et dûment justifiées (loi n° 89-462 du 6 juillet 1989, art. 22)."},
		"es": {Value: "El arrendatario entrega un depósito de garantía (dépôt de garantie) de {value} {n:mensualidad|mensualidades} de renta sin gastos ({deposit}), que se le devolverá en el plazo de un mes desde la entrega de las llaves si el estado de salida coincide con el de entrada, o de dos meses en caso contrario, deducidas las cantidades que adeude justificadamente al arrendador (loi n° 89-462, art. 22)."},
		"uk": {Value: "Наймач вносить гарантійний платіж (dépôt de garantie) у розмірі {value} {n:місячної орендної плати|місячних орендних плат|місячних орендних плат} без урахування комунальних платежів ({deposit}). Він повертається протягом одного місяця після повернення ключів, якщо стан житла при виїзді відповідає акту вселення, а в іншому разі — протягом двох місяців, за вирахуванням обґрунтованих сум, що належать наймодавцеві (закон № 89-462, ст. 22)."},
	},
	"FR_DUREE_BAIL_MONTHS": {
		"en": {Value: "The lease is concluded for a term of {value} {n:month|months} from its effective date; unless notice is given in accordance with the law, it is renewed tacitly (loi n° 89-462, art. 10)."},
		"de": {Value: "Der Mietvertrag wird für eine Dauer von {value} {n:Monat|Monaten} ab Mietbeginn geschlossen; wird nicht nach den gesetzlichen Vorschriften gekündigt, verlängert er sich stillschweigend (Gesetz Nr. 89-462, Art. 10)."},
		"fr": {Value: "Le bail est conclu pour une durée de {value} mois à compter de sa prise d’effet ; à défaut de congé donné dans les conditions légales, il est reconduit tacitement (loi n° 89-462 du 6 juillet 1989, art. 10)."},
		"es": {Value: "El contrato se celebra por un plazo de {value} {n:mes|meses} desde su entrada en vigor y, salvo notificación en los términos legales, se prorrogará tácitamente (loi n° 89-462, art. 10)."},
		"uk": {Value: "Договір укладено строком на {value} {n:місяць|місяці|місяців} з дня набрання ним чинності; якщо жодна зі сторін не заявить про його припинення в порядку, встановленому законом, він продовжується мовчазно (закон № 89-462, ст. 10)."},
	},
	"FR_PREAVIS_LOCATAIRE_MONTHS": {
		"en": {Value: "The tenant may give notice at any time, subject to a notice period of {value} {n:month|months}, by registered letter with acknowledgement of receipt, by bailiff’s notice or by hand delivery against a receipt; the shorter periods provided by law remain applicable (loi n° 89-462, art. 15)."},
		"de": {Value: "Der Mieter kann jederzeit mit einer Frist von {value} {n:Monat|Monaten} kündigen, per Einschreiben mit Rückschein, durch Gerichtsvollzieher oder durch persönliche Übergabe gegen Empfangsbestätigung; gesetzlich vorgesehene kürzere Fristen bleiben unberührt (Gesetz Nr. 89-462, Art. 15)."},
		"fr": {Value: "Le locataire peut donner congé à tout moment, en respectant un préavis de {value} mois, par lettre recommandée avec demande d’avis de réception, par acte de commissaire de justice ou par remise en main propre contre récépissé ou émargement ; les délais réduits prévus par la loi demeurent applicables (loi n° 89-462 du 6 juillet 1989, art. 15)."},
		"es": {Value: "El arrendatario podrá dar por terminado el contrato en cualquier momento con un preaviso de {value} {n:mes|meses}, mediante carta certificada con acuse de recibo, acto de comisario de justicia o entrega en mano contra recibo; se mantienen los plazos reducidos previstos por la ley (loi n° 89-462, art. 15)."},
		"uk": {Value: "Наймач може будь-коли відмовитися від договору, попередивши наймодавця за {value} {n:місяць|місяці|місяців} рекомендованим листом із повідомленням про вручення, через судового виконавця або врученням особисто під підпис; скорочені строки, передбачені законом, зберігаються (закон № 89-462, ст. 15)."},
	},
	"FR_ZONE_TENDUE": {
		"en": {Yes: "The dwelling is located in a zone tendue within the meaning of décret n° 2013-392; the tenant’s notice period is therefore one month (loi n° 89-462, art. 15).", No: "The dwelling is not located in a zone tendue within the meaning of décret n° 2013-392."},
		"de": {Yes: "Die Wohnung liegt in einer zone tendue im Sinne des Dekrets Nr. 2013-392; die Kündigungsfrist des Mieters beträgt daher einen Monat (Gesetz Nr. 89-462, Art. 15).", No: "Die Wohnung liegt nicht in einer zone tendue im Sinne des Dekrets Nr. 2013-392."},
		"fr": {Yes: "Le logement est situé en zone tendue au sens du décret n° 2013-392 du 10 mai 2013 ; le délai de préavis du locataire est en conséquence d’un mois (loi n° 89-462, art. 15).", No: "Le logement n’est pas situé en zone tendue au sens du décret n° 2013-392 du 10 mai 2013."},
		"es": {Yes: "La vivienda está situada en una zone tendue en el sentido del décret n° 2013-392; el preaviso del arrendatario es, por tanto, de un mes (loi n° 89-462, art. 15).", No: "La vivienda no está situada en una zone tendue en el sentido del décret n° 2013-392."},
		"uk": {Yes: "Житло розташоване в зоні напруженого ринку житла (zone tendue) у розумінні декрету № 2013-392; строк попередження наймача тому становить один місяць (закон № 89-462, ст. 15).", No: "Житло не розташоване в зоні напруженого ринку житла (zone tendue) у розумінні декрету № 2013-392."},
	},
	"FR_ENCADREMENT_LOYERS": {
		"en": {Yes: "The dwelling is subject to rent control (encadrement des loyers): the base rent does not exceed the increased reference rent set by prefectoral order, save for a justified rent supplement (loi n° 89-462, art. 3; loi n° 2018-1021, art. 140).", No: "The dwelling is not subject to rent control (encadrement des loyers)."},
		"de": {Yes: "Die Wohnung unterliegt der Mietbegrenzung (encadrement des loyers): Die Grundmiete übersteigt die durch Präfekturerlass festgesetzte erhöhte Referenzmiete nicht, vorbehaltlich eines begründeten Mietzuschlags (Gesetz Nr. 89-462, Art. 3; Gesetz Nr. 2018-1021, Art. 140).", No: "Die Wohnung unterliegt keiner Mietbegrenzung (encadrement des loyers)."},
		"fr": {Yes: "Le logement est soumis à l’encadrement des loyers : le loyer de base n’excède pas le loyer de référence majoré fixé par arrêté préfectoral, sauf complément de loyer justifié (loi n° 89-462, art. 3 ; loi n° 2018-1021, art. 140).", No: "Le logement n’est pas soumis à l’encadrement des loyers."},
		"es": {Yes: "La vivienda está sujeta a la limitación de rentas (encadrement des loyers): la renta base no supera la renta de referencia incrementada fijada por orden prefectoral, salvo complemento de renta justificado (loi n° 89-462, art. 3; loi n° 2018-1021, art. 140).", No: "La vivienda no está sujeta a la limitación de rentas (encadrement des loyers)."},
		"uk": {Yes: "На житло поширюється обмеження орендної плати (encadrement des loyers): базова плата не перевищує підвищеної референтної плати, встановленої наказом префекта, крім обґрунтованої надбавки (закон № 89-462, ст. 3; закон № 2018-1021, ст. 140).", No: "На житло не поширюється обмеження орендної плати (encadrement des loyers)."},
	},
	"FR_LOYER_REFERENCE_MAJORE": {
		"en": {Value: "The increased reference rent (loyer de référence majoré) applicable to the dwelling is {value} per square metre of living area per month."},
		"de": {Value: "Die für die Wohnung geltende erhöhte Referenzmiete (loyer de référence majoré) beträgt {value} je Quadratmeter Wohnfläche und Monat."},
		"fr": {Value: "Le loyer de référence majoré applicable au logement est de {value} par mètre carré de surface habitable et par mois."},
		"es": {Value: "La renta de referencia incrementada (loyer de référence majoré) aplicable a la vivienda es de {value} por metro cuadrado de superficie habitable y mes."},
		"uk": {Value: "Підвищена референтна орендна плата (loyer de référence majoré) для цього житла становить {value} за квадратний метр житлової площі на місяць."},
	},
	"FR_REVISION_IRL": {
		"en": {Yes: "The rent is revised once a year on the anniversary date of the lease in line with the change in the rent reference index (IRL) published by INSEE; the reference quarter is that of the last index published on the date the lease is signed (loi n° 89-462, art. 17-1).", No: "The rent is not revised during the lease."},
		"de": {Yes: "Die Miete wird jährlich zum Jahrestag des Mietvertrags entsprechend der Veränderung des vom INSEE veröffentlichten Mietreferenzindex (IRL) angepasst; Referenzquartal ist das des bei Vertragsunterzeichnung zuletzt veröffentlichten Index (Gesetz Nr. 89-462, Art. 17-1).", No: "Die Miete wird während der Vertragsdauer nicht angepasst."},
		"fr": {Yes: "Le loyer est révisé chaque année à la date anniversaire du bail en fonction de la variation de l’indice de référence des loyers (IRL) publié par l’INSEE ; le trimestre de référence est celui du dernier indice publié à la date de signature du bail (loi n° 89-462, art. 17-1).", No: "Le loyer n’est pas révisable en cours de bail."},
		"es": {Yes: "La renta se revisará cada año en la fecha de aniversario del contrato conforme a la variación del índice de referencia de alquileres (IRL) publicado por el INSEE; el trimestre de referencia es el del último índice publicado en la fecha de firma del contrato (loi n° 89-462, art. 17-1).", No: "La renta no se revisará durante la vigencia del contrato."},
		"uk": {Yes: "Орендна плата переглядається щороку в день річниці договору відповідно до зміни індексу референтної орендної плати (IRL), який публікує INSEE; базовим є квартал останнього індексу, опублікованого на дату підписання договору (закон № 89-462, ст. 17-1).", No: "Орендна плата протягом строку дії договору не переглядається."},
	},
	"FR_DPE_CLASS": {
		"en": {Value: "According to the energy performance diagnosis (DPE) attached to this lease, the dwelling is rated class {value}."},
		"de": {Value: "Nach der diesem Vertrag beigefügten Energieeffizienzbewertung (DPE) ist die Wohnung in die Klasse {value} eingestuft."},
		"fr": {Value: "Selon le diagnostic de performance énergétique (DPE) annexé au présent bail, le logement relève de la classe {value}."},
		"es": {Value: "Según el diagnóstico de eficiencia energética (DPE) anexo a este contrato, la vivienda tiene la clase {value}."},
		"uk": {Value: "Згідно з діагностикою енергоефективності (DPE), що додається до цього договору, житло належить до класу {value}."},
	},
	"FR_STATUTORY_INTEREST": {
		"en": {Yes: "Any sum remaining unpaid after a formal notice to pay bears interest at the legal rate from the date of that notice (Code civil, art. 1231-6); no penalty for late payment is stipulated (loi n° 89-462, art. 4 i).", No: "No penalty for late payment is stipulated (loi n° 89-462, art. 4 i)."},
		"de": {Yes: "Jeder nach einer Zahlungsaufforderung unbezahlt gebliebene Betrag wird ab dem Datum dieser Aufforderung mit dem gesetzlichen Zinssatz verzinst (Code civil, Art. 1231-6); eine Strafe für verspätete Zahlung wird nicht vereinbart (loi n° 89-462, Art. 4 i).", No: "Eine Strafe für verspätete Zahlung wird nicht vereinbart (loi n° 89-462, Art. 4 i)."},
		"fr": {Yes: "Toute somme restée impayée après une mise en demeure porte intérêt au taux légal à compter de la date de celle-ci (Code civil, art. 1231-6) ; aucune pénalité de retard n’est stipulée (loi n° 89-462, art. 4 i).", No: "Aucune pénalité de retard n’est stipulée (loi n° 89-462, art. 4 i)."},
		"es": {Yes: "Toda cantidad que quede impagada tras un requerimiento de pago devengará intereses al tipo legal desde la fecha de dicho requerimiento (Code civil, art. 1231-6); no se estipula penalización alguna por retraso (loi n° 89-462, art. 4 i).", No: "No se estipula penalización alguna por retraso en el pago (loi n° 89-462, art. 4 i)."},
		"uk": {Yes: "На будь-яку суму, не сплачену після вимоги про сплату, нараховуються проценти за законною ставкою з дати такої вимоги (Цивільний кодекс Франції, ст. 1231-6); пеню за прострочення не встановлено (loi n° 89-462, ст. 4 i).", No: "Пеню за прострочення платежу не встановлено (loi n° 89-462, ст. 4 i)."},
	},
	"ES_FIANZA_MONTHS": {
		"en": {Value: "On signing, the tenant pays a cash deposit (fianza) of {value} {n:month’s|months’} rent ({deposit}), which the landlord lodges with the competent public body where regional law so requires; it is returned at the end of the lease, less any sums owed by the tenant (LAU art. 36)."},
		"de": {Value: "Bei Vertragsunterzeichnung leistet der Mieter eine Barkaution (fianza) in Höhe von {value} {n:Monatsmiete|Monatsmieten} ({deposit}), die der Vermieter, soweit das Recht der Autonomen Gemeinschaft es verlangt, bei der zuständigen öffentlichen Stelle hinterlegt; sie wird bei Vertragsende abzüglich offener Forderungen zurückgezahlt (LAU, Art. 36)."},
		"fr": {Value: "À la signature, le locataire verse en espèces un dépôt de garantie (fianza) de {value} mois de loyer ({deposit}), que le bailleur dépose auprès de l’organisme public compétent lorsque la réglementation régionale l’exige ; il est restitué en fin de bail, déduction faite des sommes dues par le locataire (LAU, art. 36)."},
		"es": {Value: "A la firma del contrato, el arrendatario entrega en metálico una fianza de {value} {n:mensualidad|mensualidades} de renta ({deposit}), que el arrendador depositará en el organismo público competente cuando así lo exija la normativa autonómica; le será devuelta al finalizar el arrendamiento, deducidas las cantidades que adeude (LAU, art. 36)."},
		"uk": {Value: "Під час підписання договору наймач вносить грошову заставу (fianza) у розмірі {value} {n:місячної орендної плати|місячних орендних плат|місячних орендних плат} ({deposit}), яку наймодавець депонує у відповідному державному органі, якщо цього вимагає регіональне законодавство; вона повертається після закінчення найму за вирахуванням сум, які заборгував наймач (LAU, ст. 36)."},
	},
	"ES_PRORROGA_OBLIGATORIA": {
		"en": {Yes: "If the agreed term is shorter than five years, or seven if the landlord is a legal entity, the lease is extended compulsorily by periods of one year until it reaches that length, unless the tenant informs the landlord at least thirty days before the end of the contract or of any extension that the tenant does not wish to renew it (LAU art. 9).", No: "The agreed term is not shorter than the statutory minimum; the mandatory extension under LAU art. 9 therefore does not apply."},
		"de": {Yes: "Ist die vereinbarte Laufzeit kürzer als fünf Jahre, oder als sieben Jahre, wenn der Vermieter eine juristische Person ist, verlängert sich der Vertrag zwingend jeweils um ein Jahr, bis diese Dauer erreicht ist, es sei denn, der Mieter teilt dem Vermieter mindestens dreißig Tage vor Ablauf des Vertrags oder einer Verlängerung mit, dass er ihn nicht verlängern will (LAU, Art. 9).", No: "Die vereinbarte Laufzeit ist nicht kürzer als die gesetzliche Mindestdauer; die zwingende Verlängerung nach Art. 9 LAU findet daher keine Anwendung."},
		"fr": {Yes: "Si la durée convenue est inférieure à cinq ans, ou à sept ans si le bailleur est une personne morale, le bail est obligatoirement prorogé par périodes annuelles jusqu’à atteindre cette durée, sauf si le locataire informe le bailleur, au moins trente jours avant le terme du contrat ou de l’une de ses prorogations, de sa volonté de ne pas le renouveler (LAU, art. 9).", No: "La durée convenue n’est pas inférieure au minimum légal ; la prorogation obligatoire de l’article 9 de la LAU ne s’applique donc pas."},
		"es": {Yes: "Si la duración pactada fuera inferior a cinco años, o a siete si el arrendador fuera persona jurídica, el contrato se prorrogará obligatoriamente por plazos anuales hasta alcanzar dicha duración, salvo que el arrendatario manifieste al arrendador, con treinta días de antelación como mínimo a la fecha de terminación del contrato o de cualquiera de sus prórrogas, su voluntad de no renovarlo (LAU, art. 9).", No: "La duración pactada no es inferior a la mínima legal, por lo que no procede la prórroga obligatoria del artículo 9 de la LAU."},
		"uk": {Yes: "Якщо погоджений строк менший за п’ять років (або сім, якщо наймодавець є юридичною особою), договір обов’язково продовжується щороку, доки не досягне цієї тривалості, якщо тільки наймач не повідомить наймодавця щонайменше за тридцять днів до закінчення договору або будь-якого його продовження, що не бажає його продовжувати (LAU, ст. 9).", No: "Погоджений строк не менший за встановлений законом мінімум, тому обов’язкове продовження за ст. 9 LAU не застосовується."},
	},
	"ES_DESISTIMIENTO_INQUILINO": {
		"en": {Yes: "The tenant may withdraw from the lease once at least six months have elapsed, provided that the landlord is given at least thirty days’ notice (LAU art. 11).", No: "Apart from the tenant’s statutory right of withdrawal (LAU art. 11), no right of early termination is agreed."},
		"de": {Yes: "Der Mieter kann nach Ablauf von mindestens sechs Monaten vom Vertrag zurücktreten, sofern er dies dem Vermieter mindestens dreißig Tage im Voraus mitteilt (LAU, Art. 11).", No: "Abgesehen vom gesetzlichen Rücktrittsrecht des Mieters (LAU, Art. 11) ist kein Recht zur vorzeitigen Beendigung vereinbart."},
		"fr": {Yes: "Le locataire peut se désister du bail après au moins six mois, à condition d’en informer le bailleur au moins trente jours à l’avance (LAU, art. 11).", No: "Hormis le droit légal de désistement du locataire (LAU, art. 11), aucun droit de résiliation anticipée n’est convenu."},
		"es": {Yes: "El arrendatario podrá desistir del contrato una vez transcurridos al menos seis meses, siempre que lo comunique al arrendador con una antelación mínima de treinta días (LAU, art. 11).", No: "Sin perjuicio del derecho legal de desistimiento del arrendatario (LAU, art. 11), no se pacta ningún otro derecho de resolución anticipada."},
		"uk": {Yes: "Наймач може відмовитися від договору після спливу щонайменше шести місяців за умови попередження наймодавця не пізніше ніж за тридцять днів (LAU, ст. 11).", No: "Крім установленого законом права наймача на відмову від договору (LAU, ст. 11), жодного іншого права на дострокове розірвання не передбачено."},
	},
	"ES_ACTUALIZACION_RENTA": {
		"en": {Yes: "The rent is updated on each anniversary of the contract by the change in the reference index that applies by law, within the limits set by law (LAU art. 18).", No: "The rent is not updated during the term of the contract."},
		"de": {Yes: "Die Miete wird zu jedem Jahrestag des Vertrags entsprechend der Veränderung des gesetzlich maßgeblichen Referenzindex in den gesetzlichen Grenzen angepasst (LAU, Art. 18).", No: "Die Miete wird während der Vertragsdauer nicht angepasst."},
		"fr": {Yes: "Le loyer est actualisé à chaque date anniversaire du contrat en fonction de la variation de l’indice de référence légalement applicable, dans les limites fixées par la loi (LAU, art. 18).", No: "Le loyer n’est pas actualisé pendant la durée du contrat."},
		"es": {Yes: "La renta se actualizará en cada fecha en que se cumpla un año de vigencia del contrato, aplicando la variación del índice de referencia que legalmente corresponda, con los límites establecidos por la ley (LAU, art. 18).", No: "La renta no se actualizará durante la vigencia del contrato."},
		"uk": {Yes: "Орендна плата оновлюється в кожну річницю договору відповідно до зміни референтного індексу, що застосовується згідно із законом, у встановлених законом межах (LAU, ст. 18).", No: "Орендна плата протягом строку дії договору не оновлюється."},
	},
	"ES_ZONA_TENSIONADA": {
		"en": {Yes: "The dwelling is in a stressed residential market area (zona tensionada) declared under Ley 12/2023 on the right to housing; the agreed rent respects the limits of LAU art. 17.", No: "The dwelling is not in a stressed residential market area (zona tensionada) declared under Ley 12/2023."},
		"de": {Yes: "Die Wohnung liegt in einem nach dem Gesetz 12/2023 über das Recht auf Wohnraum ausgewiesenen angespannten Wohnungsmarktgebiet (zona tensionada); die vereinbarte Miete hält die Grenzen des Art. 17 LAU ein.", No: "Die Wohnung liegt nicht in einem nach dem Gesetz 12/2023 ausgewiesenen angespannten Wohnungsmarktgebiet (zona tensionada)."},
		"fr": {Yes: "Le logement est situé dans une zone de marché résidentiel tendu (zona tensionada) déclarée en application de la loi espagnole 12/2023 sur le droit au logement ; le loyer convenu respecte les limites de l’article 17 de la LAU.", No: "Le logement n’est pas situé dans une zone de marché résidentiel tendu (zona tensionada) déclarée en application de la loi 12/2023."},
		"es": {Yes: "La vivienda se encuentra en una zona de mercado residencial tensionado declarada conforme a la Ley 12/2023, por el derecho a la vivienda; la renta pactada respeta los límites del artículo 17 de la LAU.", No: "La vivienda no se encuentra en una zona de mercado residencial tensionado declarada conforme a la Ley 12/2023."},
		"uk": {Yes: "Житло розташоване в зоні напруженого ринку житла (zona tensionada), оголошеній відповідно до Закону 12/2023 про право на житло; погоджена орендна плата не перевищує меж, установлених ст. 17 LAU.", No: "Житло не розташоване в зоні напруженого ринку житла (zona tensionada), оголошеній відповідно до Закону 12/2023."},
	},
	"UA_LEASE_TERM_YEARS": {
		"en": {Value: "The lease is concluded for a term of {value} {n:year|years} (Civil Code of Ukraine, art. 821)."},
		"de": {Value: "Der Mietvertrag wird für eine Dauer von {value} {n:Jahr|Jahren} geschlossen (Zivilgesetzbuch der Ukraine, Art. 821)."},
		"fr": {Value: "Le bail est conclu pour une durée de {value} {n:an|ans} (Code civil de l’Ukraine, art. 821)."},
		"es": {Value: "El contrato se celebra por un plazo de {value} {n:año|años} (Código Civil de Ucrania, art. 821)."},
		"uk": {Value: "Договір найму житла укладено строком на {value} {n:рік|роки|років} (стаття 821 Цивільного кодексу України)."},
	},
	"UA_TENANT_NOTICE_MONTHS": {
		"en": {Value: "With the consent of the persons permanently living with the tenant, the tenant may terminate the lease at any time by giving the landlord {value} {n:month’s|months’} written notice (Civil Code of Ukraine, art. 825)."},
		"de": {Value: "Der Mieter kann den Vertrag mit Zustimmung der dauerhaft mit ihm wohnenden Personen jederzeit durch schriftliche Kündigung gegenüber dem Vermieter mit einer Frist von {value} {n:Monat|Monaten} beenden (Zivilgesetzbuch der Ukraine, Art. 825)."},
		"fr": {Value: "Avec l’accord des personnes vivant de manière permanente avec lui, le locataire peut résilier le bail à tout moment en avisant le bailleur par écrit {value} mois à l’avance (Code civil de l’Ukraine, art. 825)."},
		"es": {Value: "Con el consentimiento de las personas que convivan con él de forma permanente, el arrendatario podrá resolver el contrato en cualquier momento notificándolo por escrito al arrendador con {value} {n:mes|meses} de antelación (Código Civil de Ucrania, art. 825)."},
		"uk": {Value: "Наймач має право за згодою осіб, які постійно проживають разом із ним, у будь-який час розірвати договір, письмово попередивши наймодавця за {value} {n:місяць|місяці|місяців} (стаття 825 Цивільного кодексу України)."},
	},
	"UA_RENEWAL_PREEMPTIVE_RIGHT": {
		"en": {Yes: "On expiry of the lease the tenant has a pre-emptive right to conclude a new lease. No later than three months before the lease expires, the landlord shall offer the tenant a new contract on the same or other terms, or notify the tenant that it will not be renewed (Civil Code of Ukraine, art. 822).", No: "This lease is concluded for a term of up to one year (short-term lease); the tenant’s pre-emptive right to a new lease therefore does not apply (Civil Code of Ukraine, arts. 821 and 822)."},
		"de": {Yes: "Nach Ablauf des Vertrags hat der Mieter ein Vorrecht auf den Abschluss eines neuen Vertrags. Spätestens drei Monate vor Vertragsablauf bietet der Vermieter dem Mieter einen neuen Vertrag zu gleichen oder anderen Bedingungen an oder teilt ihm mit, dass der Vertrag nicht verlängert wird (Zivilgesetzbuch der Ukraine, Art. 822).", No: "Dieser Vertrag ist für höchstens ein Jahr geschlossen (kurzfristige Miete); ein Vorrecht des Mieters auf einen neuen Vertrag besteht daher nicht (Zivilgesetzbuch der Ukraine, Art. 821 und 822)."},
		"fr": {Yes: "À l’expiration du bail, le locataire bénéficie d’un droit de préférence pour la conclusion d’un nouveau bail. Au plus tard trois mois avant l’expiration, le bailleur propose au locataire un nouveau contrat aux mêmes conditions ou à d’autres conditions, ou l’avise qu’il ne sera pas renouvelé (Code civil de l’Ukraine, art. 822).", No: "Le présent bail est conclu pour une durée d’au plus un an (bail de courte durée) ; le droit de préférence du locataire ne s’applique donc pas (Code civil de l’Ukraine, art. 821 et 822)."},
		"es": {Yes: "Al vencimiento del contrato, el arrendatario tiene un derecho preferente a celebrar un nuevo contrato. A más tardar tres meses antes del vencimiento, el arrendador ofrecerá al arrendatario un nuevo contrato en las mismas o en otras condiciones, o le comunicará que no lo renovará (Código Civil de Ucrania, art. 822).", No: "Este contrato se celebra por un plazo no superior a un año (arrendamiento de corta duración); por ello no se aplica el derecho preferente del arrendatario a un nuevo contrato (Código Civil de Ucrania, arts. 821 y 822)."},
		"uk": {Yes: "Після спливу строку договору наймач має переважне право на укладення договору на новий строк. Не пізніше ніж за три місяці до спливу строку договору наймодавець повинен запропонувати наймачеві укласти договір на тих самих або інших умовах чи попередити його про відмову від укладення договору (стаття 822 Цивільного кодексу України).", No: "Цей договір укладено строком до одного року (короткостроковий найм), тому переважне право наймача на укладення договору на новий строк не застосовується (статті 821 і 822 Цивільного кодексу України)."},
	},
	"UA_SECURITY_PAYMENT_AMOUNT": {
		"en": {Value: "The tenant pays a security payment of {value}, which secures the performance of the tenant’s obligations under this lease and is returned at the end of the lease, less any sums justifiably owed to the landlord (Civil Code of Ukraine, art. 546)."},
		"de": {Value: "Der Mieter leistet eine Sicherheitszahlung in Höhe von {value}, die die Erfüllung seiner Pflichten aus diesem Vertrag sichert und bei Vertragsende abzüglich berechtigter Forderungen des Vermieters zurückgezahlt wird (Zivilgesetzbuch der Ukraine, Art. 546)."},
		"fr": {Value: "Le locataire verse un paiement de garantie de {value}, qui garantit l’exécution de ses obligations au titre du présent bail et lui est restitué en fin de bail, déduction faite des sommes restant dues au bailleur et dûment justifiées (Code civil de l’Ukraine, art. 546)."},
		"es": {Value: "El arrendatario entrega un pago de garantía de {value}, que garantiza el cumplimiento de sus obligaciones derivadas de este contrato y le será devuelto al finalizar el arrendamiento, deducidas las cantidades que adeude justificadamente al arrendador (Código Civil de Ucrania, art. 546)."},
		"uk": {Value: "Наймач вносить гарантійний платіж у розмірі {value}, який забезпечує виконання його зобов’язань за цим договором і повертається після закінчення строку найму за вирахуванням обґрунтованих сум, що належать наймодавцеві (стаття 546 Цивільного кодексу України)."},
	},
}

// wordingOf is the block's lease wording in locale (English when the
// locale has none); ok is false for a block without wording.
func wordingOf(code, locale string) (clause, bool) {
	byLocale, ok := wording[code]
	if !ok {
		return clause{}, false
	}
	if c, ok := byLocale[locale]; ok {
		return c, true
	}
	c, ok := byLocale["en"]
	return c, ok
}

// pluralIndex is the CLDR plural category of n in locale as an index into
// a {n:...} choice: English, German and Spanish one|other (1 is one),
// French one|other (0 and 1 are one), Ukrainian one|few|many.
func pluralIndex(locale string, n int64) int {
	if n < 0 {
		n = -n
	}
	switch locale {
	case "fr":
		if n <= 1 {
			return 0
		}
		return 1
	case "uk":
		switch m10, m100 := n%10, n%100; {
		case m10 == 1 && m100 != 11:
			return 0
		case m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14):
			return 1
		default:
			return 2
		}
	}
	if n == 1 {
		return 0
	}
	return 1
}

// fill replaces the placeholders of text: vars by name ({value},
// {deposit}, ...), and each {n:a|b|c} by the form pluralIndex picks for
// n (the last form when the choice has fewer).
func fill(text, locale string, n int64, vars map[string]string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(text, '{')
		if i < 0 {
			b.WriteString(text)
			return b.String()
		}
		j := strings.IndexByte(text[i:], '}')
		if j < 0 {
			b.WriteString(text)
			return b.String()
		}
		b.WriteString(text[:i])
		name := text[i+1 : i+j]
		switch {
		case strings.HasPrefix(name, "n:"):
			forms := strings.Split(name[2:], "|")
			k := min(pluralIndex(locale, n), len(forms)-1)
			b.WriteString(forms[k])
		default:
			if v, ok := vars[name]; ok {
				b.WriteString(v)
			} else {
				b.WriteString(text[i : i+j+1])
			}
		}
		text = text[i+j+1:]
	}
}

// intOf reads a term's integer value (0 when it is not one).
func intOf(raw []byte) int64 {
	n, _ := strconv.ParseInt(strings.TrimSpace(string(raw)), 10, 64)
	return n
}
