package listing

import "testing"

func TestFuse(t *testing.T) {
	filtered := `SELECT "p"."id" FROM "properties" AS "p" WHERE (workspace_id = $1)`
	page := filtered + ` ORDER BY "id" ASC LIMIT 51`
	want := `SELECT (SELECT count(*) FROM (` + filtered + `) AS list) AS _total, "p"."id" FROM "properties" AS "p" WHERE (workspace_id = $1) ORDER BY "id" ASC LIMIT 51`
	if got := fuse(filtered, page); got != want {
		t.Fatalf("fuse = %s", got)
	}
	for name, page := range map[string]string{
		"not the filtered query": `SELECT "p"."id" FROM "properties" AS "p" WHERE (workspace_id = $2) LIMIT 51`,
		"distinct":               `SELECT DISTINCT "p"."id" FROM "p" LIMIT 51`,
	} {
		f := page[:len(page)-len(" LIMIT 51")]
		if name == "not the filtered query" {
			f = filtered
		}
		if got := fuse(f, page); got != "" {
			t.Fatalf("%s: fused into %s", name, got)
		}
	}
}
