package contracts

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/agreements"
	"github.com/propman/propman/modules/bankaccounts"
	"github.com/propman/propman/modules/contragents"
	"github.com/propman/propman/modules/expenses"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/chargename"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/listing"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// Bounds of the contract's own fields.
const (
	MaxNumberLen = 50
	MaxReasonLen = 1000
)

// Service holds the rules of contracts and the access check every route
// under /contracts/{contractId} goes through.
type Service struct {
	db       *bun.DB
	store    *Store
	blocks   *agreements.Blocks
	clock    clock.Clock
	props    *properties.Service
	tenants  *contragents.Service
	expenses *expenses.Service
	dir      *reference.Directory
	banks    *bankaccounts.Service
	// rentListeners are told of each rent change in its transaction.
	rentListeners []RentListener
	// activated are told of each activation after it committed;
	// terminated of each termination in its transaction.
	activated  []ActivationListener
	terminated []TerminationListener
	log        *slog.Logger
}

// ServiceParams are the service's dependencies as fx provides them.
type ServiceParams struct {
	fx.In

	DB         *bun.DB
	Store      *Store
	Blocks     *agreements.Blocks
	Clock      clock.Clock
	Properties *properties.Service
	Tenants    *contragents.Service
	Expenses   *expenses.Service
	Directory  *reference.Directory
	Banks      *bankaccounts.Service
	// RentListeners are told of rent changes (modules/notices).
	RentListeners []RentListener `group:"rent_listeners"`
	// ActivationListeners keep the lease as printed (modules/printforms).
	ActivationListeners []ActivationListener `group:"activation_listeners"`
	// TerminationListeners confirm a termination (modules/notices).
	TerminationListeners []TerminationListener `group:"termination_listeners"`
	Log                  *slog.Logger
}

// NewService returns the service.
func NewService(p ServiceParams) *Service {
	return &Service{db: p.DB, store: p.Store, blocks: p.Blocks, clock: p.Clock,
		props: p.Properties, tenants: p.Tenants, expenses: p.Expenses, dir: p.Directory, banks: p.Banks, rentListeners: p.RentListeners,
		activated: p.ActivationListeners, terminated: p.TerminationListeners, log: p.Log}
}

func errNotFound() error { return fault.NotFound("Contract not found.").Because(ErrNotFound) }

// Authorize returns the contract with the raw id when p may see and change
// it: 404 when the id is not a UUID or unknown, 403 when it belongs to
// someone else and p is not an admin.
func (s *Service) Authorize(ctx context.Context, p auth.Principal, rawID string) (*Contract, error) {
	return s.Get(ctx, &p, rawID)
}

// Get is Authorize with p's role still to be read on the route of one
// contract (auth.Routes.Read): the contract's statement reads it too
// (listing.ReadByID), and p is settled.
func (s *Service) Get(ctx context.Context, p *auth.Principal, rawID string) (*Contract, error) {
	rec := new(Contract)
	found, err := listing.ReadByID(ctx, s.db, rec, rawID, p)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, errNotFound()
	}
	if rec.WorkspaceID != p.WorkspaceID && !p.IsAdmin() {
		return nil, auth.Refuse(ctx, *p, "This contract belongs to another user.", "Contract not found.")
	}
	return rec, nil
}

// Tenancies is what the tenant portal (modules/tenancy) answers for a
// signed-in user and a contract id: the contract when the user is its
// linked tenant, its property, and the principal of the contract's
// workspace to reach them with; a not-found refusal (platform/fault) otherwise. Defined here,
// beside the contract it returns, so that the modules serving a tenant's
// part of a tenancy (documents, counters) share it without importing the
// portal.
type Tenancies interface {
	TenantContract(ctx context.Context, userID int64, rawContractID string) (*Contract, *properties.Property, auth.Principal, error)
}

// OfTenants returns one page of the contracts whose tenant is one of the
// contragents, newest first: a tenant's own contracts, across workspaces
// (a contragent is the tenant of its own workspace's contracts only: a
// contract's tenant is checked to be one of its property's workspace).
// Drafts are left out: a tenant sees a contract once it is signed.
func (s *Service) OfTenants(ctx context.Context, tenants []uuid.UUID, q listing.Query) ([]Contract, listing.Result, error) {
	if len(tenants) == 0 {
		return nil, listing.Result{Counted: q.Page > 0 && !q.After()}, nil
	}
	return s.store.OfTenants(ctx, s.db, tenants, q)
}

// OfTenant returns the contract with id when its tenant is one of the
// contragents and it is no draft; ErrNotFound otherwise.
func (s *Service) OfTenant(ctx context.Context, tenants []uuid.UUID, id uuid.UUID) (*Contract, error) {
	if len(tenants) == 0 {
		return nil, ErrNotFound
	}
	return s.store.OfTenant(ctx, s.db, tenants, id)
}

// View is the contract as the API shows it (the Contract schema).
func (s *Service) View(c *Contract) any { return toJSON(s.today())(c) }

// List returns a page of p's own contracts. Admins too see their own here.
func (s *Service) List(ctx context.Context, p *auth.Principal, f ListFilter, q listing.Query) ([]Contract, listing.Result, error) {
	return s.store.List(ctx, p, f, s.today(), q)
}

// Create adds a draft contract for a property of p (or, for an admin, of
// anyone); the contract belongs to the property's owner.
func (s *Service) Create(ctx context.Context, p auth.Principal, req *contractRequest) (*Contract, error) {
	var details []string
	for _, f := range []struct {
		name  string
		given bool
	}{{"property_id", req.PropertyID != nil}, {"tenant_id", req.TenantID != nil}, {"number", req.Number != nil}} {
		if !f.given {
			details = append(details, f.name+": is required")
		}
	}
	id, err := uuid.NewV7()
	if err != nil {
		return nil, fmt.Errorf("contract id: %w", err)
	}
	now := s.now()
	c := &Contract{ID: id, Status: Draft, Locale: s.defaultLocale(p), Terms: "[]", DueDay: 1,
		AllocationOrder: OldestFirst, LateFeeBase: BasePeriodic, CreatedAt: now, UpdatedAt: now}
	if req.Terms == nil {
		empty := []termRequest{}
		req.Terms = &empty
	}
	more, err := s.apply(ctx, p, c, req)
	if err != nil {
		return nil, err
	}
	details = append(details, more...)
	if len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		if err := s.store.Insert(ctx, tx, c); err != nil {
			return numberTaken(err)
		}
		return s.record(ctx, tx, activity.Created, c, nil)
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Update changes the given fields of c, a draft the caller got from
// Authorize; terms, when given, replace the whole list. A contract that
// left draft takes only its money settings: they steer what the service
// does from now on (allocation of later payments, later late fees) and
// change no term the parties signed.
func (s *Service) Update(ctx context.Context, p auth.Principal, c *Contract, req *contractRequest) (*Contract, error) {
	before := s.view(c)
	if c.Status != Draft && req.onlySettings() {
		details := applySettings(c, req)
		more, err := s.applyBank(ctx, c, req)
		if err != nil {
			return nil, err
		}
		if details = append(details, more...); len(details) > 0 {
			return nil, fault.Validation(details...)
		}
		c.UpdatedAt = s.now()
		err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
			if err := s.store.UpdateSettings(ctx, tx, c); err != nil {
				return err
			}
			return s.record(ctx, tx, activity.Updated, c, before)
		})
		if err != nil {
			return nil, err
		}
		return c, nil
	}
	if c.Status != Draft {
		return nil, errNotDraft()
	}
	details, err := s.apply(ctx, p, c, req)
	if err != nil {
		return nil, err
	}
	if len(details) > 0 {
		return nil, fault.Validation(details...)
	}
	c.UpdatedAt = s.now()
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		ok, err := s.store.UpdateDraft(ctx, tx, c)
		if err != nil {
			return numberTaken(err)
		}
		if !ok {
			return errNotDraft()
		}
		return s.record(ctx, tx, activity.Updated, c, before)
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Delete removes a draft contract.
func (s *Service) Delete(ctx context.Context, c *Contract) error {
	if c.Status != Draft {
		return errHasCharges()
	}
	return database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		ok, err := s.store.DeleteDraft(ctx, tx, c.ID)
		if err != nil {
			return err
		}
		if !ok {
			return errHasCharges()
		}
		return activity.Record(ctx, tx, activity.Entry{
			Action: activity.Deleted, RecordType: "contract", RecordID: c.ID.String(), WorkspaceID: c.WorkspaceID,
			Changes: activity.Diff(s.view(c), nil),
		})
	})
}

// view is c as clients see it, the activity log's view of a contract.
func (s *Service) view(c *Contract) contractJSON { return toJSON(s.today())(c) }

// record logs, in tx, a write that left c as it is now (before is its
// view before the write; nil for a new one).
func (s *Service) record(ctx context.Context, tx bun.Tx, action string, c *Contract, before any) error {
	return activity.Record(ctx, tx, activity.Entry{
		Action: action, RecordType: "contract", RecordID: c.ID.String(), WorkspaceID: c.WorkspaceID,
		Changes: activity.Diff(before, s.view(c)),
	})
}

func errNotDraft() error {
	return fault.Conflict("not_draft", "Only a draft contract can be changed.")
}

func errHasCharges() error {
	return fault.Conflict("has_charges", "Only a draft contract can be deleted; an active or terminated one has money records.")
}

func numberTaken(err error) error {
	if database.IsUniqueViolation(err) {
		return fault.Conflict("number_exists", "The owner already has a contract with this number.")
	}
	return err
}

// apply checks the given fields of req and copies them onto c. References
// another user's property or tenant give 403 (as their own routes would);
// the rest is one message per problem.
func (s *Service) apply(ctx context.Context, p auth.Principal, c *Contract, req *contractRequest) ([]string, error) {
	details := applySettings(c, req)
	if req.Number != nil {
		n := strings.TrimSpace(*req.Number)
		if l := utf8.RuneCountInString(n); l < 1 || l > MaxNumberLen {
			details = append(details, fmt.Sprintf("number: must be 1 to %d characters", MaxNumberLen))
		}
		c.Number = n
	}
	if req.Locale != nil {
		l, ok := s.dir.Language(strings.TrimSpace(*req.Locale))
		if !ok {
			details = append(details, "locale: must be the code of an active language (GET /api/v1/languages)")
		} else {
			c.Locale = l.Code
		}
	}
	var prop *properties.Property
	propOK := c.PropertyID != uuid.Nil
	if req.PropertyID != nil {
		got, err := s.props.Authorize(ctx, p, *req.PropertyID)
		switch refusal(err) {
		case 0:
			if got.Archived() {
				return nil, properties.ErrArchived()
			}
			prop, propOK = got, true
			c.PropertyID, c.WorkspaceID, c.OwnerID, c.Currency = got.ID, got.WorkspaceID, got.OwnerID, got.Currency
		case fault.KindNotFound:
			propOK = false
			details = append(details, "property_id: no such property")
		default:
			return nil, err
		}
	} else if propOK {
		got, err := s.props.Authorize(ctx, p, c.PropertyID.String())
		if err != nil {
			return nil, err
		}
		if got.Archived() {
			return nil, properties.ErrArchived()
		}
		prop = got
	}
	tenantID := c.TenantID
	if req.TenantID != nil {
		t, err := s.tenants.Authorize(ctx, p, *req.TenantID)
		switch refusal(err) {
		case 0:
			tenantID = t.ID
			if !t.HasRole(contragents.RoleTenant) {
				details = append(details, "tenant_id: the contragent does not have the role tenant")
			}
			c.TenantID = t.ID
		case fault.KindNotFound:
			details = append(details, "tenant_id: no such contragent")
		default:
			return nil, err
		}
	}
	if prop != nil && tenantID != uuid.Nil {
		t, err := s.tenants.Authorize(ctx, auth.InWorkspace(prop.WorkspaceID, prop.OwnerID), tenantID.String())
		if fault.Is(err, fault.KindForbidden) {
			details = append(details, "tenant_id: must be a contragent of the property's owner")
		} else if err != nil && !fault.Is(err, fault.KindNotFound) {
			return nil, err
		} else if err == nil && req.TenantID == nil && !t.HasRole(contragents.RoleTenant) {
			details = append(details, "tenant_id: the contragent does not have the role tenant")
		}
	}
	// Terms are checked again when the property changes: its country decides
	// which blocks fit.
	if req.Terms != nil || req.PropertyID != nil {
		var in []termRequest
		if req.Terms != nil {
			in = *req.Terms
		} else {
			for _, t := range c.TermList() {
				code := t.Code
				in = append(in, termRequest{Code: &code, Value: t.Value})
			}
		}
		country := ""
		if propOK && prop != nil {
			country = prop.CountryCode
		}
		terms, d, more, err := s.checkTerms(ctx, in, country)
		if err != nil {
			return nil, err
		}
		details = append(details, more...)
		if len(more) == 0 {
			c.setTerms(terms, d)
		}
	}
	// After the property: the account must be of the contract's workspace.
	more, err := s.applyBank(ctx, c, req)
	if err != nil {
		return nil, err
	}
	return append(details, more...), nil
}

// applyBank copies the account req names onto c when it is one of c's
// workspace ("" names none: the workspace's default), or says why not. A
// draft whose property moved to another workspace is checked again.
func (s *Service) applyBank(ctx context.Context, c *Contract, req *contractRequest) ([]string, error) {
	if req.BankAccountID == nil {
		if c.BankAccountID == nil || req.PropertyID == nil {
			return nil, nil
		}
		raw := c.BankAccountID.String()
		req.BankAccountID = &raw
	}
	raw := strings.TrimSpace(*req.BankAccountID)
	if raw == "" {
		c.BankAccountID = nil
		return nil, nil
	}
	const notOurs = "bank_account_id: must be a bank account of the contract's workspace (GET /api/v1/bank-accounts)"
	id, err := uuid.Parse(raw)
	if err != nil || c.WorkspaceID == 0 {
		return []string{notOurs}, nil
	}
	a, err := s.banks.InWorkspace(ctx, s.db, c.WorkspaceID, id)
	if errors.Is(err, bankaccounts.ErrNotFound) {
		return []string{notOurs}, nil
	}
	if err != nil {
		return nil, err
	}
	c.BankAccountID = &a.ID
	return nil, nil
}

// PaymentAccount is, through db, the account c's rent is paid to: the one
// it names, else its workspace's default; nil when the workspace has no
// account (the letters then print nothing about a bank).
func (s *Service) PaymentAccount(ctx context.Context, db bun.IDB, c *Contract) (*bankaccounts.Account, error) {
	return s.banks.PaymentAccount(ctx, db, c.WorkspaceID, c.BankAccountID)
}

func (s *Service) checkTerms(ctx context.Context, in []termRequest, country string) ([]Term, derived, []string, error) {
	codes := make([]string, 0, len(in))
	for _, t := range in {
		if t.Code != nil && len(*t.Code) <= maxCodeLen {
			codes = append(codes, strings.ToUpper(strings.TrimSpace(*t.Code)))
		}
	}
	if len(in) > MaxTerms {
		codes = nil
	}
	found, err := s.blocks.ByCodes(ctx, s.db, codes)
	if err != nil {
		return nil, derived{}, nil, err
	}
	blocks := make(map[string]agreements.Block, len(found))
	for _, b := range found {
		blocks[strings.ToUpper(b.Code)] = b
	}
	terms, d, details := checkTerms(in, blocks, country)
	return terms, d, details, nil
}

// setTerms stores terms and what they set.
func (c *Contract) setTerms(terms []Term, d derived) {
	c.Terms = encodeTerms(terms)
	c.StartDate, c.EndDate, c.RentMinor, c.DepositMinor, c.DueDay = d.start, d.end, minorOf(d.rent), minorOf(d.deposit), d.dueDay
}

// refusal is the kind of refusal err is: 0 for nil, notRefused for an
// error that is no refusal (the database...), which the caller passes on.
func refusal(err error) fault.Kind {
	if err == nil {
		return 0
	}
	if k, ok := fault.KindOf(err); ok {
		return k
	}
	return notRefused
}

// notRefused is refusal's kind of an error that is no refusal.
const notRefused fault.Kind = 255

// defaultLocale is the caller's locale when it is an active language, else en.
func (s *Service) defaultLocale(p auth.Principal) string {
	if u, ok := p.Record.(*accounts.User); ok {
		if l, ok := s.dir.Language(u.Locale); ok {
			return l.Code
		}
	}
	return "en"
}

// Activate makes the draft c active, in one transaction: it checks the
// required terms and that no other contract of the property runs on its
// dates, then creates the rent expense, the utility prepayment expense and
// the deposit charge.
func (s *Service) Activate(ctx context.Context, p auth.Principal, c *Contract) (*Contract, error) {
	if c.Status != Draft {
		return nil, fault.Conflict("not_draft", "Only a draft contract can be activated.")
	}
	var missing []string
	if c.RentMinor == nil {
		missing = append(missing, "terms: "+CodeRent+" is required to activate")
	}
	if c.StartDate.IsZero() {
		missing = append(missing, "terms: "+CodeStart+" is required to activate")
	}
	if len(missing) > 0 {
		return nil, fault.Validation(missing...)
	}
	prop, err := s.props.Authorize(ctx, p, c.PropertyID.String())
	if err != nil {
		return nil, err
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		locked, err := properties.Lock(ctx, tx, c.PropertyID)
		if errors.Is(err, properties.ErrNotFound) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if locked.Archived() {
			return properties.ErrArchived()
		}
		cur, err := s.store.ByID(ctx, tx, c.ID)
		if err != nil {
			return err
		}
		if cur.Status != Draft {
			return fault.Conflict("not_draft", "Only a draft contract can be activated.")
		}
		over, err := overlapping(ctx, tx, cur)
		if err != nil {
			return err
		}
		if over {
			return fault.Conflict("overlap", "Another contract of this property runs on some of these dates.")
		}
		now := s.now()
		ok, err := s.store.Activate(ctx, tx, c.ID, now)
		if err != nil {
			return err
		}
		if !ok {
			return fault.Conflict("not_draft", "Only a draft contract can be activated.")
		}
		if err := s.createMoney(ctx, tx, prop, cur); err != nil {
			return err
		}
		before := s.view(c)
		c.Status, c.UpdatedAt = Active, now
		return s.record(ctx, tx, activity.Activated, c, before)
	})
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, errNotFound()
	case err != nil:
		return nil, err
	}
	for _, l := range s.activated {
		if err := l.ContractActivated(ctx, c); err != nil {
			s.log.Warn("contracts: after the activation", "contract", c.ID, "error", err)
		}
	}
	return c, nil
}

// createMoney adds, inside tx, the contract's expenses and deposit charge.
func (s *Service) createMoney(ctx context.Context, tx bun.Tx, prop *properties.Property, c *Contract) error {
	monthly := expenses.Monthly
	expense := func(name chargename.Name, amount money.Amount) error {
		start := c.StartDate
		due := c.DueDay
		in := expenses.ExpenseInput{Generated: &name, Type: &monthly, Amount: &amount, StartDate: &start, DueDay: &due}
		if !c.EndDate.IsZero() {
			in.SetEndDate, in.EndDate = true, c.EndDate
		}
		_, err := s.expenses.CreateExpenseTx(ctx, tx, prop, in, c.ID)
		return err
	}
	rent, err := s.rentExpense(ctx, tx, prop, c, *c.Rent(), c.StartDate)
	if err != nil {
		return err
	}
	if err := insertRent(ctx, tx, c.ID, rent.ID, c.StartDate, *c.Rent(), rent.CreatedAt, nil); err != nil {
		return err
	}
	if pre := c.prepayment(); pre != nil {
		if err := expense(chargename.Name{Kind: chargename.Prepayment, Args: []string{c.Number}}, *pre); err != nil {
			return err
		}
	}
	if dep := c.Deposit(); dep != nil {
		name, start := chargename.Name{Kind: chargename.Deposit}, c.StartDate
		if _, err := s.expenses.CreateChargeTx(ctx, tx, prop, expenses.ChargeInput{Generated: &name, Amount: dep, DueDate: &start}, c.ID); err != nil {
			return err
		}
	}
	return nil
}

// RentName is the name of a contract's rent expense, in English as it is
// stored.
func RentName(number string) string { return rentName(number).English() }

func rentName(number string) chargename.Name {
	return chargename.Name{Kind: chargename.Rent, Args: []string{number}}
}

// prepayment is the monthly utility prepayment the stored terms set: the
// generic block, else Germany's running-costs prepayment; nil for none.
func (c *Contract) prepayment() *money.Amount {
	var de *money.Amount
	for _, t := range c.TermList() {
		if t.Code != CodePrepayment && t.Code != CodePrepaymentDE {
			continue
		}
		a, err := money.Parse(t.Value)
		if err != nil {
			continue
		}
		if t.Code == CodePrepayment {
			return &a
		}
		de = &a
	}
	return de
}

// Terminate ends the active contract c on date: its expenses end that day
// (no charge for a period that starts after it); charges made stay.
func (s *Service) Terminate(ctx context.Context, c *Contract, in Termination) (*Contract, error) {
	date, reason := in.Date, in.Reason
	if !in.NoticeReceived.IsZero() && in.NoticeReceived.After(s.today()) {
		return nil, fault.Validation("notice_received_on: must not be in the future")
	}
	if c.StatusOn(s.today()) != Active {
		return nil, fault.Conflict("not_active", "Only an active contract can be terminated.")
	}
	if date.Before(c.StartDate) || (!c.EndDate.IsZero() && date.After(c.EndDate)) {
		end := "open-ended"
		if !c.EndDate.IsZero() {
			end = c.EndDate.String()
		}
		return nil, fault.Validation(fmt.Sprintf("date: must be within the contract (%s to %s)", c.StartDate, end))
	}
	now := s.now()
	err := database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		ok, err := s.store.Terminate(ctx, tx, c.ID, in, now)
		if err != nil {
			return err
		}
		if !ok {
			return fault.Conflict("not_active", "Only an active contract can be terminated.")
		}
		if _, err = s.expenses.EndContractExpensesTx(ctx, tx, c.ID, date); err != nil {
			return err
		}
		after := *c
		after.Status, after.TerminatedOn, after.TerminationReason, after.UpdatedAt = Terminated, date, reason, now
		after.TerminatedAt, after.TerminatedBy, after.NoticeReceivedOn = now, in.By, in.NoticeReceived
		if err := activity.Record(ctx, tx, activity.Entry{
			Action: activity.Terminated, RecordType: "contract", RecordID: c.ID.String(), WorkspaceID: c.WorkspaceID,
			Changes: activity.Diff(s.view(c), s.view(&after)),
		}); err != nil {
			return err
		}
		for _, l := range s.terminated {
			if err := l.ContractTerminated(ctx, tx, &after); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	c.Status, c.TerminatedOn, c.TerminationReason, c.UpdatedAt = Terminated, date, reason, now
	c.TerminatedAt, c.TerminatedBy, c.NoticeReceivedOn = now, in.By, in.NoticeReceived
	return c, nil
}

// Termination is what POST /contracts/{id}/terminate says: the last
// day, the reason, who gave notice ("" when not said) and the day the
// tenant's notice arrived (zero when not said).
type Termination struct {
	Date           period.Date
	Reason         string
	By             string
	NoticeReceived period.Date
}

// noticeOn is the day for the column: NULL when not given.
func noticeOn(d period.Date) *period.Date {
	if d.IsZero() {
		return nil
	}
	return &d
}

// now is the clock's time at the precision both databases keep.
func (s *Service) now() time.Time { return s.clock.Now().UTC().Truncate(time.Microsecond) }

// today is the clock's UTC calendar day.
func (s *Service) today() period.Date { return period.DateOf(s.clock.Now()) }

// Today is the service clock's date: what a contract's status and
// figures are shown as of.
func (s *Service) Today() period.Date { return s.today() }
