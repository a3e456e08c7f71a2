package contragents_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/propman/propman/platform/testkit"
)

// BenchmarkImport5000 imports a CSV file of 5,000 contragents per
// iteration: one request, one transaction, multi-row inserts.
func BenchmarkImport5000(b *testing.B) {
	app := testkit.Start(b)
	u := newUser(b, app)
	var sb strings.Builder
	sb.WriteString("name,kind,roles,email,phone,address,tax_id\n")
	for i := 0; i < 5000; i++ {
		fmt.Fprintf(&sb, "Tenant %d,person,tenant;guarantor,tenant%d@example.com,+49151%07d,\"Hauptstr. %d, Berlin\",DE%09d\n", i, i, i, i, i)
	}
	body := sb.String()
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res := importCSV(app, u.Token, body)
		if res.Status != http.StatusCreated {
			b.Fatalf("import: %d %s", res.Status, res.String())
		}
	}
}
