package notices

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/google/uuid"
	"github.com/riverqueue/river"
	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/contracts"
	"github.com/propman/propman/modules/documents"
	"github.com/propman/propman/modules/messages"
	"github.com/propman/propman/modules/printforms"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/database"
)

// Termination is the notice that confirms a termination to the tenant. It
// is not among the settings' kinds: a landlord who ends a tenancy owes the
// tenant its confirmation, so it always goes out.
const Termination = "termination"

// terminationArgs is the job that sends the confirmation of a contract's
// termination: inserted in the transaction that terminates it, so a
// termination rolled back sends nothing and a recorded one always does;
// the letter is drawn after the commit, from the terminated contract.
type terminationArgs struct {
	ContractID string `json:"contract_id"`
}

func (terminationArgs) Kind() string { return "notice_termination" }

func newTerminationListener(l *listener) contracts.TerminationListener { return l }

// ContractTerminated queues the confirmation of c's termination.
func (l *listener) ContractTerminated(ctx context.Context, tx bun.Tx, c *contracts.Contract) error {
	_, err := l.svc.queue.Insert(ctx, tx, terminationArgs{ContractID: c.ID.String()},
		&river.InsertOpts{UniqueOpts: river.UniqueOpts{ByArgs: true}})
	return err
}

// terminationWorker writes the tenant the confirmation, in the contract's
// language, with the letter as a PDF stored as a document of the contract.
type terminationWorker struct {
	river.WorkerDefaults[terminationArgs]
	svc *Service
}

func (w *terminationWorker) Work(ctx context.Context, job *river.Job[terminationArgs]) error {
	s := w.svc
	contractID, err := uuid.Parse(job.Args.ContractID)
	if err != nil {
		return river.JobCancel(fmt.Errorf("notices: bad termination job: %w", err))
	}
	key := messages.Notice{Kind: Termination, Subject: contractID}.Key()
	if done, err := s.messages.Noticed(ctx, s.db, []string{key}); err != nil || done[key] {
		return err
	}
	c, err := s.contracts.ByID(ctx, s.db, contractID)
	if errors.Is(err, contracts.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	if c.Status != contracts.Terminated {
		return nil
	}
	// The letter as the print form serves it (GET /print-forms/contracts/
	// {id}/termination), in the contract's language.
	as := auth.InWorkspace(c.WorkspaceID, c.OwnerID)
	pdf, err := s.forms.TerminationJob(ctx, as, c.ID.String(), c.Locale)
	if err != nil {
		return err
	}
	data, err := pdf.Render()
	if err != nil {
		return err
	}
	// The storage keeps only a name's last path segment: "L/7" would be
	// stored as "7.pdf".
	name := strings.Map(func(r rune) rune {
		if r == '/' || r == '\\' || r < ' ' {
			return '-'
		}
		return r
	}, pdf.Filename)
	blob, err := s.files.Put(ctx, name, bytes.NewReader(data))
	if err != nil {
		return err
	}
	err = database.RunInTx(ctx, s.db, func(ctx context.Context, tx bun.Tx) error {
		lt, err := s.letterFor(ctx, tx, c)
		if err != nil {
			return err
		}
		subject, paragraphs := s.forms.TerminationText(c.Locale, s.terminationOf(lt, c))
		doc, err := s.files.Insert(ctx, tx, documents.NewFile{WorkspaceID: c.WorkspaceID, PropertyID: c.PropertyID,
			ContractID: &c.ID, Title: subject, Category: "contract", UploadedBy: c.OwnerID}, blob)
		if err != nil {
			return err
		}
		_, created, err := s.messages.Notify(ctx, tx, messages.Notice{Kind: Termination, Subject: c.ID, ContractID: c.ID,
			Title: subject, Body: lt.body(paragraphs...), Attachments: []uuid.UUID{doc.ID}})
		if err == nil && !created {
			return errSentBefore
		}
		return err
	})
	if err != nil {
		s.files.Discard(blob)
		if errors.Is(err, errSentBefore) {
			return nil
		}
	}
	return err
}

// terminationOf is what the letter of c's termination says, as the print
// form gathers it, from what the notice read through its transaction.
func (s *Service) terminationOf(lt *letter, c *contracts.Contract) printforms.Termination {
	return printforms.Termination{ContractNumber: c.Number, Ends: c.TerminatedOn, Reason: c.TerminationReason,
		By: c.TerminatedBy, NoticeReceived: c.NoticeReceivedOn,
		PropertyName: lt.prop.Name, PropertyAddress: printforms.AddressLine(lt.prop.Address, strings.TrimSpace(lt.prop.PostalCode+" "+lt.prop.City))}
}
