package notices

// wording is what a notice says in one language. The %s verbs are filled
// in the order each field's comment gives; amounts, dates and periods are
// already written the locale's way (printforms.StyleOf), so a mail and
// the receipt it carries agree on every figure.
type wording struct {
	// Greeting: the tenant's name.
	Greeting string
	// Closing precedes the landlord's name.
	Closing string
	// AsWritten: the first paragraph's case is the wording's own (German:
	// see letter.opening); else it begins with a capital.
	AsWritten bool
	// Contract: the contract's number, the property.
	Contract string
	// Total: the amount.
	Total string

	// RentCallSubject: the due date, the contract's number.
	RentCallSubject string
	// RentCallIntro: the due date.
	RentCallIntro string
	RentCallOutro string

	// ReminderSubject by step of the dunning ladder: the oldest due
	// date, the number.
	ReminderSubject [3]string
	// ReminderIntro: the oldest due date.
	ReminderIntro string
	ReminderOutro string
	// FinalOutro closes the last step's mail; FinalTitle and FinalDemand
	// (the total) are its letter, attached as a PDF (in France the mise en
	// demeure de payer).
	FinalOutro  string
	FinalTitle  string
	FinalDemand string

	// ReceiptSubject: the receipt's number.
	ReceiptSubject string
	// ReceiptBody: the amount, the day paid, the receipt's number.
	ReceiptBody string
	// QuittanceSubject and QuittanceBody (as ReceiptBody) are the receipt
	// of a payment that settled its month's rent and charges (France:
	// quittance de loyer; any other payment gets a reçu).
	QuittanceSubject string
	QuittanceBody    string
	// SetOffSubject: the statement's number. SetOffBody: the amount, the
	// day, the number. A set-off (a credited compensation, the deposit
	// applied) is no payment received, and is never thanked for as one.
	SetOffSubject string
	SetOffBody    string

	// EndSubject: the end date.
	EndSubject string
	// EndBody: the end date.
	EndBody string

	// RentChangeSubject: the first day of the new rent.
	RentChangeSubject string
	// RentChangeBody: the first day, the new rent, the rent until then.
	RentChangeBody string
	// RentChangeIndex states the index the change follows, as the law
	// asks (§ 557b Abs. 3 BGB: the change of the index; France: the IRL
	// of reference, old and new): the index, then the old value and its
	// period and the new value and its period (in the language's order,
	// see indexArgs), and the change in percent.
	RentChangeIndex string
}

// wordings are the notices' languages; any other locale is written in
// English.
var wordings = map[string]wording{
	"en": {
		Greeting: "Dear %s,",
		Closing:  "Kind regards,",
		Contract: "Tenancy agreement %s, %s",
		Total:    "Total: %s",

		RentCallSubject: "Payment due on %s (agreement %s)",
		RentCallIntro:   "the following falls due on %s:",
		RentCallOutro:   "Please pay by the due date. If you have already paid, thank you, and please disregard this message.",

		ReminderSubject: [3]string{
			"Payment reminder: due since %s (agreement %s)",
			"Second payment reminder: due since %s (agreement %s)",
			"Final demand for payment: due since %s (agreement %s)",
		},
		ReminderIntro: "according to our records, the following fell due on %s and is still outstanding:",
		ReminderOutro: "Please pay the outstanding amount without delay. If you have paid in the meantime, please disregard this reminder.",
		FinalOutro:    "Despite our reminders this is still unpaid. The attached letter is our final demand: please pay the whole amount within 14 days. Otherwise we will take further steps to recover it without further notice.",
		FinalTitle:    "Final demand for payment",
		FinalDemand:   "Despite our earlier reminders, the amounts listed above remain unpaid. We hereby formally demand that you pay the total of %s within 14 days of receiving this letter. If you do not, we will take further steps to recover the debt, including legal proceedings, without further notice, and will claim interest and the costs of recovery as the law allows.",

		ReceiptSubject:   "Receipt %s",
		ReceiptBody:      "we have received your payment of %s made on %s. Thank you. Receipt %s is attached.",
		SetOffSubject:    "Set-off statement %s",
		SetOffBody:       "on %[2]s we set off %[1]s that we owe you against what you owe under the tenancy; no payment was made. The statement %[3]s, attached, lists the amounts settled by it.",
		QuittanceSubject: "Rent receipt %s",
		QuittanceBody:    "we have received your payment of %s made on %s, which settles the month's rent and charges. Thank you. Rent receipt %s is attached.",

		EndSubject: "Your tenancy ends on %s",
		EndBody:    "your tenancy ends on %s. Please contact us to arrange the handover of the property and the return of the keys.",

		RentChangeSubject: "New rent from %s",
		RentChangeBody:    "from %s the monthly rent is %s (until then %s). Please adjust your standing order from that date.",
		RentChangeIndex:   "This change follows the %[1]s: it stood at %[2]s in %[3]s and at %[4]s in %[5]s, a change of %[6]s %%; the rent changes in the same proportion.",
	},
	"de": {
		Greeting:  "Guten Tag %s,",
		AsWritten: true,
		Closing:   "Mit freundlichen Grüßen",
		Contract:  "Mietvertrag %s, %s",
		Total:     "Gesamt: %s",

		RentCallSubject: "Zahlung fällig am %s (Vertrag %s)",
		RentCallIntro:   "am %s wird Folgendes fällig:",
		RentCallOutro:   "Bitte zahlen Sie bis zum Fälligkeitstag. Falls Sie bereits gezahlt haben, danken wir Ihnen; diese Nachricht ist dann gegenstandslos.",

		ReminderSubject: [3]string{
			"Zahlungserinnerung: fällig seit %s (Vertrag %s)",
			"Mahnung: fällig seit %s (Vertrag %s)",
			"Letzte Mahnung: fällig seit %s (Vertrag %s)",
		},
		ReminderIntro: "nach unseren Unterlagen ist Folgendes seit dem %s fällig und noch offen:",
		ReminderOutro: "Bitte begleichen Sie den offenen Betrag umgehend. Falls Sie inzwischen gezahlt haben, ist diese Erinnerung gegenstandslos.",
		FinalOutro:    "Trotz unserer Erinnerungen ist dieser Betrag weiterhin offen. Das beigefügte Schreiben ist unsere letzte Mahnung: Bitte zahlen Sie den Gesamtbetrag innerhalb von 14 Tagen. Andernfalls werden wir ohne weitere Ankündigung weitere Schritte einleiten.",
		FinalTitle:    "Letzte Mahnung",
		FinalDemand:   "Trotz unserer Zahlungserinnerungen sind die oben aufgeführten Beträge weiterhin offen. Wir fordern Sie hiermit letztmalig auf, den Gesamtbetrag von %s innerhalb von 14 Tagen nach Zugang dieses Schreibens zu zahlen. Nach fruchtlosem Ablauf der Frist werden wir ohne weitere Ankündigung gerichtliche Schritte einleiten und Verzugszinsen sowie die Kosten der Rechtsverfolgung geltend machen (§§ 286, 288 BGB).",

		ReceiptSubject:   "Quittung %s",
		ReceiptBody:      "wir haben Ihre Zahlung über %s vom %s erhalten. Vielen Dank. Die Quittung %s liegt bei.",
		SetOffSubject:    "Verrechnungsmitteilung %s",
		SetOffBody:       "am %[2]s haben wir einen Betrag von %[1]s, den wir Ihnen schulden, mit Ihren offenen Forderungen aus dem Mietverhältnis verrechnet; eine Zahlung ist nicht erfolgt. Die beigefügte Mitteilung %[3]s nennt die damit beglichenen Beträge.",
		QuittanceSubject: "Mietquittung %s",
		QuittanceBody:    "wir haben Ihre Zahlung über %s vom %s erhalten; damit sind Miete und Nebenkosten des Monats vollständig bezahlt. Vielen Dank. Die Mietquittung %s liegt bei.",

		EndSubject: "Ihr Mietverhältnis endet am %s",
		EndBody:    "Ihr Mietverhältnis endet am %s. Bitte sprechen Sie uns an, um die Übergabe der Wohnung und der Schlüssel zu vereinbaren.",

		RentChangeSubject: "Neue Miete ab %s",
		RentChangeBody:    "ab dem %s beträgt die monatliche Miete %s (bisher %s). Bitte passen Sie Ihren Dauerauftrag zu diesem Tag an.",
		RentChangeIndex:   "Grundlage ist die vereinbarte Indexmiete (§ 557b BGB): Der %[1]s stand im %[3]s bei %[2]s und im %[5]s bei %[4]s; das ist eine Änderung um %[6]s %%, um die sich die Miete im selben Verhältnis ändert.",
	},
	"fr": {
		Greeting: "Bonjour %s,",
		Closing:  "Cordialement,",
		Contract: "Bail %s, %s",
		Total:    "Total : %s",

		RentCallSubject: "Paiement à échéance le %s (bail %s)",
		RentCallIntro:   "les sommes suivantes sont exigibles le %s :",
		RentCallOutro:   "Merci de régler avant l’échéance. Si vous avez déjà payé, merci, et veuillez ne pas tenir compte de ce message.",

		ReminderSubject: [3]string{
			"Rappel de paiement : échu depuis le %s (bail %s)",
			"Deuxième rappel de paiement : échu depuis le %s (bail %s)",
			"Mise en demeure de payer : échu depuis le %s (bail %s)",
		},
		ReminderIntro: "selon nos registres, les sommes suivantes étaient exigibles le %s et restent dues :",
		ReminderOutro: "Merci de régler le montant dû sans délai. Si vous avez payé entre-temps, veuillez ne pas tenir compte de ce rappel.",
		FinalOutro:    "Malgré nos rappels, ces sommes restent impayées. Vous trouverez ci-joint notre mise en demeure de payer : nous vous prions de régler l'intégralité de la somme sous huit jours.",
		FinalTitle:    "Mise en demeure de payer",
		FinalDemand:   "Malgré nos précédents rappels, les sommes détaillées ci-dessus demeurent impayées. Par la présente, nous vous mettons en demeure de nous régler la somme totale de %s dans un délai de huit jours à compter de la réception de ce courrier. À défaut, nous nous réservons le droit d'engager toute procédure utile au recouvrement de notre créance, sans autre avis. La présente mise en demeure fait courir les intérêts au taux légal (Code civil, art. 1231-6 et 1344).",

		ReceiptSubject:   "Reçu %s",
		ReceiptBody:      "nous avons bien reçu votre paiement de %s effectué le %s. Merci. Le reçu %s est joint.",
		SetOffSubject:    "Avis de compensation %s",
		SetOffBody:       "le %[2]s, nous avons imputé par compensation la somme de %[1]s que nous vous devons sur les sommes dues au titre du bail ; aucun paiement n'a eu lieu. L'avis %[3]s ci-joint indique les sommes ainsi réglées.",
		QuittanceSubject: "Quittance de loyer %s",
		QuittanceBody:    "nous avons bien reçu votre paiement de %s effectué le %s, qui règle le loyer et les charges du mois. Merci. La quittance de loyer %s est jointe.",

		EndSubject: "Votre bail prend fin le %s",
		EndBody:    "votre bail prend fin le %s. Merci de nous contacter pour convenir de l’état des lieux de sortie et de la remise des clés.",

		RentChangeSubject: "Nouveau loyer à partir du %s",
		RentChangeBody:    "à partir du %s, le loyer mensuel est de %s (jusque-là %s). Merci d’adapter votre virement permanent à cette date.",
		RentChangeIndex:   "Conformément à la clause de révision du bail, le loyer est révisé selon l'%[1]s : indice de référence %[2]s (%[3]s), nouvel indice %[4]s (%[5]s), soit une variation de %[6]s %%.",
	},
	"es": {
		Greeting: "Estimado/a %s:",
		Closing:  "Atentamente,",
		Contract: "Contrato de arrendamiento %s, %s",
		Total:    "Total: %s",

		RentCallSubject: "Pago con vencimiento el %s (contrato %s)",
		RentCallIntro:   "el %s vence lo siguiente:",
		RentCallOutro:   "Le rogamos que pague antes del vencimiento. Si ya ha pagado, muchas gracias; no tenga en cuenta este mensaje.",

		ReminderSubject: [3]string{
			"Recordatorio de pago: vencido desde el %s (contrato %s)",
			"Segundo recordatorio de pago: vencido desde el %s (contrato %s)",
			"Requerimiento de pago: vencido desde el %s (contrato %s)",
		},
		ReminderIntro: "según nuestros registros, lo siguiente venció el %s y sigue pendiente:",
		ReminderOutro: "Le rogamos que abone el importe pendiente sin demora. Si ha pagado entretanto, no tenga en cuenta este recordatorio.",
		FinalOutro:    "A pesar de nuestros recordatorios, el importe sigue pendiente. La carta adjunta es nuestro requerimiento formal de pago: le rogamos abone la totalidad en un plazo de 14 días.",
		FinalTitle:    "Requerimiento de pago",
		FinalDemand:   "A pesar de nuestros recordatorios anteriores, los importes detallados arriba siguen pendientes. Por la presente le requerimos formalmente el pago del total de %s en el plazo de 14 días desde la recepción de esta carta. En caso contrario, emprenderemos sin más aviso las acciones necesarias para su cobro, incluidas las judiciales, y reclamaremos los intereses y costes que la ley permita.",

		ReceiptSubject:   "Recibo %s",
		ReceiptBody:      "hemos recibido su pago de %s realizado el %s. Muchas gracias. Adjuntamos el recibo %s.",
		SetOffSubject:    "Aviso de compensación %s",
		SetOffBody:       "el %[2]s compensamos el importe de %[1]s que le debemos con lo que usted adeuda por el arrendamiento; no se ha realizado ningún pago. El aviso %[3]s adjunto detalla los importes así saldados.",
		QuittanceSubject: "Recibo de alquiler %s",
		QuittanceBody:    "hemos recibido su pago de %s realizado el %s, que salda la renta y los gastos del mes. Muchas gracias. Adjuntamos el recibo de alquiler %s.",

		EndSubject: "Su arrendamiento termina el %s",
		EndBody:    "su arrendamiento termina el %s. Póngase en contacto con nosotros para acordar la entrega de la vivienda y de las llaves.",

		RentChangeSubject: "Nueva renta a partir del %s",
		RentChangeBody:    "a partir del %s la renta mensual es de %s (hasta entonces %s). Le rogamos que ajuste su orden de pago a esa fecha.",
		RentChangeIndex:   "Esta actualización sigue el %[1]s: era %[2]s en %[3]s y es %[4]s en %[5]s, una variación del %[6]s %%; la renta cambia en la misma proporción.",
	},
	"uk": {
		Greeting: "Шановний(-а) %s!",
		Closing:  "З повагою,",
		Contract: "Договір оренди %s, %s",
		Total:    "Разом: %s",

		RentCallSubject: "Платіж до %s (договір %s)",
		RentCallIntro:   "%s настає строк сплати:",
		RentCallOutro:   "Просимо сплатити до цієї дати. Якщо ви вже сплатили, дякуємо, і просимо не зважати на це повідомлення.",

		ReminderSubject: [3]string{
			"Нагадування про оплату: прострочено з %s (договір %s)",
			"Друге нагадування про оплату: прострочено з %s (договір %s)",
			"Вимога про сплату: прострочено з %s (договір %s)",
		},
		ReminderIntro: "за нашими даними, строк сплати настав %s, але ці суми досі не сплачені:",
		ReminderOutro: "Просимо невідкладно сплатити заборгованість. Якщо ви вже сплатили, просимо не зважати на це нагадування.",
		FinalOutro:    "Попри наші нагадування, ця сума досі не сплачена. Доданий лист є нашою остаточною вимогою: просимо сплатити всю суму протягом 14 днів.",
		FinalTitle:    "Вимога про сплату заборгованості",
		FinalDemand:   "Попри наші попередні нагадування, наведені вище суми досі не сплачені. Цим листом ми офіційно вимагаємо сплатити загальну суму %s протягом 14 днів з дня отримання цього листа. Інакше ми без додаткового повідомлення вживемо заходів для стягнення боргу, зокрема в судовому порядку, і вимагатимемо сплати процентів і витрат, передбачених законом.",

		ReceiptSubject:   "Квитанція %s",
		ReceiptBody:      "ми отримали ваш платіж на суму %s від %s. Дякуємо. Квитанцію %s додано.",
		SetOffSubject:    "Повідомлення про зарахування %s",
		SetOffBody:       "%[2]s ми зарахували суму %[1]s, яку ми вам винні, в рахунок вашої заборгованості за договором найму; платежу не було. У доданому повідомленні %[3]s наведено погашені суми.",
		QuittanceSubject: "Квитанція про сплату орендної плати %s",
		QuittanceBody:    "ми отримали ваш платіж на суму %s від %s, яким повністю сплачено орендну плату та платежі за місяць. Дякуємо. Квитанцію %s додано.",

		EndSubject: "Ваша оренда закінчується %s",
		EndBody:    "ваша оренда закінчується %s. Будь ласка, зв’яжіться з нами, щоб домовитися про передачу житла та ключів.",

		RentChangeSubject: "Нова орендна плата з %s",
		RentChangeBody:    "з %s щомісячна орендна плата становить %s (до того %s). Просимо змінити ваше регулярне доручення з цієї дати.",
		RentChangeIndex:   "Зміна відбувається відповідно до індексу «%[1]s»: %[2]s у %[3]s і %[4]s у %[5]s, тобто зміна на %[6]s %%; орендна плата змінюється в тій самій пропорції.",
	},
}

// wordingOf is locale's wording, English when the notices do not speak it.
func wordingOf(locale string) wording {
	if w, ok := wordings[locale]; ok {
		return w
	}
	return wordings["en"]
}
