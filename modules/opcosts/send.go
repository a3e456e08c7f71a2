package opcosts

import (
	"bytes"
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/buildings"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/modules/messages"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/modules/properties"
	"github.com/propman/propman/platform/activity"
	"github.com/propman/propman/platform/database"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/money"
	"github.com/propman/propman/platform/period"
)

// The kinds of the messages this module writes (messages.Notice): one
// of each per statement and contract.
const (
	NoticeStatement  = "opcost_statement"
	NoticePrepayment = "opcost_prepayment"
)

func errNotPosted() error {
	return fault.Conflict("not_posted", "Post the statement first: only a posted statement is sent, corrected or followed by a new prepayment.")
}

// result is the words of a contract's result in the letter's language.
func (s *Service) result(loc, currency string, r money.Amount) string {
	sty := printforms.StyleOf(loc)
	switch {
	case r > 0:
		return s.say(loc, "result_due", "amount", sty.Money(r, currency))
	case r < 0:
		return s.say(loc, "result_credit", "amount", sty.Money(-r, currency))
	}
	return s.say(loc, "result_zero")
}

// Send sends the posted statement to each tenant not sent it yet: a
// message in the contract's thread, by email when the tenant has an
// address, else in the portal, with the letter (PDF, the contract's
// language) attached as a document of the unit. Each contract's message
// is made once, however often Send runs.
func (s *Service) Send(ctx context.Context, b *buildings.Building, st *Statement, comp *Computation) error {
	if st.Status != Posted {
		return errNotPosted()
	}
	landlord := ""
	if u, err := s.p.Accounts.User(ctx, st.OwnerID); err == nil {
		landlord = u.Name
	}
	for i := range comp.Contracts {
		l := comp.Contracts[i]
		if l.MessageID != nil {
			continue
		}
		pdf, name, err := s.PDF(ctx, b, st, comp, l.ContractID.String(), "")
		if err != nil {
			return err
		}
		blob, err := s.p.Files.Put(ctx, name, bytes.NewReader(pdf))
		if err != nil {
			return err
		}
		loc := letterLocale(l.Locale)
		sty := printforms.StyleOf(loc)
		from, to := sty.Date(st.From), sty.Date(st.To)
		result := l.Result
		if st.CorrectsID != nil {
			result = l.Difference()
		}
		words := s.result(loc, st.Currency, result)
		if l.Excluded {
			words = s.say(loc, "excluded", "amount", sty.Money(l.Difference(), st.Currency))
		}
		title := s.say(loc, "message_subject", "from", from, "to", to)
		body := s.say(loc, "message_body", "from", from, "to", to, "unit", l.Unit, "contract", l.ContractNumber,
			"result", words, "landlord", landlord)
		err = database.RunInTx(ctx, s.p.DB, func(ctx context.Context, tx bun.Tx) error {
			cur, err := s.p.Store.lockStatement(ctx, tx, b.ID, st.ID)
			if err != nil {
				return err
			}
			if cur.Status != Posted {
				return errNotPosted()
			}
			fresh, err := decode(cur)
			if err != nil {
				return err
			}
			line := fresh.line(l.ContractID)
			if line == nil || line.MessageID != nil {
				return errSentBefore
			}
			doc, err := s.p.Files.Insert(ctx, tx, documents.NewFile{WorkspaceID: b.WorkspaceID, PropertyID: l.PropertyID,
				ContractID: &l.ContractID, Title: title, Category: "other", UploadedBy: st.OwnerID}, blob)
			if err != nil {
				return err
			}
			m, _, err := s.p.Messages.Notify(ctx, tx, messages.Notice{Kind: NoticeStatement, Subject: st.ID, Step: l.ContractID.String(),
				ContractID: l.ContractID, Title: title, Body: body, Attachments: []uuid.UUID{doc.ID}})
			if err != nil {
				return err
			}
			line.MessageID = &m.ID
			comp.Contracts[i].MessageID = &m.ID
			if err := s.save(ctx, tx, cur, fresh); err != nil {
				return err
			}
			return activity.Record(ctx, tx, activity.Entry{Action: "sent", RecordType: "opcost_statement", RecordID: st.ID.String(),
				WorkspaceID: b.WorkspaceID, Changes: activity.Diff(nil, map[string]any{"contract_id": l.ContractID, "message_id": m.ID})})
		})
		if err != nil {
			s.p.Files.Discard(blob)
			if errors.Is(err, errSentBefore) {
				continue
			}
			return err
		}
	}
	return nil
}

var errSentBefore = errors.New("sent before")

// letterLocale is the language a contract's letter is written in.
func letterLocale(l string) string {
	if knownLocale(l) {
		return l
	}
	return "en"
}

// line is the contract's line of the computation, nil when absent.
func (c *Computation) line(contractID uuid.UUID) *ContractLine {
	for i := range c.Contracts {
		if c.Contracts[i].ContractID == contractID {
			return &c.Contracts[i]
		}
	}
	return nil
}

// PrepaymentInput is the landlord's confirmation of a new prepayment.
type PrepaymentInput struct {
	// Amount is the new monthly prepayment; nil takes the proposed one.
	Amount *money.Amount `json:"amount"`
	// From is the first day of the month it applies from.
	From *period.Date `json:"from"`
}

// ConfirmPrepayment applies the new monthly prepayment of one contract of
// the posted statement (the proposed one unless in names another) from
// in.From, and writes the tenant the letter that announces it, in one
// transaction: the contract's prepayment expense and term change
// (contracts), the letter is a message in the contract's thread.
func (s *Service) ConfirmPrepayment(ctx context.Context, b *buildings.Building, st *Statement, comp *Computation, rawContract string, in PrepaymentInput) (*ContractLine, error) {
	if st.Status != Posted {
		return nil, errNotPosted()
	}
	id, err := uuid.Parse(rawContract)
	if err != nil || len(rawContract) != 36 {
		return nil, fault.NotFound("The contract is not part of this statement.")
	}
	if in.From == nil {
		return nil, fault.Validation("from: is required (the first day of the month the new prepayment applies from)")
	}
	known := comp.line(id)
	if known == nil {
		return nil, fault.NotFound("The contract is not part of this statement.")
	}
	landlord := ""
	if u, err := s.p.Accounts.User(ctx, st.OwnerID); err == nil {
		landlord = u.Name
	}
	var out *ContractLine
	err = database.RunInTx(ctx, s.p.DB, func(ctx context.Context, tx bun.Tx) error {
		// The unit's lock before the statement's row, in the order posting
		// takes them (a posted correction locks the units, then marks the
		// statement it corrects), so the two never wait on each other.
		prop, err := properties.Lock(ctx, tx, known.PropertyID)
		if err != nil {
			return err
		}
		cur, err := s.p.Store.lockStatement(ctx, tx, b.ID, st.ID)
		if err != nil {
			return err
		}
		if cur.Status != Posted {
			return errNotPosted()
		}
		comp, err := decode(cur)
		if err != nil {
			return err
		}
		line := comp.line(id)
		if line == nil {
			return fault.NotFound("The contract is not part of this statement.")
		}
		if line.ProposalAppliedFrom != nil {
			return fault.Conflict("already_applied", fmt.Sprintf("The new prepayment of this contract applies from %s already.", line.ProposalAppliedFrom))
		}
		amount := line.ProposedPrepayment
		if in.Amount != nil {
			amount = *in.Amount
		}
		c, err := s.p.Contracts.ByID(ctx, tx, id)
		if err != nil {
			return err
		}
		old := monthlyPrepayment(c)
		if err := s.p.Contracts.ChangePrepaymentTx(ctx, tx, prop, c, amount, *in.From); err != nil {
			return err
		}
		loc := letterLocale(c.Locale)
		sty := printforms.StyleOf(loc)
		vars := []string{"from", sty.Date(*in.From), "period_from", sty.Date(st.From), "period_to", sty.Date(st.To),
			"new", sty.Money(amount, st.Currency), "old", sty.Money(old, st.Currency), "landlord", landlord}
		if _, _, err := s.p.Messages.Notify(ctx, tx, messages.Notice{Kind: NoticePrepayment, Subject: st.ID, Step: id.String(), ContractID: id,
			Title: s.say(loc, "prepayment_subject", vars...), Body: s.say(loc, "prepayment_body", vars...)}); err != nil {
			return err
		}
		from := *in.From
		line.ProposalAppliedFrom, line.ProposedPrepayment = &from, amount
		if err := s.save(ctx, tx, cur, comp); err != nil {
			return err
		}
		out = line
		return activity.Record(ctx, tx, activity.Entry{Action: "prepayment_confirmed", RecordType: "opcost_statement", RecordID: st.ID.String(),
			WorkspaceID: b.WorkspaceID, Changes: activity.Diff(map[string]any{"prepayment": old},
				map[string]any{"contract_id": id, "prepayment": amount, "from": from})})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// save rewrites the statement's computation through tx.
func (s *Service) save(ctx context.Context, tx bun.Tx, st *Statement, comp *Computation) error {
	text, err := marshal(comp)
	if err != nil {
		return err
	}
	st.Computation = text
	return s.p.Store.saveComputation(ctx, tx, st)
}
