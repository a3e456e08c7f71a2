package repairs

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/bills"
	"github.com/propman/propman/modules/calendar"
	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/messages"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/translations"
	"github.com/propman/propman/modules/workspaces"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/mail"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Service holds the rules of repairs.
type Service struct {
	db          *bun.DB
	store       *Store
	cfg         Config
	clock       clock.Clock
	mailer      mail.Mailer
	contracts   *contracts.Service
	contragents *contragents.Service
	messages    *messages.Service
	files       *documents.Files
	dicts       *translations.Dictionaries
	calendar    *calendar.Service
	log         *slog.Logger
	workspaces  *workspaces.Service
	accounts    *accounts.Service
	bills       *bills.Service
	charges     *expenses.Service
}

// ServiceParams are the service's dependencies.
type ServiceParams struct {
	fx.In

	DB          *bun.DB
	Store       *Store
	Config      Config
	Clock       clock.Clock
	Mailer      mail.Mailer
	Contracts   *contracts.Service
	Contragents *contragents.Service
	Messages    *messages.Service
	Files       *documents.Files
	Dicts       *translations.Dictionaries `optional:"true"`
	Calendar    *calendar.Service
	Log         *slog.Logger
	Workspaces  *workspaces.Service
	Accounts    *accounts.Service
	Bills       *bills.Service
	Charges     *expenses.Service
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, store: p.Store, cfg: p.Config, clock: p.Clock, mailer: p.Mailer, contracts: p.Contracts,
		contragents: p.Contragents, messages: p.Messages, files: p.Files, dicts: p.Dicts, calendar: p.Calendar,
		log: p.Log, workspaces: p.Workspaces, accounts: p.Accounts, bills: p.Bills, charges: p.Charges}
}

func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

func (s *Service) words(locale string) wording { return wording{dicts: s.dicts, locale: locale} }

func errNotFound() error { return fault.NotFound("Repair request not found.") }

// errNoOrder is the one answer for a provider's token that is unknown or
// expired: the page is no oracle of which.
func errNoOrder() error {
	return fault.New(fault.KindNotFound, "work_order_not_found", "This work order does not exist or its link has expired.")
}

func errTransition(what, from, to string) error {
	return fault.Conflict("invalid_transition", fmt.Sprintf("A %s that is %s cannot become %s.", what, from, to))
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// Input is a repair request as the handler checked it.
type Input struct {
	ContractID     *uuid.UUID
	Title          string
	Description    string
	Category       string
	Urgency        string
	AccessNotes    string
	PreferredTimes string
	Photos         []uuid.UUID
}

// Report records a request from the tenant of c (the portal): the
// contract's thread hears of it.
func (s *Service) Report(ctx context.Context, userID int64, prop *properties.Property, c *contracts.Contract, in Input) (*Request, error) {
	in.ContractID = &c.ID
	return s.create(ctx, userID, FromTenant, prop, in)
}

// Record records a request a member makes for prop, of one of its
// contracts when ContractID is set (its thread then hears of every step).
func (s *Service) Record(ctx context.Context, p auth.Principal, prop *properties.Property, in Input) (*Request, error) {
	return s.create(ctx, p.UserID, FromMember, prop, in)
}

func (s *Service) create(ctx context.Context, userID int64, source string, prop *properties.Property, in Input) (*Request, error) {
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("repair request id: %w", err)
	}
	now := s.now()
	r := &Request{ID: id, WorkspaceID: prop.WorkspaceID, PropertyID: prop.ID, ContractID: in.ContractID, Source: source,
		ReportedBy: userID, Title: in.Title, Description: in.Description, Category: in.Category, Urgency: in.Urgency,
		AccessNotes: in.AccessNotes, PreferredTimes: in.PreferredTimes, Photos: idsJSON(in.Photos), Status: Reported,
		DeadlineAt: now.Add(deadlines[in.Urgency]), CreatedAt: now, UpdatedAt: now}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		var details []string
		if in.ContractID != nil {
			c, err := s.contracts.ByID(ctx, tx, *in.ContractID)
			switch {
			case errors.Is(err, contracts.ErrNotFound) || (err == nil && c.PropertyID != prop.ID):
				details = append(details, "contract_id: must be a contract of this property")
			case err != nil:
				return err
			case c.Status == contracts.Draft:
				details = append(details, "contract_id: the contract is a draft; it has no tenant to tell yet")
			}
		}
		if len(in.Photos) > 0 {
			found, err := s.files.OfProperty(ctx, tx, prop.ID, in.Photos)
			if err != nil {
				return err
			}
			if len(found) != len(in.Photos) {
				details = append(details, "photos: every id must be a document of this property")
			}
			for _, f := range found {
				if !strings.HasPrefix(f.ContentType, "image/") {
					details = append(details, "photos: "+f.ID.String()+" is not an image")
				}
			}
		}
		if len(details) > 0 {
			return fault.Validation(details...)
		}
		if err := s.store.insertRequest(ctx, tx, r); err != nil {
			return err
		}
		if err := s.tell(ctx, tx, r, "reported", ""); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Created, RecordType: "repair_request", RecordID: r.ID.String(),
			WorkspaceID: r.WorkspaceID, Changes: activity.Diff(nil, toJSON(r, nil, true))})
	})
	if err != nil {
		return nil, err
	}
	return r, nil
}

// tell writes the step's message in the thread of r's contract (mailed to
// the tenant when they have an address), in the contract's language; a
// request without a contract has no thread. occasion tells apart steps of
// one kind (a work order's id). vars are the step's own placeholders; the
// request's title, category, urgency and deadline are always there.
func (s *Service) tell(ctx context.Context, tx bun.Tx, r *Request, step, occasion string, vars ...string) error {
	return s.tellKey(ctx, tx, r, step, "repairs."+step+".body", occasion, vars...)
}

// tellKey is tell with the body's catalogue key given (a step worded by
// country).
func (s *Service) tellKey(ctx context.Context, tx bun.Tx, r *Request, step, bodyKey, occasion string, vars ...string) error {
	if r.ContractID == nil {
		return nil
	}
	c, err := s.contracts.ByID(ctx, tx, *r.ContractID)
	if err != nil {
		return err
	}
	w := s.words(c.Locale)
	all := append(slices.Clone(vars), "title", r.Title, "category", w.category(r.Category), "urgency", w.urgency(r.Urgency),
		"deadline", w.when(r.DeadlineAt))
	stepKey := step
	if occasion != "" {
		stepKey += "-" + occasion
	}
	_, _, err = s.messages.Notify(ctx, tx, messages.Notice{Kind: "repair", Subject: r.ID, Step: stepKey, ContractID: c.ID,
		Title: w.say("repairs."+step+".subject", all...), Body: w.say(bodyKey, all...)})
	return err
}

// Request returns the request with the raw id under prop.
func (s *Service) Request(ctx context.Context, prop *properties.Property, rawID string) (*Request, *WorkOrder, error) {
	r, err := s.find(ctx, s.db, rawID, func(r *Request) bool { return r.PropertyID == prop.ID })
	if err != nil {
		return nil, nil, err
	}
	o, err := s.latest(ctx, s.db, r.ID)
	return r, o, err
}

// TenantRequest returns the request with the raw id when it is of c.
func (s *Service) TenantRequest(ctx context.Context, c *contracts.Contract, rawID string) (*Request, *WorkOrder, error) {
	r, err := s.find(ctx, s.db, rawID, func(r *Request) bool { return r.ContractID != nil && *r.ContractID == c.ID })
	if err != nil {
		return nil, nil, err
	}
	o, err := s.latest(ctx, s.db, r.ID)
	return r, o, err
}

func (s *Service) find(ctx context.Context, db bun.IDB, rawID string, mine func(*Request) bool) (*Request, error) {
	id, err := uuid.Parse(rawID)
	if err != nil || len(rawID) != 36 {
		return nil, errNotFound()
	}
	r, err := s.store.request(ctx, db, id)
	if errors.Is(err, errNoRow) || (err == nil && !mine(r)) {
		return nil, errNotFound()
	}
	return r, err
}

func (s *Service) latest(ctx context.Context, db bun.IDB, requestID uuid.UUID) (*WorkOrder, error) {
	o, err := s.store.latestOrder(ctx, db, requestID)
	if errors.Is(err, errNoRow) {
		return nil, nil
	}
	return o, err
}

// Page is one page of requests with each one's latest work order.
type Page struct {
	Requests []Request
	Orders   map[uuid.UUID]*WorkOrder
	Result   listing.Result
}

func (s *Service) page(ctx context.Context, list []Request, res listing.Result, err error) (*Page, error) {
	if err != nil {
		return nil, err
	}
	ids := make([]uuid.UUID, len(list))
	for i := range list {
		ids[i] = list[i].ID
	}
	orders, err := s.store.latestOrders(ctx, ids)
	if err != nil {
		return nil, err
	}
	return &Page{Requests: list, Orders: orders, Result: res}, nil
}

// List returns one page of prop's requests, oldest first.
func (s *Service) List(ctx context.Context, prop *properties.Property, q listing.Query) (*Page, error) {
	list, res, err := s.store.ofProperty(ctx, prop.ID, q)
	return s.page(ctx, list, res, err)
}

// OfContract returns one page of c's requests, oldest first.
func (s *Service) OfContract(ctx context.Context, c *contracts.Contract, q listing.Query) (*Page, error) {
	list, res, err := s.store.ofContract(ctx, c.ID, q)
	return s.page(ctx, list, res, err)
}

// Overdue returns one page of p's workspace's open requests past their
// deadline, the most overdue first.
func (s *Service) Overdue(ctx context.Context, p auth.Principal, q listing.Query) (*Page, error) {
	list, res, err := s.store.overdue(ctx, p.WorkspaceID, s.now(), q)
	return s.page(ctx, list, res, err)
}

// next is what a member may move a request to, from each state; the
// states between are the work order's (ordered, scheduled, done).
var next = map[string][]string{
	Reported: {Triaged, Rejected},
	Triaged:  {Rejected},
	Done:     {Closed},
}

// Transition moves the request with the raw id under prop to to (triaged,
// rejected with a reason, or closed): 409 invalid_transition otherwise.
func (s *Service) Transition(ctx context.Context, prop *properties.Property, rawID, to, reason string) (*Request, *WorkOrder, error) {
	var out *Request
	var order *WorkOrder
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		r, err := s.find(ctx, tx, rawID, func(r *Request) bool { return r.PropertyID == prop.ID })
		if err != nil {
			return err
		}
		if !slices.Contains(next[r.Status], to) {
			return errTransition("repair request", r.Status, to)
		}
		before := toJSON(r, nil, true)
		from := r.Status
		r.Status, r.UpdatedAt = to, s.now()
		cols := []string{}
		if to == Rejected {
			r.RejectReason = reason
			cols = append(cols, "reject_reason")
		}
		if ok, err := s.store.moveRequest(ctx, tx, r, from, cols...); err != nil || !ok {
			if err == nil {
				err = errTransition("repair request", "no longer "+from, to)
			}
			return err
		}
		if err := s.tell(ctx, tx, r, to, "", "reason", reason); err != nil {
			return err
		}
		out = r
		if order, err = s.latest(ctx, tx, r.ID); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "repair_request", RecordID: r.ID.String(),
			WorkspaceID: r.WorkspaceID, Changes: activity.Diff(before, toJSON(r, nil, true))})
	})
	if err != nil {
		return nil, nil, err
	}
	return out, order, nil
}

// Order sends a triaged request to a service provider of the workspace: a
// work order whose link (a random token, stored hashed, valid
// modules.repairs.orderttl) is mailed to the provider in locale of the
// contract, else of the member who orders. The request becomes ordered.
func (s *Service) Order(ctx context.Context, p auth.Principal, prop *properties.Property, rawID, rawProvider string) (*Request, *WorkOrder, error) {
	provider, err := s.contragents.Get(ctx, &p, rawProvider)
	if err != nil {
		if fault.Is(err, fault.KindNotFound) || fault.Is(err, fault.KindForbidden) {
			return nil, nil, fault.Validation("provider_id: must be a contragent of this workspace")
		}
		return nil, nil, err
	}
	var details []string
	if !provider.HasRole(contragents.RoleProvider) {
		details = append(details, "provider_id: the contragent does not have the role provider")
	}
	email := accounts.NormalizeEmail(provider.Email)
	if !accounts.ValidEmail(email) {
		details = append(details, "provider_id: the provider has no email address to send the work order to")
	}
	if len(details) > 0 {
		return nil, nil, fault.Validation(details...)
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, nil, fmt.Errorf("work order token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	id, err := uuid.NewV7()
	if err != nil {
		return nil, nil, fmt.Errorf("work order id: %w", err)
	}
	landlord, locale := "", accounts.DefaultLocale
	if u, ok := p.Record.(*accounts.User); ok {
		landlord, locale = u.Name, u.Locale
	}
	var r *Request
	now := s.now()
	o := &WorkOrder{ID: id, WorkspaceID: prop.WorkspaceID, ProviderID: provider.ID, TokenHash: hashToken(token),
		ExpiresAt: now.Add(s.cfg.OrderTTL), Status: OrderSent, Slots: "[]", DonePhotos: "[]", CreatedBy: p.UserID, CreatedAt: now, UpdatedAt: now}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		r, err = s.find(ctx, tx, rawID, func(r *Request) bool { return r.PropertyID == prop.ID })
		if err != nil {
			return err
		}
		if r.Status != Triaged {
			return errTransition("repair request", r.Status, Ordered)
		}
		if r.ContractID != nil {
			c, err := s.contracts.ByID(ctx, tx, *r.ContractID)
			if err != nil {
				return err
			}
			if c.Locale != "" {
				locale = c.Locale
			}
		}
		o.RequestID, o.Locale = r.ID, locale
		before := toJSON(r, nil, true)
		r.Status, r.UpdatedAt = Ordered, now
		if ok, err := s.store.moveRequest(ctx, tx, r, Triaged); err != nil || !ok {
			if err == nil {
				err = errTransition("repair request", "no longer triaged", Ordered)
			}
			return err
		}
		if err := s.store.insertOrder(ctx, tx, o); err != nil {
			return err
		}
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "repair_request", RecordID: r.ID.String(),
			WorkspaceID: r.WorkspaceID, Changes: activity.Diff(before, toJSON(r, o, true))})
	})
	if err != nil {
		return nil, nil, err
	}
	// Sent after the commit, so no writer waits on the mail server; an
	// order whose mail could not go is taken back.
	if err := s.sendOrder(ctx, provider, landlord, prop, r, o, token); err != nil {
		undo := func(ctx context.Context, tx bun.Tx) error {
			if err := s.store.deleteOrder(ctx, tx, o.ID); err != nil {
				return err
			}
			r.Status = Triaged
			_, err := s.store.moveRequest(ctx, tx, r, Ordered)
			return err
		}
		if uerr := database.RunInTx(context.WithoutCancel(ctx), s.db, undo); uerr != nil {
			return nil, nil, uerr
		}
		return nil, nil, fault.Unavailable("The work order mail could not be sent; the request stays triaged. Try again later.")
	}
	// The tenant hears of the order only once the provider has it: a
	// message cannot be taken back with an order whose mail failed.
	err = database.RunInTx(context.WithoutCancel(ctx), s.db, func(ctx context.Context, tx bun.Tx) error {
		return s.tell(ctx, tx, r, "ordered", o.ID.String(), "provider", provider.Name)
	})
	if err != nil {
		return nil, nil, err
	}
	return r, o, nil
}

// sendOrder mails the provider the order and its link.
func (s *Service) sendOrder(ctx context.Context, provider *contragents.Contragent, landlord string, prop *properties.Property,
	r *Request, o *WorkOrder, token string) error {
	w := s.words(o.Locale)
	link := s.cfg.Link + token
	address := strings.TrimSpace(strings.Join(nonEmpty(prop.Address, strings.TrimSpace(prop.PostalCode+" "+prop.City)), ", "))
	if address == "" {
		address = prop.Name
	}
	vars := []string{"name", provider.Name, "landlord", landlord, "address", address, "title", r.Title,
		"date", w.when(o.ExpiresAt)}
	lines := [][2]string{
		{w.say("repairs.order.what"), r.Title},
		{w.say("repairs.order.category"), w.category(r.Category)},
		{w.say("repairs.order.urgency"), w.urgency(r.Urgency)},
		{w.say("repairs.order.deadline"), w.when(r.DeadlineAt)},
		{w.say("repairs.order.description"), r.Description},
	}
	if r.AccessNotes != "" {
		lines = append(lines, [2]string{w.say("repairs.order.access"), r.AccessNotes})
	}
	if r.PreferredTimes != "" {
		lines = append(lines, [2]string{w.say("repairs.order.preferred"), r.PreferredTimes})
	}
	var text, htm strings.Builder
	text.WriteString(w.say("repairs.order.greeting", vars...) + "\n\n" + w.say("repairs.order.intro", vars...) + "\n\n")
	htm.WriteString("<p>" + html.EscapeString(w.say("repairs.order.greeting", vars...)) + "</p><p>" +
		html.EscapeString(w.say("repairs.order.intro", vars...)) + "</p><p>")
	for _, l := range lines {
		text.WriteString(l[0] + ": " + l[1] + "\n")
		htm.WriteString("<b>" + html.EscapeString(l[0]) + ":</b> " + strings.ReplaceAll(html.EscapeString(l[1]), "\n", "<br>") + "<br>")
	}
	text.WriteString("\n" + w.say("repairs.order.link", vars...) + "\n" + link + "\n\n" + w.say("repairs.order.validity", vars...) + "\n")
	htm.WriteString("</p><p>" + html.EscapeString(w.say("repairs.order.link", vars...)) + `<br><a href="` + html.EscapeString(link) + `">` +
		html.EscapeString(link) + "</a></p><p>" + html.EscapeString(w.say("repairs.order.validity", vars...)) + "</p>")
	return s.mailer.Send(ctx, mail.Message{To: accounts.NormalizeEmail(provider.Email),
		Subject: w.say("repairs.order.subject", vars...), Text: text.String(), HTML: htm.String()})
}

func nonEmpty(parts ...string) []string {
	out := parts[:0]
	for _, p := range parts {
		if strings.TrimSpace(p) != "" {
			out = append(out, strings.TrimSpace(p))
		}
	}
	return out
}

// ProviderView is what a provider's token opens: the order, its request
// and the property.
type ProviderView struct {
	Order    *WorkOrder
	Request  *Request
	Place    string
	Provider *contragents.Contragent
}

// byToken reads the order of token through db: 404 work_order_not_found
// when unknown or expired.
func (s *Service) byToken(ctx context.Context, db bun.IDB, token string) (*WorkOrder, *Request, error) {
	if len(token) != 43 {
		return nil, nil, errNoOrder()
	}
	o, err := s.store.orderByHash(ctx, db, hashToken(token))
	if errors.Is(err, errNoRow) || (err == nil && !s.now().Before(o.ExpiresAt)) {
		return nil, nil, errNoOrder()
	}
	if err != nil {
		return nil, nil, err
	}
	r, err := s.store.request(ctx, db, o.RequestID)
	if err != nil {
		return nil, nil, err
	}
	return o, r, nil
}

// ProviderOrder returns what the provider's page shows.
func (s *Service) ProviderOrder(ctx context.Context, token string) (*ProviderView, error) {
	o, r, err := s.byToken(ctx, s.db, token)
	if err != nil {
		return nil, err
	}
	return s.view(ctx, s.db, o, r)
}

func (s *Service) view(ctx context.Context, db bun.IDB, o *WorkOrder, r *Request) (*ProviderView, error) {
	v := &ProviderView{Order: o, Request: r}
	places, err := properties.Places(ctx, db, []uuid.UUID{r.PropertyID})
	if err != nil {
		return nil, err
	}
	v.Place = places[r.PropertyID]
	if v.Provider, err = s.contragents.ByID(ctx, db, o.ProviderID); err != nil {
		return nil, err
	}
	return v, nil
}

// ProviderAction is one of the provider's answers on their page.
type ProviderAction struct {
	// Verb is accept, decline, slots or done.
	Verb    string
	Slots   []Slot
	Note    string
	Invoice *money.Amount
	// InvoiceVAT is the VAT the invoice states (at most Invoice).
	InvoiceVAT *money.Amount
}

// Act applies the provider's answer to the order of token:
//   - accept: a sent order becomes accepted;
//   - decline: a sent or accepted order becomes declined and its request,
//     if still ordered, triaged again (the member orders from another);
//   - slots: an accepted order of an ordered request offers times (each
//     in the future), replacing earlier offers;
//   - done: an accepted order of a scheduled request is done, with a note
//     and the invoice amount; the request becomes done.
//
// Anything else is 409 invalid_transition. The tenant's thread hears of
// each.
func (s *Service) Act(ctx context.Context, token string, a ProviderAction) (*ProviderView, error) {
	var view *ProviderView
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		o, r, err := s.byToken(ctx, tx, token)
		if err != nil {
			return err
		}
		now := s.now()
		from := o.Status
		cols := []string{}
		var reqTo string
		vars := []string{}
		switch a.Verb {
		case "accept":
			if o.Status != OrderSent {
				return errTransition("work order", o.Status, OrderAccepted)
			}
			o.Status = OrderAccepted
		case "decline":
			if o.Status != OrderSent && o.Status != OrderAccepted {
				return errTransition("work order", o.Status, OrderDeclined)
			}
			if r.Status != Ordered {
				return errTransition("repair request", r.Status, Triaged)
			}
			o.Status, o.Note, reqTo = OrderDeclined, a.Note, Triaged
			cols = append(cols, "note")
		case "slots":
			if o.Status != OrderAccepted || r.Status != Ordered {
				return fault.Conflict("invalid_transition", "Times can be offered only on an accepted work order whose visit is not booked yet.")
			}
			var bad []string
			for i, sl := range a.Slots {
				if !sl.Start.After(now) {
					bad = append(bad, fmt.Sprintf("slots[%d].start: must be in the future", i))
				}
			}
			if len(bad) > 0 {
				return fault.Validation(bad...)
			}
			b, _ := json.Marshal(a.Slots)
			o.Slots = string(b)
			cols = append(cols, "slots")
			w, err := s.tenantWords(ctx, tx, r)
			if err != nil {
				return err
			}
			list := make([]string, len(a.Slots))
			for i, sl := range a.Slots {
				list[i] = "– " + w.span(sl)
			}
			vars = append(vars, "slots", strings.Join(list, "\n"))
		case "done":
			if o.Status != OrderAccepted || r.Status != Scheduled {
				return fault.Conflict("invalid_transition", "Only an accepted work order whose visit is booked can be marked done.")
			}
			o.Status, o.Note, reqTo = OrderDone, a.Note, Done
			cols = append(cols, "note", "invoice_minor", "invoice_vat_minor", "bill_id")
			if a.Invoice != nil {
				v := int64(*a.Invoice)
				o.InvoiceMinor = &v
			}
			if a.InvoiceVAT != nil {
				v := int64(*a.InvoiceVAT)
				o.InvoiceVATMinor = &v
			}
			// The invoice becomes a bill of the property in this
			// transaction: the conditional move below lets one done
			// through, and the bill goes with it or not at all.
			if a.Invoice != nil && *a.Invoice > 0 {
				b, err := s.bills.RecordTx(ctx, tx, r.PropertyID, s.supplied(r, o, *a.Invoice, a.InvoiceVAT, now))
				if err != nil {
					return err
				}
				o.BillID = &b.ID
			}
		default:
			return fault.NotFound("Not found.")
		}
		o.UpdatedAt = now
		if ok, err := s.store.moveOrder(ctx, tx, o, from, cols...); err != nil || !ok {
			if err == nil {
				err = errTransition("work order", "no longer "+from, o.Status)
			}
			return err
		}
		if reqTo != "" {
			rFrom := r.Status
			r.Status, r.UpdatedAt = reqTo, now
			if ok, err := s.store.moveRequest(ctx, tx, r, rFrom); err != nil || !ok {
				if err == nil {
					err = errTransition("repair request", "no longer "+rFrom, reqTo)
				}
				return err
			}
		}
		provider, err := s.contragents.ByID(ctx, tx, o.ProviderID)
		if err != nil {
			return err
		}
		step := map[string]string{"accept": "accepted", "decline": "declined", "slots": "slots", "done": "done"}[a.Verb]
		occasion := o.ID.String()
		if a.Verb == "slots" {
			occasion += "-" + fmt.Sprint(now.UnixMicro())
		}
		if err := s.tell(ctx, tx, r, step, occasion, append(vars, "provider", provider.Name)...); err != nil {
			return err
		}
		if err := activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "repair_work_order",
			RecordID: o.ID.String(), WorkspaceID: o.WorkspaceID,
			Changes: map[string]activity.Change{"status": {from, o.Status}}}); err != nil {
			return err
		}
		view, err = s.view(ctx, tx, o, r)
		return err
	})
	if err != nil {
		return nil, err
	}
	return view, nil
}

// tenantWords are the words of r's contract's language (the landlord's
// default when there is no contract; no one is then told).
func (s *Service) tenantWords(ctx context.Context, db bun.IDB, r *Request) (wording, error) {
	if r.ContractID == nil {
		return s.words(accounts.DefaultLocale), nil
	}
	c, err := s.contracts.ByID(ctx, db, *r.ContractID)
	if err != nil {
		return wording{}, err
	}
	return s.words(c.Locale), nil
}

// PickSlot books the visit of c's request with the raw id at the offered
// slot starting at start: the request becomes scheduled. Of two picks at
// once, one wins; the other is 409 invalid_transition.
func (s *Service) PickSlot(ctx context.Context, c *contracts.Contract, rawID string, start time.Time) (*Request, *WorkOrder, error) {
	var out *Request
	var order *WorkOrder
	var booked *bookedVisit
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		r, err := s.find(ctx, tx, rawID, func(r *Request) bool { return r.ContractID != nil && *r.ContractID == c.ID })
		if err != nil {
			return err
		}
		o, err := s.latest(ctx, tx, r.ID)
		if err != nil {
			return err
		}
		if r.Status != Ordered || o == nil || o.Status != OrderAccepted {
			return errTransition("repair request", r.Status, Scheduled)
		}
		var slots []Slot
		_ = json.Unmarshal([]byte(o.Slots), &slots)
		i := slices.IndexFunc(slots, func(sl Slot) bool { return sl.Start.Equal(start) })
		if i < 0 {
			return fault.Validation("start: must be the start of one of the times the provider offered")
		}
		now := s.now()
		if !slots[i].Start.After(now) {
			return fault.Validation("start: this time has passed; ask the provider for another")
		}
		before := toJSON(r, o, false)
		r.Status, r.UpdatedAt = Scheduled, now
		r.VisitStart, r.VisitEnd = &slots[i].Start, &slots[i].End
		if ok, err := s.store.moveRequest(ctx, tx, r, Ordered, "visit_start", "visit_end"); err != nil || !ok {
			if err == nil {
				err = errTransition("repair request", "no longer ordered", Scheduled)
			}
			return err
		}
		provider, err := s.contragents.ByID(ctx, tx, o.ProviderID)
		if err != nil {
			return err
		}
		// The visit is an event of the property in the members' calendars
		// and feeds, booked with the request.
		eventID, err := s.calendar.BookVisit(ctx, tx, calendar.Visit{WorkspaceID: r.WorkspaceID, PropertyID: r.PropertyID,
			ContractID: r.ContractID, Title: r.Title + " – " + provider.Name, Description: r.AccessNotes,
			Start: slots[i].Start, End: slots[i].End})
		if err != nil {
			return err
		}
		booked = &bookedVisit{eventID: eventID, provider: provider, slot: slots[i]}
		w := s.words(c.Locale)
		if err := s.tell(ctx, tx, r, "scheduled", o.ID.String(), "visit", w.span(slots[i]), "provider", provider.Name); err != nil {
			return err
		}
		out, order = r, o
		return activity.Record(ctx, tx, activity.Entry{Action: activity.Updated, RecordType: "repair_request", RecordID: r.ID.String(),
			WorkspaceID: r.WorkspaceID, Changes: activity.Diff(before, toJSON(r, o, false))})
	})
	if err != nil {
		return nil, nil, err
	}
	// The invitations go after the commit: the visit is booked whether or
	// not a mail server answers (the thread already says when).
	s.invite(context.WithoutCancel(ctx), c, out, order, booked)
	return out, order, nil
}

func idsJSON(ids []uuid.UUID) string {
	s := make([]string, len(ids))
	for i, id := range ids {
		s[i] = id.String()
	}
	b, _ := json.Marshal(s)
	return string(b)
}

// supplied is the bill of a done order's invoice: a repair of the
// provider, dated the day the job was marked done, its note the request's
// title and the provider's note.
func (s *Service) supplied(r *Request, o *WorkOrder, amount money.Amount, vat *money.Amount, now time.Time) bills.Supplied {
	note := r.Title
	if o.Note != "" {
		note += "\n" + o.Note
	}
	if rs := []rune(note); len(rs) > 2000 {
		note = string(rs[:1999]) + "…"
	}
	in := bills.Supplied{SupplierID: o.ProviderID, BillDate: period.DateOf(now), Amount: amount, Category: bills.Repairs,
		DocumentID: o.InvoiceDocumentID, Note: note}
	if vat != nil {
		in.VAT = *vat
	}
	return in
}
