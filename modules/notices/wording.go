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
	// Contract: the contract's number, the property.
	Contract string
	// Total: the amount.
	Total string

	// RentCallSubject: the due date, the contract's number.
	RentCallSubject string
	// RentCallIntro: the due date.
	RentCallIntro string
	RentCallOutro string

	// ReminderSubject by step (1, 7, 14 days): the due date, the number.
	ReminderSubject [3]string
	// ReminderIntro: the due date.
	ReminderIntro string
	ReminderOutro string

	// ReceiptSubject: the receipt's number.
	ReceiptSubject string
	// ReceiptBody: the amount, the day paid, the receipt's number.
	ReceiptBody string
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
			"Final payment reminder: due since %s (agreement %s)",
		},
		ReminderIntro: "according to our records, the following fell due on %s and is still outstanding:",
		ReminderOutro: "Please pay the outstanding amount without delay. If you have paid in the meantime, please disregard this reminder.",

		ReceiptSubject: "Receipt %s",
		ReceiptBody:    "we have received your payment of %s made on %s. Thank you. Receipt %s is attached.",
		SetOffSubject:  "Set-off statement %s",
		SetOffBody:     "on %[2]s we set off %[1]s that we owe you against what you owe under the tenancy; no payment was made. The statement %[3]s, attached, lists the amounts settled by it.",

		EndSubject: "Your tenancy ends on %s",
		EndBody:    "your tenancy ends on %s. Please contact us to arrange the handover of the property and the return of the keys.",

		RentChangeSubject: "New rent from %s",
		RentChangeBody:    "from %s the monthly rent is %s (until then %s). Please adjust your standing order from that date.",
	},
	"de": {
		Greeting: "Guten Tag %s,",
		Closing:  "Mit freundlichen Grüßen",
		Contract: "Mietvertrag %s, %s",
		Total:    "Gesamt: %s",

		RentCallSubject: "Zahlung fällig am %s (Vertrag %s)",
		RentCallIntro:   "am %s wird Folgendes fällig:",
		RentCallOutro:   "Bitte zahlen Sie bis zum Fälligkeitstag. Falls Sie bereits gezahlt haben, danken wir Ihnen; diese Nachricht ist dann gegenstandslos.",

		ReminderSubject: [3]string{
			"Zahlungserinnerung: fällig seit %s (Vertrag %s)",
			"Zweite Zahlungserinnerung: fällig seit %s (Vertrag %s)",
			"Letzte Zahlungserinnerung: fällig seit %s (Vertrag %s)",
		},
		ReminderIntro: "nach unseren Unterlagen ist Folgendes seit dem %s fällig und noch offen:",
		ReminderOutro: "Bitte begleichen Sie den offenen Betrag umgehend. Falls Sie inzwischen gezahlt haben, ist diese Erinnerung gegenstandslos.",

		ReceiptSubject: "Quittung %s",
		ReceiptBody:    "wir haben Ihre Zahlung über %s vom %s erhalten. Vielen Dank. Die Quittung %s liegt bei.",
		SetOffSubject:  "Verrechnungsmitteilung %s",
		SetOffBody:     "am %[2]s haben wir einen Betrag von %[1]s, den wir Ihnen schulden, mit Ihren offenen Forderungen aus dem Mietverhältnis verrechnet; eine Zahlung ist nicht erfolgt. Die beigefügte Mitteilung %[3]s nennt die damit beglichenen Beträge.",

		EndSubject: "Ihr Mietverhältnis endet am %s",
		EndBody:    "Ihr Mietverhältnis endet am %s. Bitte sprechen Sie uns an, um die Übergabe der Wohnung und der Schlüssel zu vereinbaren.",

		RentChangeSubject: "Neue Miete ab %s",
		RentChangeBody:    "ab dem %s beträgt die monatliche Miete %s (bisher %s). Bitte passen Sie Ihren Dauerauftrag zu diesem Tag an.",
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
			"Dernier rappel de paiement : échu depuis le %s (bail %s)",
		},
		ReminderIntro: "selon nos registres, les sommes suivantes étaient exigibles le %s et restent dues :",
		ReminderOutro: "Merci de régler le montant dû sans délai. Si vous avez payé entre-temps, veuillez ne pas tenir compte de ce rappel.",

		ReceiptSubject: "Quittance %s",
		ReceiptBody:    "nous avons bien reçu votre paiement de %s effectué le %s. Merci. La quittance %s est jointe.",
		SetOffSubject:  "Avis de compensation %s",
		SetOffBody:     "le %[2]s, nous avons imputé par compensation la somme de %[1]s que nous vous devons sur les sommes dues au titre du bail ; aucun paiement n'a eu lieu. L'avis %[3]s ci-joint indique les sommes ainsi réglées.",

		EndSubject: "Votre bail prend fin le %s",
		EndBody:    "votre bail prend fin le %s. Merci de nous contacter pour convenir de l’état des lieux de sortie et de la remise des clés.",

		RentChangeSubject: "Nouveau loyer à partir du %s",
		RentChangeBody:    "à partir du %s, le loyer mensuel est de %s (jusque-là %s). Merci d’adapter votre virement permanent à cette date.",
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
			"Último recordatorio de pago: vencido desde el %s (contrato %s)",
		},
		ReminderIntro: "según nuestros registros, lo siguiente venció el %s y sigue pendiente:",
		ReminderOutro: "Le rogamos que abone el importe pendiente sin demora. Si ha pagado entretanto, no tenga en cuenta este recordatorio.",

		ReceiptSubject: "Recibo %s",
		ReceiptBody:    "hemos recibido su pago de %s realizado el %s. Muchas gracias. Adjuntamos el recibo %s.",
		SetOffSubject:  "Aviso de compensación %s",
		SetOffBody:     "el %[2]s compensamos el importe de %[1]s que le debemos con lo que usted adeuda por el arrendamiento; no se ha realizado ningún pago. El aviso %[3]s adjunto detalla los importes así saldados.",

		EndSubject: "Su arrendamiento termina el %s",
		EndBody:    "su arrendamiento termina el %s. Póngase en contacto con nosotros para acordar la entrega de la vivienda y de las llaves.",

		RentChangeSubject: "Nueva renta a partir del %s",
		RentChangeBody:    "a partir del %s la renta mensual es de %s (hasta entonces %s). Le rogamos que ajuste su orden de pago a esa fecha.",
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
			"Останнє нагадування про оплату: прострочено з %s (договір %s)",
		},
		ReminderIntro: "за нашими даними, строк сплати настав %s, але ці суми досі не сплачені:",
		ReminderOutro: "Просимо невідкладно сплатити заборгованість. Якщо ви вже сплатили, просимо не зважати на це нагадування.",

		ReceiptSubject: "Квитанція %s",
		ReceiptBody:    "ми отримали ваш платіж на суму %s від %s. Дякуємо. Квитанцію %s додано.",
		SetOffSubject:  "Повідомлення про зарахування %s",
		SetOffBody:     "%[2]s ми зарахували суму %[1]s, яку ми вам винні, в рахунок вашої заборгованості за договором найму; платежу не було. У доданому повідомленні %[3]s наведено погашені суми.",

		EndSubject: "Ваша оренда закінчується %s",
		EndBody:    "ваша оренда закінчується %s. Будь ласка, зв’яжіться з нами, щоб домовитися про передачу житла та ключів.",

		RentChangeSubject: "Нова орендна плата з %s",
		RentChangeBody:    "з %s щомісячна орендна плата становить %s (до того %s). Просимо змінити ваше регулярне доручення з цієї дати.",
	},
}

// wordingOf is locale's wording, English when the notices do not speak it.
func wordingOf(locale string) wording {
	if w, ok := wordings[locale]; ok {
		return w
	}
	return wordings["en"]
}
