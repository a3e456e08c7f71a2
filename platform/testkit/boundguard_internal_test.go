package testkit

import "testing"

func TestInlinedValue(t *testing.T) {
	flagged := []string{
		`SELECT "p"."id" FROM "properties" AS "p" WHERE (id = '0b6c2a4e-1f7d-4c1e-9b55-2f0d7c3a9e11')`,
		`INSERT INTO "properties" ("id", "name") VALUES ('0B6C2A4E-1F7D-4C1E-9B55-2F0D7C3A9E11', 'x')`,
		`SELECT * FROM properties WHERE (owner_id = 42)`,
		`SELECT * FROM properties AS p WHERE ("p"."owner_id" = 42)`,
		`SELECT * FROM users WHERE (id <> 7)`,
		`SELECT * FROM users WHERE id IN (1, 2)`,
		`SELECT * FROM documents WHERE id = ANY('{"a","b"}')`,
	}
	for _, q := range flagged {
		if inlinedValue(q) == "" {
			t.Errorf("not flagged: %s", q)
		}
	}
	clean := []string{
		`SELECT "p"."id" FROM "properties" AS "p" WHERE (id = $1) AND (owner_id = $2) LIMIT 51 OFFSET 100`,
		`SELECT * FROM documents WHERE id = ANY($1)`,
		`UPDATE agreement_blocks_version SET version = version + 1 WHERE (id = $1)`,
		`SELECT * FROM charges WHERE paid = 1 AND valid > 0 AND amount_cents = 100`,
		`SELECT count(*) FROM (SELECT 1) AS list`,
	}
	for _, q := range clean {
		if lit := inlinedValue(q); lit != "" {
			t.Errorf("flagged %q in: %s", lit, q)
		}
	}
}

// The origin of a query built here is this package, which counts as test
// code; a frame of platform/database or platform/listing is never the origin.
func TestQueryOrigin(t *testing.T) {
	pkg, at, test := queryOrigin(1)
	if pkg != "platform/testkit" || !test || at == "" {
		t.Fatalf("origin %q at %q test %v", pkg, at, test)
	}
}
