package agreements_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/propman/propman/modules/agreements"
	"github.com/propman/propman/platform/module"
	"github.com/propman/propman/platform/testkit"
)

// runImport runs `propman agreements import FILE` on the app's database.
func runImport(t *testing.T, app *testkit.App, file string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	cmd := agreements.Entry().Commands[0]
	err := cmd.Run(context.Background(), module.CommandEnv{DB: app.DB, Out: &out}, []string{"import", file})
	return out.String(), err
}

func writeFile(t *testing.T, content []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "blocks.json")
	if err := os.WriteFile(p, content, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// stored is every row and the version, to show that a refused import
// changed nothing.
func stored(t *testing.T, app *testkit.App) string {
	t.Helper()
	var bs []agreements.Block
	if err := app.DB.NewSelect().Model(&bs).Order("id").Scan(context.Background()); err != nil {
		t.Fatal(err)
	}
	v, err := agreements.NewStore(app.DB).Version(context.Background(), app.DB)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(bs)
	return fmt.Sprintf("version %d rows %s", v, b)
}

// waitFor polls path until it answers want: the running app learns of an
// import at its next refresh.
func waitFor(t *testing.T, app *testkit.App, path string, want int) *testkit.Response {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		res := app.Get(path, "")
		if res.Status == want {
			return res
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s still answers %d, want %d: %s", path, res.Status, want, res.Body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// operatorBlock is a valid block in the import format.
func operatorBlock(code string) map[string]any {
	text := map[string]string{"en": "Garden use", "de": "Gartennutzung", "fr": "Usage du jardin", "es": "Uso del jardín", "uk": "Користування садом"}
	return map[string]any{
		"code": code, "data_type": "bool", "country": nil, "name": text, "description": text,
		"image_url": nil, "sort_order": 600,
	}
}

func fileOf(t *testing.T, blocks ...map[string]any) []byte {
	t.Helper()
	b, err := json.Marshal(blocks)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestImport(t *testing.T) {
	app := testkit.Start(t, testkit.WithConfig("modules.agreements.refresh", "20ms"))
	want := shipped(t)
	before := app.Get("/api/v1/agreement-blocks", "").Expect(http.StatusOK)

	out, err := runImport(t, app, filepath.Join("catalog", "example-import.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "imported 2 agreement block(s)") || !strings.Contains(out, "2 added, 0 updated") {
		t.Errorf("output %q", out)
	}
	var parking block
	waitFor(t, app, "/api/v1/agreement-blocks/parking_space_included", http.StatusOK).JSON(&parking)
	if parking.IsSystem || parking.DataType != "bool" || parking.Country != nil || parking.SortOrder != 500 ||
		parking.Name["uk"] != "Паркомісце включено" || parking.Description["en"] == "" || parking.ID <= 0 {
		t.Errorf("imported block %+v", parking)
	}
	var all list
	after := app.Get("/api/v1/agreement-blocks", "").Expect(http.StatusOK)
	after.JSON(&all)
	if all.Total != len(want)+2 || after.Header.Get("ETag") == before.Header.Get("ETag") {
		t.Errorf("total %d (want %d), ETag %s (before %s)", all.Total, len(want)+2, after.Header.Get("ETag"), before.Header.Get("ETag"))
	}
	sorted(t, all.AgreementBlocks)
	var de list
	app.Get("/api/v1/agreement-blocks?country=de", "").Expect(http.StatusOK).JSON(&de)
	found := false
	for _, b := range de.AgreementBlocks {
		if b.Code == "DE_HAUSORDNUNG_ATTACHED" {
			found = true
			if b.IsSystem || b.Country == nil || b.Country.Name["de"] != "Deutschland" {
				t.Errorf("DE_HAUSORDNUNG_ATTACHED: %+v", b)
			}
		}
	}
	if !found {
		t.Error("the imported DE block is not in the DE list")
	}
	var fr list
	app.Get("/api/v1/agreement-blocks?country=FR", "").Expect(http.StatusOK).JSON(&fr)
	for _, b := range fr.AgreementBlocks {
		if b.Code == "DE_HAUSORDNUNG_ATTACHED" {
			t.Error("the imported DE block is in the FR list")
		}
	}
	var bools byType
	app.Get("/api/v1/agreement-blocks/by-type/bool", "").Expect(http.StatusOK).JSON(&bools)
	inBools := 0
	for _, b := range bools.AgreementBlocks {
		if !b.IsSystem {
			inBools++
		}
	}
	if inBools != 2 {
		t.Errorf("%d operator blocks among the bool ones, want 2", inBools)
	}

	// Importing an operator's code again updates that block in place.
	again := operatorBlock("PARKING_SPACE_INCLUDED")
	again["sort_order"] = 501
	out, err = runImport(t, app, writeFile(t, fileOf(t, again, operatorBlock("GARDEN_USE"))))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "1 added, 1 updated") {
		t.Errorf("output %q", out)
	}
	waitFor(t, app, "/api/v1/agreement-blocks/GARDEN_USE", http.StatusOK)
	var updated block
	app.Get("/api/v1/agreement-blocks/PARKING_SPACE_INCLUDED", "").Expect(http.StatusOK).JSON(&updated)
	if updated.ID != parking.ID || updated.SortOrder != 501 || updated.Name["en"] != "Garden use" || updated.IsSystem {
		t.Errorf("re-imported block %+v (id before %d)", updated, parking.ID)
	}

	// The seed at the next start leaves operator blocks alone and keeps the
	// shipped ones at the shipped text.
	ctx := context.Background()
	if _, err := app.DB.NewUpdate().Model((*agreements.Block)(nil)).Set("sort_order = 9999").
		Where("code = ?", "MONTHLY_RENT_AMOUNT").Exec(ctx); err != nil {
		t.Fatal(err)
	}
	if err := agreements.Seed(ctx, app.DB); err != nil {
		t.Fatal(err)
	}
	var rows []agreements.Block
	if err := app.DB.NewSelect().Model(&rows).Order("code").Scan(ctx); err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(want)+3 {
		t.Errorf("%d rows after the seed, want %d", len(rows), len(want)+3)
	}
	for _, r := range rows {
		w, system := want[r.Code]
		if r.IsSystem != system {
			t.Errorf("%s: is_system %v", r.Code, r.IsSystem)
		}
		if system && (r.SortOrder != w.SortOrder || !reflect.DeepEqual(r.Name, w.Name)) {
			t.Errorf("%s: not at the shipped text after the seed: sort_order %d", r.Code, r.SortOrder)
		}
		if r.Code == "PARKING_SPACE_INCLUDED" && r.SortOrder != 501 {
			t.Errorf("the seed changed an operator block: %+v", r)
		}
	}
}

func TestImportRefusesBadFiles(t *testing.T) {
	app := testkit.Start(t, testkit.WithConfig("modules.agreements.refresh", "20ms"))
	ok := operatorBlock("GARDEN_USE")
	with := func(key string, v any) map[string]any {
		b := operatorBlock("BAD_BLOCK")
		if v == nil {
			delete(b, key)
		} else {
			b[key] = v
		}
		return b
	}
	partial := map[string]string{"en": "x", "de": "x", "fr": "x", "es": "x"}
	full := map[string]string{"en": "x", "de": "x", "fr": "x", "es": "x", "uk": "x"}
	long := map[string]string{"en": strings.Repeat("é", 201), "de": "x", "fr": "x", "es": "x", "uk": "x"}
	extra := map[string]string{"en": "x", "de": "x", "fr": "x", "es": "x", "uk": "x", "xx": "x"}
	blank := map[string]string{"en": "  ", "de": "x", "fr": "x", "es": "x", "uk": "x"}
	many := make([]map[string]any, agreements.MaxImportBlocks+1)
	for i := range many {
		many[i] = operatorBlock(fmt.Sprintf("BLOCK_%d", i))
	}
	huge := append([]byte(`[{"code": "HUGE", "x": "`), bytes.Repeat([]byte("a"), agreements.MaxImportBytes)...)
	huge = append(huge, `"}]`...)

	cases := []struct {
		name    string
		content []byte
		want    []string
	}{
		{"empty file", []byte("  \n"), []string{"the file is empty"}},
		{"malformed JSON", []byte("[\n  {\"code\": \"GARDEN_USE\",\n  }\n]"), []string{"line 3, column 3"}},
		{"not an array", []byte(`{"code": "GARDEN_USE"}`), []string{"not a JSON array of blocks"}},
		{"no blocks", []byte(`[]`), []string{"the array holds no blocks"}},
		{"too many blocks", fileOf(t, many...), []string{"1001 blocks; at most 1000"}},
		{"too big", huge, []string{"more than 4194304 bytes"}},
		{"unknown field", fileOf(t, ok, with("colour", "red")), []string{`block 2: unknown field "colour"`}},
		{"wrong type", fileOf(t, with("sort_order", "ten")), []string{"block 1: ", "sort_order", "string"}},
		{"lower-case code", fileOf(t, operatorBlock("garden_use")), []string{`block 1 (garden_use): code "garden_use": use 2 to 64 upper-case`}},
		{"missing code", fileOf(t, with("code", nil)), []string{`block 1: code "": use 2 to 64`}},
		{"bad data type", fileOf(t, with("data_type", "string")), []string{`block 1 (BAD_BLOCK): data_type "string": use one of int, float, bool, text, date`}},
		{"malformed country", fileOf(t, with("country", "de")), []string{`block 1 (BAD_BLOCK): country "de": use an upper-case two-letter`}},
		{"unknown country", fileOf(t, with("country", "ZZ")), []string{`block 1 (BAD_BLOCK): country "ZZ" is not an active country`}},
		{"missing locale", fileOf(t, with("name", partial)), []string{`block 1 (BAD_BLOCK): name: no text for uk (every block needs en, de, fr, es, uk)`}},
		{"unknown locale", fileOf(t, with("description", extra)), []string{`block 1 (BAD_BLOCK): description: "xx" is not an active language code`}},
		{"blank text", fileOf(t, with("name", blank)), []string{"block 1 (BAD_BLOCK): name.en: empty"}},
		{"overlong name", fileOf(t, with("name", long)), []string{"block 1 (BAD_BLOCK): name.en: 201 characters; at most 200"}},
		{"bad image url", fileOf(t, with("image_url", "ftp://example.org/a.png")), []string{`block 1 (BAD_BLOCK): image_url "ftp://example.org/a.png": use an absolute http(s) URL`}},
		{"relative image url", fileOf(t, with("image_url", "/a.png")), []string{`image_url "/a.png"`}},
		{"negative sort order", fileOf(t, with("sort_order", -1)), []string{"block 1 (BAD_BLOCK): sort_order -1: use 0 to 1000000"}},
		{"duplicate in file", fileOf(t, ok, ok), []string{"block 2 (GARDEN_USE): code: also used by block 1"}},
		{"system code", fileOf(t, ok, operatorBlock("DEPOSIT_MONTHS")), []string{"block 2 (DEPOSIT_MONTHS): code: a shipped system block has this code"}},
		{"every problem at once", fileOf(t, ok, with("data_type", "x"), with("name", partial), with("description", full), operatorBlock("lower")),
			[]string{"5 problem(s), nothing imported", "block 2 (BAD_BLOCK): data_type", "block 3 (BAD_BLOCK): name", "block 3 (BAD_BLOCK): code: also used by block 2", "block 4 (BAD_BLOCK): code: also used by block 2", "block 5 (lower): code"}},
	}
	before := stored(t, app)
	listBefore := app.Get("/api/v1/agreement-blocks", "").Expect(http.StatusOK)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, err := runImport(t, app, writeFile(t, tc.content))
			if err == nil {
				t.Fatalf("imported: %s", out)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error does not say %q:\n%v", w, err)
				}
			}
			if !strings.Contains(err.Error(), "nothing imported") {
				t.Errorf("error does not say that nothing was imported:\n%v", err)
			}
			if now := stored(t, app); now != before {
				t.Errorf("the database changed")
			}
		})
	}
	t.Run("no such file", func(t *testing.T) {
		if _, err := runImport(t, app, filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.Contains(err.Error(), "missing.json") {
			t.Errorf("error %v", err)
		}
	})
	t.Run("usage", func(t *testing.T) {
		cmd := agreements.Entry().Commands[0]
		for _, args := range [][]string{nil, {"import"}, {"export", "x.json"}, {"import", "a.json", "b.json"}} {
			err := cmd.Run(context.Background(), module.CommandEnv{DB: app.DB, Out: &bytes.Buffer{}}, args)
			if err == nil || !strings.Contains(err.Error(), "usage: propman agreements import FILE.json") {
				t.Errorf("%v: error %v", args, err)
			}
		}
	})
	if now := stored(t, app); now != before {
		t.Errorf("the database changed")
	}
	// A refresh interval has passed many times over; the answer is the same.
	time.Sleep(100 * time.Millisecond)
	listAfter := app.Get("/api/v1/agreement-blocks", "").Expect(http.StatusOK)
	if listAfter.Header.Get("ETag") != listBefore.Header.Get("ETag") {
		t.Error("the served list changed")
	}
	app.Get("/api/v1/agreement-blocks/GARDEN_USE", "").Expect(http.StatusNotFound)
}
