package agreements

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/propman/propman/modules/agreements/catalog"
	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/platform/fault"
	"github.com/propman/propman/platform/httpserver"
)

// Response is a precomputed answer: its JSON body and strong ETag.
type Response = httpserver.Payload

func newResponse(v any) (*Response, error) {
	p, err := httpserver.NewPayload(v)
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// errNotFound is the specification's exact 404 body for an unknown code.
var errNotFound = fault.WithBody(fault.KindNotFound, map[string]string{"error": "Agreement block not found"})

// Responses holds the answers of the three endpoints, computed once per
// version of the catalogue: the blocks change only when a release or an
// operator changes them, while every contract form reads them, so a request
// costs a map lookup and a write of ready bytes.
type Responses struct {
	store *Store
	dir   *reference.Directory
	view  atomic.Pointer[view]
	// reload serialises Refresh, so two reloads never race to publish.
	reload sync.Mutex
}

type view struct {
	version   int64
	all       *Response
	byCountry map[string]*Response // countries that have blocks of their own
	byType    map[string]*Response
	byCode    map[string]*Response
	// generic are the blocks without a country, for the answer to an active
	// country that has none of its own; those answers are made on first use
	// and kept in others (at most one per active country).
	generic []blockJSON
	others  sync.Map // country code -> *Response
}

// OpenResponses loads the catalogue and computes every answer.
func OpenResponses(ctx context.Context, store *Store, dir *reference.Directory) (*Responses, error) {
	r := &Responses{store: store, dir: dir}
	if _, err := r.Refresh(ctx); err != nil {
		return nil, err
	}
	return r, nil
}

// Version is the catalogue version the answers were computed from.
func (r *Responses) Version() int64 { return r.view.Load().version }

// Refresh recomputes the answers when the stored version differs from the
// served one, and reports whether it did.
func (r *Responses) Refresh(ctx context.Context) (bool, error) {
	r.reload.Lock()
	defer r.reload.Unlock()
	version, err := r.store.Version(ctx, r.store.DB())
	if err != nil {
		return false, err
	}
	if cur := r.view.Load(); cur != nil && cur.version == version {
		return false, nil
	}
	// Read after the version: a change in between raises the version again,
	// so the next Refresh catches it.
	blocks, err := r.store.All(ctx)
	if err != nil {
		return false, err
	}
	v, err := buildView(version, blocks, r.countryName)
	if err != nil {
		return false, err
	}
	r.view.Store(v)
	return true, nil
}

// refreshLogged is one periodic check: an import reaches a running
// instance within one interval. A failed check keeps the answers being
// served and is retried at the next tick.
func (r *Responses) refreshLogged(ctx context.Context, log *slog.Logger) {
	changed, err := r.Refresh(ctx)
	switch {
	case err != nil && ctx.Err() == nil:
		log.Warn("agreement blocks: refresh failed; serving the previous catalogue", "error", err)
	case changed:
		log.Info("agreement blocks: catalogue reloaded", "version", r.Version())
	}
}

func (r *Responses) countryName(code string) map[string]string {
	if c, ok := r.dir.Country(code); ok && c.Name != nil {
		return c.Name
	}
	// A block's country was deactivated after it was imported: its code
	// still says which country it is.
	return map[string]string{}
}

func sortBlocks(bs []Block) {
	slices.SortFunc(bs, func(a, b Block) int {
		return cmp.Or(cmp.Compare(a.SortOrder, b.SortOrder), strings.Compare(a.Code, b.Code))
	})
}

func buildView(version int64, blocks []Block, countryName func(string) map[string]string) (*view, error) {
	sortBlocks(blocks)
	v := &view{
		version:   version,
		byCountry: map[string]*Response{},
		byType:    map[string]*Response{},
		byCode:    make(map[string]*Response, len(blocks)),
		generic:   []blockJSON{},
	}
	all := make([]blockJSON, 0, len(blocks))
	perCountry := map[string][]blockJSON{}
	perType := map[string][]blockJSON{}
	for _, t := range catalog.DataTypes {
		perType[t] = []blockJSON{}
	}
	var err error
	for _, b := range blocks {
		j := toJSON(b, countryName)
		all = append(all, j)
		perType[b.DataType] = append(perType[b.DataType], j)
		if b.CountryCode == nil {
			v.generic = append(v.generic, j)
		} else {
			perCountry[*b.CountryCode] = append(perCountry[*b.CountryCode], j)
		}
		if v.byCode[b.Code], err = newResponse(j); err != nil {
			return nil, fmt.Errorf("agreement block %s: %w", b.Code, err)
		}
	}
	if v.all, err = newResponse(listJSON{AgreementBlocks: all, Total: len(all)}); err != nil {
		return nil, err
	}
	for code := range perCountry {
		// The country's blocks and the generic ones, in the one order.
		list := make([]blockJSON, 0, len(perCountry[code])+len(v.generic))
		for _, j := range all {
			if j.Country == nil || j.Country.Code == code {
				list = append(list, j)
			}
		}
		if v.byCountry[code], err = newResponse(listJSON{AgreementBlocks: list, CountryFilter: &code, Total: len(list)}); err != nil {
			return nil, err
		}
	}
	for _, t := range slices.Sorted(maps.Keys(perType)) {
		if v.byType[t], err = newResponse(byTypeJSON{AgreementBlocks: perType[t], DataType: t, Total: len(perType[t])}); err != nil {
			return nil, err
		}
	}
	return v, nil
}

// List answers GET /agreement-blocks?country=. An empty country is no
// filter; a malformed or inactive country is a 400.
func (r *Responses) List(country string) (*Response, error) {
	v := r.view.Load()
	country = strings.TrimSpace(country)
	if country == "" {
		return v.all, nil
	}
	code := strings.ToUpper(country)
	if res, ok := v.byCountry[code]; ok {
		return res, nil
	}
	if !isCountryCode(code) {
		return nil, fault.Validation(fmt.Sprintf("country: %q is not a two-letter ISO 3166-1 country code such as DE", clip(country, 16)))
	}
	if _, ok := r.dir.Country(code); !ok {
		return nil, fault.Validation(fmt.Sprintf("country: %s is not an active country (see GET /api/v1/countries)", code))
	}
	if res, ok := v.others.Load(code); ok {
		return res.(*Response), nil
	}
	// Kept as a key and in the body: a copy, not the request's buffer
	// (ToUpper returns its argument when it is upper case already).
	code = strings.Clone(code)
	res, err := newResponse(listJSON{AgreementBlocks: v.generic, CountryFilter: &code, Total: len(v.generic)})
	if err != nil {
		return nil, err
	}
	got, _ := v.others.LoadOrStore(code, res)
	return got.(*Response), nil
}

func isCountryCode(s string) bool {
	return len(s) == 2 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= 'A' && s[1] <= 'Z'
}

// ByCode answers GET /agreement-blocks/{code}, matching the code in any case.
// The code as sent is tried first: clients send it as listed, and upper-
// casing a code of twenty letters cost more than the look-up (callgrind).
func (r *Responses) ByCode(code string) (*Response, error) {
	v := r.view.Load()
	if res, ok := v.byCode[code]; ok {
		return res, nil
	}
	if res, ok := v.byCode[strings.ToUpper(code)]; ok {
		return res, nil
	}
	return nil, errNotFound
}

// ByType answers GET /agreement-blocks/by-type/{dataType}; the type is
// matched in any case and answered in lower case.
func (r *Responses) ByType(dataType string) (*Response, error) {
	if res, ok := r.view.Load().byType[strings.ToLower(dataType)]; ok {
		return res, nil
	}
	return nil, fault.WithBody(fault.KindInvalid, map[string]string{
		"error": fmt.Sprintf("Invalid data type %q. Allowed types: %s", clip(dataType, 32), strings.Join(catalog.DataTypes, ", ")),
	})
}
