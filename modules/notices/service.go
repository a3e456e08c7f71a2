package notices

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/messages"
	"github.com/propman/propman/modules/payments"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/receipts"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/jobs"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Service decides the notices and writes them, through the messages
// module, in the contract's language.
type Service struct {
	db        *bun.DB
	store     *store
	clock     clock.Clock
	log       *slog.Logger
	queue     *jobs.Queue
	contracts *contracts.Service
	tenants   *contragents.Service
	props     *properties.Service
	accounts  *accounts.Service
	expenses  *expenses.Service
	payments  *payments.Service
	messages  *messages.Service
	receipts  *receipts.Service
	forms     *printforms.Service
	source    printforms.ReceiptSource
	files     *documents.Files
	batch     batchKnobs
}

// ServiceParams are the service's dependencies as fx provides them.
type ServiceParams struct {
	fx.In

	DB          *bun.DB
	Clock       clock.Clock
	Log         *slog.Logger
	Queue       *jobs.Queue
	Contracts   *contracts.Service
	Contragents *contragents.Service
	Properties  *properties.Service
	Accounts    *accounts.Service
	Expenses    *expenses.Service
	Payments    *payments.Service
	Messages    *messages.Service
	Receipts    *receipts.Service
	Forms       *printforms.Service
	Source      printforms.ReceiptSource
	Files       *documents.Files
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, store: &store{db: p.DB}, clock: p.Clock, log: p.Log, queue: p.Queue,
		contracts: p.Contracts, tenants: p.Contragents, props: p.Properties,
		accounts: p.Accounts, expenses: p.Expenses, payments: p.Payments, messages: p.Messages, receipts: p.Receipts,
		forms: p.Forms, source: p.Source, files: p.Files}
}

// letter is what every notice of one contract shares: the people, the
// property, the language.
type letter struct {
	contract *contracts.Contract
	prop     *properties.Property
	tenant   string
	landlord string
	// The tenant's and the landlord's postal addresses, as one line each
	// ("" when none is on file).
	tenantAddress, landlordAddress string
	w                              wording
	st                             printforms.Style
	// chargeName is a charge's name in the contract's language.
	chargeName func(string) string
}

// letterFor reads, through tx (a transaction, or the pool for a letter
// only shown), who and what a notice of contract c names.
func (s *Service) letterFor(ctx context.Context, tx bun.IDB, c *contracts.Contract) (*letter, error) {
	cg, err := s.tenants.ByID(ctx, tx, c.TenantID)
	if err != nil {
		return nil, err
	}
	prop, owner, err := s.store.propertyAndOwner(ctx, tx, c)
	if err != nil {
		return nil, err
	}
	return s.letterOf(c, cg, prop, owner), nil
}

// letterOf is the letter of contract c to tenant cg about prop from owner,
// read before (one by one, or a batch's at once).
func (s *Service) letterOf(c *contracts.Contract, cg *contragents.Contragent, prop *properties.Property, owner *accounts.User) *letter {
	landlordAddress := ""
	if a := owner.PostalAddress(); a != nil {
		landlordAddress = strings.Join(nonEmpty(a.Address, strings.TrimSpace(a.PostalCode+" "+a.City)), ", ")
	}
	return &letter{contract: c, prop: prop, tenant: cg.Name, landlord: owner.Name,
		tenantAddress: printforms.AddressLine(cg.Address), landlordAddress: landlordAddress,
		w: wordingOf(c.Locale), st: printforms.StyleOf(c.Locale),
		chargeName: func(name string) string { return s.forms.ChargeName(c.Locale, name) }}
}

// body is the letter around paragraphs: greeting, the paragraphs, the
// contract and property it is about, the closing and the landlord.
func (l *letter) body(paragraphs ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, l.w.Greeting, l.tenant)
	first := true
	for _, p := range paragraphs {
		// An empty paragraph (no bank account on file) leaves no gap.
		if p == "" {
			continue
		}
		if first {
			p = l.opening(p)
			first = false
		}
		b.WriteString("\n\n")
		b.WriteString(p)
	}
	b.WriteString("\n\n")
	fmt.Fprintf(&b, l.w.Contract, l.contract.Number, l.place())
	b.WriteString("\n\n")
	b.WriteString(l.w.Closing)
	if name := strings.TrimSpace(l.landlord); name != "" {
		b.WriteString("\n")
		b.WriteString(name)
	}
	return b.String()
}

// opening writes the letter's first sentence as the salutation before it
// asks: English, French, Spanish and Ukrainian begin the text with a
// capital; German goes on in lower case after "Guten Tag …," (DIN 5008)
// but keeps nouns and the polite "Ihr" and "Sie" capitalised, so its
// wording is taken as written.
func (l *letter) opening(p string) string {
	if l.w.AsWritten {
		return p
	}
	r, size := utf8.DecodeRuneInString(p)
	return string(unicode.ToUpper(r)) + p[size:]
}

// place is the property as a letter names it: its name and address.
func (l *letter) place() string {
	place := l.prop.Name
	if a := strings.TrimSpace(strings.Join(nonEmpty(l.prop.Address, strings.TrimSpace(l.prop.PostalCode+" "+l.prop.City)), ", ")); a != "" {
		place += " (" + a + ")"
	}
	return place
}

// chargeLines lists what is owed of charges, one line each, and the total.
func (l *letter) chargeLines(charges []expenses.Charge) string {
	var b strings.Builder
	var total money.Amount
	for i := range charges {
		c := &charges[i]
		b.WriteString("- ")
		b.WriteString(l.chargeName(c.Name))
		if c.Period != "" {
			b.WriteString(" (" + l.st.Period(c.Period) + ")")
		}
		b.WriteString(l.st.Colon() + " ")
		b.WriteString(l.st.Money(c.Outstanding(), c.Currency))
		b.WriteString("\n")
		total += c.Outstanding()
	}
	fmt.Fprintf(&b, l.w.Total, l.st.Money(total, charges[0].Currency))
	return b.String()
}

func nonEmpty(parts ...string) []string {
	var out []string
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, strings.TrimSpace(p))
		}
	}
	return out
}

// notify writes one notice in its own transaction: build reads what the
// notice says (through tx) and returns it. sent is false when the notice
// existed already (another instance, an earlier attempt).
func (s *Service) notify(ctx context.Context, contractID uuid.UUID, build func(ctx context.Context, tx bun.Tx, c *contracts.Contract) (messages.Notice, error)) (sent bool, err error) {
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		c, err := s.contracts.ByID(ctx, tx, contractID)
		if err != nil {
			return err
		}
		n, err := build(ctx, tx, c)
		if err != nil {
			return err
		}
		_, sent, err = s.messages.Notify(ctx, tx, n)
		return err
	})
	return sent, err
}

// now is the clock's time at the precision both databases keep.
func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// AuthorizeContract is the contract with the raw id when p may see it.
func (s *Service) AuthorizeContract(ctx context.Context, p auth.Principal, rawID string) (*contracts.Contract, error) {
	return s.contracts.Authorize(ctx, p, rawID)
}

// dateOf parses a run's local date.
func dateOf(local string) (period.Date, error) {
	d, err := period.ParseDate(local)
	if err != nil {
		return period.Date{}, fmt.Errorf("notices: run date %q: %w", local, err)
	}
	return d, nil
}
