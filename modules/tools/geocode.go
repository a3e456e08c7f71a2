package tools

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/uptrace/bun"

	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/modules/tools/cities"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/fault"
)

// Precision of an answer: the point of the address itself, or the
// centre of its city.
const (
	PrecisionAddress = "address"
	PrecisionCity    = "city"
	maxAddress       = 300 // characters
	maxProviderBody  = 1 << 20
	// leasePoll is how often a request waiting for the lease looks again.
	leasePoll = 20 * time.Millisecond
)

// Place is a geocoding answer.
type Place struct {
	Lat         float64 `json:"lat"`
	Lon         float64 `json:"lon"`
	Precision   string  `json:"precision"`
	DisplayName string  `json:"display_name"`
	City        *string `json:"city"`
	CountryCode *string `json:"country_code"`
	Source      string  `json:"source"` // provider or offline
	Attribution string  `json:"attribution"`
}

// Geocoder finds coordinates: through the configured provider (paced and
// cached in the database), else from the embedded cities.
type Geocoder struct {
	db     *bun.DB
	cfg    Config
	clock  clock.Clock
	dir    *reference.Directory
	log    *slog.Logger
	client *http.Client
	// sleep waits for the provider's next free slot; tests may shorten it.
	sleep func(ctx context.Context, d time.Duration) error
}

// NewGeocoder returns the geocoder of the configuration.
func NewGeocoder(db *bun.DB, cfg Config, clk clock.Clock, dir *reference.Directory, log *slog.Logger) *Geocoder {
	return &Geocoder{db: db, cfg: cfg, clock: clk, dir: dir, log: log,
		client: &http.Client{Timeout: cfg.GeocodeTimeout, CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		}},
		sleep: func(ctx context.Context, d time.Duration) error {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-t.C:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}}
}

// CheckAddress trims an address and refuses an empty or oversized one
// (422 invalid_address).
func CheckAddress(address string) (string, error) {
	a := strings.Join(strings.Fields(address), " ")
	switch n := utf8.RuneCountInString(a); {
	case n == 0:
		return "", fault.New(fault.KindUnprocessable, "invalid_address", "address: is required (a street address, or a city and its country)")
	case n > maxAddress:
		return "", fault.New(fault.KindUnprocessable, "invalid_address", fmt.Sprintf("address: at most %d characters", maxAddress))
	}
	return a, nil
}

// Geocode answers the coordinates of address (already checked), in
// country (an upper-case code, or "") when given; cached tells whether the
// provider's answer came from the cache.
func (g *Geocoder) Geocode(ctx context.Context, address, country string) (p Place, cached bool, err error) {
	if g.cfg.GeocodeURL == "" {
		p, err = g.offline(address, country)
		return p, false, err
	}
	key := cacheKey(address, country)
	if p, found, ok, err := g.cached(ctx, key); err != nil {
		return Place{}, false, err
	} else if ok {
		if !found {
			return Place{}, true, notFound()
		}
		return p, true, nil
	}
	lease, err := g.waitTurn(ctx)
	if err != nil {
		return Place{}, false, err
	}
	p, found, err := g.ask(ctx, address, country)
	g.release(ctx, lease)
	if err != nil {
		return Place{}, false, err
	}
	if err := g.remember(ctx, key, p, found); err != nil {
		return Place{}, false, err
	}
	if !found {
		return Place{}, false, notFound()
	}
	return p, false, nil
}

func notFound() error {
	return fault.NotFound("No place found for this address.")
}

// cacheKey is the SHA-256 of the address as the provider would read it:
// case and spacing do not make a new request.
func cacheKey(address, country string) string {
	sum := sha256.Sum256([]byte(strings.ToLower(address) + "\x00" + country))
	return hex.EncodeToString(sum[:])
}

func (g *Geocoder) cached(ctx context.Context, key string) (p Place, found, ok bool, err error) {
	var row struct {
		Found     bool
		Answer    string
		FetchedAt time.Time
	}
	row.Found, row.Answer, row.FetchedAt, err = cacheRow(ctx, g.db, key)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		return Place{}, false, false, nil
	case err != nil:
		return Place{}, false, false, err
	case g.clock.Now().Sub(row.FetchedAt) > g.cfg.GeocodeCacheTTL:
		return Place{}, false, false, nil
	case !row.Found:
		return Place{}, false, true, nil
	}
	if err := json.Unmarshal([]byte(row.Answer), &p); err != nil {
		// A row this code did not write: ask again and overwrite it.
		return Place{}, false, false, nil //nolint:nilerr // a broken cache row is a miss
	}
	return p, true, true, nil
}

func (g *Geocoder) remember(ctx context.Context, key string, p Place, found bool) error {
	answer := "{}"
	if found {
		b, err := json.Marshal(p)
		if err != nil {
			return err
		}
		answer = string(b)
	}
	now := g.clock.Now().UTC().Truncate(time.Microsecond)
	return saveCacheRow(ctx, g.db, key, found, answer, now)
}

// The gate's statements take the time from the database, the one clock
// every instance shares (theirs may differ by more than the interval).
//
// A request first books a slot: one UPDATE both checks and moves
// next_ms, so two instances never book the same slot, and RETURNING tells
// the request how long to wait for it; the WHERE books nothing when the
// wait would exceed the allowed maximum. The slots queue the requests.
//
// After its wait the request takes the lease: sent_ms, set to the end of
// its timeout, only when the last request finished at least the interval
// ago; when it has its answer it sets sent_ms to that moment. So a
// request leaves the interval after the previous one has finished, which
// is after that one reached the provider: the provider sees them at least
// the interval apart however late a request woke up or however long its
// way to the provider was (both up to 50 ms on this shared test machine
// under load). A lease whose holder died ends with its timeout.
//
// The table has its one row (CHECK id = 1), so the statements need no
// WHERE on it. The time is read where it is used, not once for the
// statement: on PostgreSQL an UPDATE that waited for the row's lock
// re-checks its WHERE on the new row, and clock_timestamp() then gives the
// time after the wait. Each reading is a few microseconds later than the
// one before, which only makes a wait shorter or a check stricter by as
// much.
const (
	nowMillisPG     = "(extract(epoch from clock_timestamp()) * 1000)::bigint"
	nowMillisSQLite = "CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)"
	bookPG          = `UPDATE tools_geocode_gate SET next_ms = GREATEST(next_ms, ` + nowMillisPG + `) + ?
WHERE next_ms - ` + nowMillisPG + ` <= ? RETURNING next_ms - ? - ` + nowMillisPG
	bookSQLite = `UPDATE tools_geocode_gate SET next_ms = max(next_ms, ` + nowMillisSQLite + `) + ?
WHERE next_ms - ` + nowMillisSQLite + ` <= ? RETURNING next_ms - ? - ` + nowMillisSQLite
	bookedPG      = `SELECT next_ms - ` + nowMillisPG + ` FROM tools_geocode_gate`
	bookedSQLite  = `SELECT next_ms - ` + nowMillisSQLite + ` FROM tools_geocode_gate`
	leasePG       = `UPDATE tools_geocode_gate SET sent_ms = ` + nowMillisPG + ` + ? WHERE sent_ms <= ` + nowMillisPG + ` - ? RETURNING sent_ms`
	leaseSQLite   = `UPDATE tools_geocode_gate SET sent_ms = ` + nowMillisSQLite + ` + ? WHERE sent_ms <= ` + nowMillisSQLite + ` - ? RETURNING sent_ms`
	sincePG       = `SELECT sent_ms + ? - ` + nowMillisPG + ` FROM tools_geocode_gate`
	sinceSQLite   = `SELECT sent_ms + ? - ` + nowMillisSQLite + ` FROM tools_geocode_gate`
	releasePG     = `UPDATE tools_geocode_gate SET sent_ms = ` + nowMillisPG + ` WHERE sent_ms = ?`
	releaseSQLite = `UPDATE tools_geocode_gate SET sent_ms = ` + nowMillisSQLite + ` WHERE sent_ms = ?`
)

// waitTurn books the provider's next free slot, sleeps until it comes and
// takes the lease, whose value it returns for release; a slot further
// away than GeocodeMaxWait is a 429 with the wait.
//
// The slots are spaced a little more than the interval (a twentieth and
// 20 ms), so that a request usually finds the lease free when its slot
// comes.
func (g *Geocoder) waitTurn(ctx context.Context) (int64, error) {
	if g.cfg.GeocodeInterval <= 0 {
		return 0, nil
	}
	slot := g.cfg.GeocodeInterval + g.cfg.GeocodeInterval/20 + 20*time.Millisecond
	ms, err := bookSlot(ctx, g.db, slot.Milliseconds(), g.cfg.GeocodeMaxWait.Milliseconds())
	if errors.Is(err, sql.ErrNoRows) {
		if ms, err = bookedWait(ctx, g.db); err != nil {
			return 0, err
		}
		return 0, fault.TooManyRequests(int(math.Ceil(float64(ms-g.cfg.GeocodeMaxWait.Milliseconds()) / 1000)))
	}
	if err != nil {
		return 0, err
	}
	interval := g.cfg.GeocodeInterval.Milliseconds()
	hold := g.cfg.GeocodeTimeout.Milliseconds()
	for {
		if ms > 0 {
			if err := g.sleep(ctx, time.Duration(ms)*time.Millisecond); err != nil {
				return 0, err
			}
		}
		until, err := takeLease(ctx, g.db, hold, interval)
		if err == nil {
			return until, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return 0, err
		}
		if ms, err = leaseWait(ctx, g.db, interval); err != nil {
			return 0, err
		}
		// More than the interval to go: a request holds the lease and
		// will release it when answered, long before its timeout.
		if ms > interval {
			ms = leasePoll.Milliseconds()
		}
		ms = max(ms, 1)
	}
}

// release ends the lease taken by waitTurn: the next request may leave
// the interval after now. It runs even when the client has gone (the
// lease would otherwise hold the others for the whole timeout); a lease
// already taken over (ours expired) is left alone.
func (g *Geocoder) release(ctx context.Context, until int64) {
	if until == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	if err := releaseLease(ctx, g.db, until); err != nil {
		g.log.Warn("geocoding: releasing the provider's lease", "err", err)
	}
}

// providerPlace is the part of a Nominatim /search answer (format=jsonv2,
// addressdetails=1) this module reads.
type providerPlace struct {
	Lat         string            `json:"lat"`
	Lon         string            `json:"lon"`
	DisplayName string            `json:"display_name"`
	PlaceRank   *int              `json:"place_rank"`
	Licence     string            `json:"licence"`
	Address     map[string]string `json:"address"`
}

func providerError(msg string) error {
	return fault.New(fault.KindUpstream, "provider_error", "The geocoding provider "+msg+"; try again later.")
}

// ask sends one search to the provider.
func (g *Geocoder) ask(ctx context.Context, address, country string) (Place, bool, error) {
	q := url.Values{"q": {address}, "format": {"jsonv2"}, "limit": {"1"}, "addressdetails": {"1"}}
	if country != "" {
		q.Set("countrycodes", strings.ToLower(country))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, strings.TrimRight(g.cfg.GeocodeURL, "/")+"/search?"+q.Encode(), nil)
	if err != nil {
		return Place{}, false, err
	}
	req.Header.Set("User-Agent", g.cfg.GeocodeUserAgent)
	req.Header.Set("Accept", "application/json")
	res, err := g.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return Place{}, false, ctx.Err()
		}
		g.log.Warn("geocoding provider unreachable", "err", err)
		return Place{}, false, providerError("did not answer")
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, maxProviderBody+1))
	switch {
	case err != nil:
		return Place{}, false, providerError("answer was cut off")
	case res.StatusCode != http.StatusOK:
		g.log.Warn("geocoding provider refused", "status", res.StatusCode)
		return Place{}, false, providerError("answered " + strconv.Itoa(res.StatusCode))
	case len(body) > maxProviderBody:
		return Place{}, false, providerError("answer is too large")
	}
	var found []providerPlace
	if err := json.Unmarshal(body, &found); err != nil {
		return Place{}, false, providerError("answer is not a Nominatim search result")
	}
	if len(found) == 0 {
		return Place{}, false, nil
	}
	f := found[0]
	lat, e1 := strconv.ParseFloat(f.Lat, 64)
	lon, e2 := strconv.ParseFloat(f.Lon, 64)
	if e1 != nil || e2 != nil || math.Abs(lat) > 90 || math.Abs(lon) > 180 {
		return Place{}, false, providerError("answered coordinates that are not numbers")
	}
	p := Place{Lat: lat, Lon: lon, Precision: PrecisionAddress, DisplayName: clip(f.DisplayName, 500), Source: "provider",
		Attribution: clip(f.Licence, 300)}
	if p.Attribution == "" {
		p.Attribution = "Data © OpenStreetMap contributors, ODbL 1.0"
	}
	// Nominatim's place_rank: 26 and above are streets, houses and
	// points; below, the answer is a town, a region or a country.
	if f.PlaceRank != nil && *f.PlaceRank < 26 {
		p.Precision = PrecisionCity
	}
	for _, k := range []string{"city", "town", "village", "municipality", "hamlet"} {
		if v := f.Address[k]; v != "" {
			c := clip(v, 200)
			p.City = &c
			break
		}
	}
	if cc := strings.ToUpper(f.Address["country_code"]); len(cc) == 2 {
		p.CountryCode = &cc
	}
	return p, true, nil
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// offline finds the city of an address in the embedded data: the parts
// between commas are tried from the last (addresses end with the city and
// the country), the last one first as a country (code or name in any
// language of the reference data), postal codes dropped.
func (g *Geocoder) offline(address, country string) (Place, error) {
	ix, err := cities.Default()
	if err != nil {
		return Place{}, err
	}
	parts := strings.Split(address, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	if country == "" && len(parts) > 1 {
		if cc, ok := g.countryOf(parts[len(parts)-1]); ok {
			country, parts = cc, parts[:len(parts)-1]
		}
	}
	for i := len(parts) - 1; i >= 0; i-- {
		for _, name := range candidates(parts[i]) {
			if found := ix.Find(name, country); len(found) > 0 {
				c := found[0]
				name, cc := c.Name, c.Country
				return Place{Lat: c.Lat, Lon: c.Lon, Precision: PrecisionCity, DisplayName: c.Name + ", " + c.Country,
					City: &name, CountryCode: &cc, Source: "offline", Attribution: cities.Attribution}, nil
			}
		}
	}
	return Place{}, fault.NotFound("No city of that name in the offline data (no geocoding provider is configured, so only cities are found).")
}

// candidates are the names a part of an address may hold: itself, and
// itself without the words that hold digits ("10115 Berlin" is Berlin).
func candidates(part string) []string {
	out := []string{part}
	var words []string
	for _, w := range strings.Fields(part) {
		if !strings.ContainsAny(w, "0123456789") {
			words = append(words, w)
		}
	}
	if s := strings.Join(words, " "); s != "" && s != part {
		out = append(out, s)
	}
	return out
}

// countryOf reads s as a country: an ISO code or a name in any of the
// reference data's languages.
func (g *Geocoder) countryOf(s string) (string, bool) {
	if len(s) == 2 {
		if c, ok := g.dir.Country(strings.ToUpper(s)); ok {
			return c.Code, true
		}
	}
	key := cities.Fold(s)
	for _, c := range g.dir.Countries() {
		for _, n := range c.Name {
			if cities.Fold(n) == key {
				return c.Code, true
			}
		}
	}
	return "", false
}
