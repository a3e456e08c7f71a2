package payments_test

import (
	"fmt"
	"net/http"
	"runtime"
	"sync/atomic"
	"testing"
)

// BenchmarkPayments20Clients measures the payments one landlord can post
// per second: 20 clients at once, each posting to a property of its own
// (the landlord's 20 properties), each payment paying part of an open
// charge and issuing a receipt. Properties apart, what serialises them is
// what the landlord shares: the receipt number of the year. Reported as
// payments/s.
func BenchmarkPayments20Clients(b *testing.B) {
	const clients = 20
	f := start(b)
	props := make([]fixture, clients)
	for i := range props {
		props[i] = f
		if i > 0 {
			props[i].property = newProperty(b, f.app, f.user.Token)
		}
		f.app.Post(props[i].url("/charges"), f.user.Token, map[string]any{"name": "Rent", "amount": 1000000, "due_date": "2026-10-01"}).
			Expect(http.StatusCreated)
	}
	b.Run(f.app.Engine, func(b *testing.B) {
		var next atomic.Int64
		b.SetParallelism(max(1, clients/runtime.GOMAXPROCS(0))) // goroutines: GOMAXPROCS × this
		b.ResetTimer()
		b.RunParallel(func(pb *testing.PB) {
			p := props[int(next.Add(1)-1)%clients]
			for i := 0; pb.Next(); i++ {
				p.send(b, http.MethodPost, p.url("/payments"), fmt.Sprintf(`{"amount": %d.%02d, "method": "cash"}`, 1+i%90, i%100))
			}
		})
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "payments/s")
	})
}
