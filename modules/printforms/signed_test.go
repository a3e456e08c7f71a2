package printforms_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

type signedDocument struct {
	ID        string `json:"id"`
	SHA256    string `json:"sha256"`
	CreatedAt string `json:"created_at"`
}

type contractOut struct {
	Status         string          `json:"status"`
	SignedDocument *signedDocument `json:"signed_document"`
}

type documentList struct {
	Documents []struct {
		ID         string  `json:"id"`
		ContractID *string `json:"contract_id"`
		Category   string  `json:"category"`
		Title      string  `json:"title"`
		SHA256     string  `json:"sha256"`
		Filename   string  `json:"filename"`
	} `json:"documents"`
}

func hexSHA(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// The lease is stored as printed at activation: its print form serves the
// same bytes after an indexation and after the property and the tenant
// were renamed; the bytes' SHA-256 is the contract's signed_document, and
// the PDF is a document of the property. Another language is a marked
// convenience translation drawn from today's data.
func TestSignedContractNeverChanges(t *testing.T) {
	requirePoppler(t)
	f := start(t)
	var draft contractOut
	f.app.Get("/api/v1/contracts/"+f.contract, f.user.Token).Expect(http.StatusOK).JSON(&draft)
	if draft.SignedDocument != nil {
		t.Fatalf("a draft has a signed document: %+v", draft.SignedDocument)
	}
	var active contractOut
	f.app.Post("/api/v1/contracts/"+f.contract+"/activate", f.user.Token, nil).Expect(http.StatusOK).JSON(&active)
	sd := active.SignedDocument
	if sd == nil || len(sd.SHA256) != 64 {
		t.Fatalf("the activated contract has no signed document: %+v", sd)
	}

	first := f.print(f.contract, "", f.user.Token, nil).Expect(http.StatusOK)
	if got := hexSHA(first.Body); got != sd.SHA256 || first.Header.Get("X-Content-SHA256") != got {
		t.Fatalf("body SHA-256 %s, header %q, signed_document %s", got, first.Header.Get("X-Content-SHA256"), sd.SHA256)
	}
	if etag := first.Header.Get("ETag"); etag != `"`+sd.SHA256+`"` {
		t.Errorf("ETag %q, want the quoted SHA-256", etag)
	}
	if w := first.Header.Get("Propman-Warnings"); w != "" {
		t.Errorf("the original carries warnings %q", w)
	}
	signedText := pdfText(t, first.Body)
	if !strings.Contains(signedText, "Flat 3B") || !strings.Contains(signedText, tenantName) || !strings.Contains(signedText, "€1,234.50") {
		t.Fatalf("the original lacks the property, tenant or rent:\n%s", signedText)
	}

	// Everything the form shows changes after the signature.
	f.app.Clock.Advance(1e9)
	f.app.Post("/api/v1/contracts/"+f.contract+"/rent", f.user.Token, map[string]any{"amount": 1300, "from": "2027-02-01",
		"index": map[string]any{"old_period": "2025-11", "old_value": "117.8", "new_period": "2026-11", "new_value": "124.1"}}).Expect(http.StatusOK)
	f.app.Put("/api/v1/properties/"+f.property, f.user.Token, map[string]any{"name": "Flat 9Z"}).Expect(http.StatusOK)
	f.app.Put("/api/v1/contragents/"+f.tenant, f.user.Token, map[string]any{"name": "Somebody Else"}).Expect(http.StatusOK)
	f.app.Put("/api/v1/user/profile", f.user.Token, map[string]any{"name": "Renamed Landlord"}).Expect(http.StatusOK)

	again := f.print(f.contract, "", f.user.Token, nil).Expect(http.StatusOK)
	if string(again.Body) != string(first.Body) || again.Header.Get("ETag") != first.Header.Get("ETag") {
		t.Fatal("the signed contract's PDF changed after the indexation and renames")
	}
	if hexSHA(again.Body) != again.Header.Get("X-Content-SHA256") {
		t.Error("X-Content-SHA256 is not the body's digest")
	}
	f.print(f.contract, "locale=en", f.user.Token, map[string]string{"If-None-Match": first.Header.Get("ETag")}).Expect(http.StatusNotModified)

	var after contractOut
	f.app.Get("/api/v1/contracts/"+f.contract, f.user.Token).Expect(http.StatusOK).JSON(&after)
	if after.SignedDocument == nil || *after.SignedDocument != *sd {
		t.Errorf("signed_document changed: %+v, was %+v", after.SignedDocument, sd)
	}

	var docs documentList
	f.app.Get("/api/v1/properties/"+f.property+"/documents", f.user.Token).Expect(http.StatusOK).JSON(&docs)
	found := 0
	for _, d := range docs.Documents {
		if d.ID == sd.ID {
			found++
			if d.Category != "contract" || d.SHA256 != sd.SHA256 || d.ContractID == nil || *d.ContractID != f.contract ||
				d.Title != "Rental contract 2026/001 – original as signed" || d.Filename != "contract-2026-001.pdf" {
				t.Errorf("the stored original: %+v", d)
			}
		}
	}
	if found != 1 || len(docs.Documents) != 1 {
		t.Errorf("the property's documents: %+v", docs.Documents)
	}
	content := f.app.Get("/api/v1/properties/"+f.property+"/documents/"+sd.ID+"/content", f.user.Token).Expect(http.StatusOK)
	if string(content.Body) != string(first.Body) {
		t.Error("the document's content is not the served original")
	}

	// German is a translation from today's data, marked as not the original.
	de := f.print(f.contract, "locale=de", f.user.Token, nil).Expect(http.StatusOK)
	if w := de.Header.Get("Propman-Warnings"); !strings.HasPrefix(w, "convenience_translation") {
		t.Errorf("German copy: Propman-Warnings %q", w)
	}
	if de.Header.Get("X-Content-SHA256") != "" {
		t.Error("a convenience translation claims to be the original")
	}
	text := strings.Join(strings.Fields(pdfText(t, de.Body)), " ")
	for _, want := range []string{"Unverbindliche Übersetzung, nicht das unterzeichnete Original: Maßgeblich ist allein das Original in der Sprache English.",
		"Flat 9Z", "Mietvertrag"} {
		if !strings.Contains(text, want) {
			t.Errorf("German copy lacks %q:\n%s", want, text)
		}
	}
	if strings.Contains(signedText, "Übersetzung") || strings.Contains(signedText, "Convenience") {
		t.Error("the original is marked as a translation")
	}
}

// A contract activated before originals were kept has none until its
// form is first printed; many first requests at once (more than the
// database pool) store exactly one document and all get its bytes.
func TestSignedContractStoredOnceOnFirstPrint(t *testing.T) {
	f := start(t, testkit.WithConfig("database.maxopen", 2))
	f.app.Post("/api/v1/contracts/"+f.contract+"/activate", f.user.Token, nil).Expect(http.StatusOK)
	// As the contract of an older release: no original recorded, none stored.
	ctx := context.Background()
	if _, err := f.app.DB.ExecContext(ctx, "UPDATE contracts SET signed_document_id = NULL, signed_sha256 = NULL, signed_at = NULL"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.app.DB.ExecContext(ctx, "DELETE FROM documents"); err != nil {
		t.Fatal(err)
	}
	const n = 12
	bodies := make([][]byte, n)
	sums := make([]string, n)
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			res := f.print(f.contract, "", f.user.Token, nil)
			if res.Status != http.StatusOK {
				t.Errorf("request %d: %d %s", i, res.Status, res.Body)
				return
			}
			bodies[i], sums[i] = res.Body, res.Header.Get("X-Content-SHA256")
		}(i)
	}
	wg.Wait()
	var c contractOut
	f.app.Get("/api/v1/contracts/"+f.contract, f.user.Token).Expect(http.StatusOK).JSON(&c)
	if c.SignedDocument == nil {
		t.Fatal("no signed document after the first prints")
	}
	for i := range bodies {
		if sums[i] != c.SignedDocument.SHA256 || hexSHA(bodies[i]) != sums[i] {
			t.Errorf("request %d: SHA-256 %s (body %s), recorded %s", i, sums[i], hexSHA(bodies[i]), c.SignedDocument.SHA256)
		}
	}
	var docs documentList
	f.app.Get("/api/v1/properties/"+f.property+"/documents", f.user.Token).Expect(http.StatusOK).JSON(&docs)
	if len(docs.Documents) != 1 || docs.Documents[0].ID != c.SignedDocument.ID {
		t.Errorf("%d documents stored, want the one original: %+v", len(docs.Documents), docs.Documents)
	}
}
