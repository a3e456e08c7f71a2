package tools

import (
	"errors"
	"net/http"
	"net/url"
	"sort"
	"strings"

	"github.com/gofiber/fiber/v2"
	"golang.org/x/text/language"

	"go.uber.org/fx"

	"github.com/propman/propman/modules/accounts"
	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/platform/apierror"
	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/tracking"
)

// Handler answers the tools routes.
type Handler struct {
	geo *Geocoder
	dir *reference.Directory
	// links holds the help links' answer per locale, encoded once: the
	// configuration does not change while the service runs.
	links   map[string]httpserver.Payload
	locales []string // those of links, sorted
	// tokens and accounts read a signed-in caller's profile language on
	// this public route; nil without the accounts module.
	tokens   *auth.Tokens
	accounts *accounts.Service
}

// HandlerParams are the handler's dependencies as fx provides them.
type HandlerParams struct {
	fx.In

	Config   Config
	Geocoder *Geocoder
	Dir      *reference.Directory
	Tokens   *auth.Tokens      `optional:"true"`
	Accounts *accounts.Service `optional:"true"`
}

// NewHandlerFx is NewHandler with the profile language of signed-in
// callers.
func NewHandlerFx(p HandlerParams) (*Handler, error) {
	h, err := NewHandler(p.Config, p.Geocoder, p.Dir)
	if err != nil {
		return nil, err
	}
	h.tokens, h.accounts = p.Tokens, p.Accounts
	return h, nil
}

type linkJSON struct {
	Key    string `json:"key"`
	Title  string `json:"title"`
	URL    string `json:"url"`
	Locale string `json:"locale"`
}

type linksJSON struct {
	Locale string     `json:"locale"`
	Links  []linkJSON `json:"links"`
}

// NewHandler encodes the help links for every locale they have (and the
// service's five) and returns the handler.
func NewHandler(cfg Config, geo *Geocoder, dir *reference.Directory) (*Handler, error) {
	h := &Handler{geo: geo, dir: dir, links: map[string]httpserver.Payload{}}
	set := map[string]bool{"en": true, "de": true, "fr": true, "es": true, "uk": true}
	for _, l := range cfg.HelpLinks {
		for loc := range l.Title {
			set[loc] = true
		}
		for loc := range l.URL {
			set[loc] = true
		}
	}
	for loc := range set {
		h.locales = append(h.locales, loc)
	}
	sort.Strings(h.locales)
	for _, loc := range h.locales {
		out := linksJSON{Locale: loc, Links: []linkJSON{}}
		for _, l := range cfg.HelpLinks {
			j := linkJSON{Key: l.Key, Title: l.Title["en"], URL: l.URL["en"], Locale: "en"}
			if t, ok := l.Title[loc]; ok {
				j.Title, j.Locale = t, loc
			}
			if u, ok := l.URL[loc]; ok {
				j.URL = u
			}
			out.Links = append(out.Links, j)
		}
		p, err := httpserver.NewPayload(out)
		if err != nil {
			return nil, err
		}
		h.links[loc] = p
	}
	return h, nil
}

// helpLinks: ?locale= wins (a language the service does not have is a
// 400, as everywhere ?locale= is taken), then the profile language of a
// signed-in caller, then the first language of Accept-Language the links
// have, then English.
func (h *Handler) helpLinks(c *fiber.Ctx) error {
	loc := "en"
	if q := c.Query("locale"); q != "" {
		q = strings.ToLower(q)
		if !localeCode.MatchString(q) {
			return apierror.Validation("locale: must be a two-letter language code (ISO 639-1), such as de")
		}
		if _, ok := h.links[q]; !ok {
			return apierror.Validation("locale: " + q + " is not a language of this service (" + strings.Join(h.locales, ", ") + ")")
		}
		loc = q
	} else if p := h.profileLocale(c); p != "" {
		loc = p
	} else if al := c.Get(fiber.HeaderAcceptLanguage); al != "" && len(al) <= 256 {
		if tags, _, err := language.ParseAcceptLanguage(al); err == nil {
			for _, t := range tags {
				base, _ := t.Base()
				if _, ok := h.links[base.String()]; ok {
					loc = base.String()
					break
				}
			}
		}
	}
	c.Vary(fiber.HeaderAcceptLanguage, fiber.HeaderAuthorization)
	return httpserver.SendPayload(c, h.links[loc])
}

// profileLocale is the profile language of the caller when the request
// carries a valid token and the links have that language, else "". A
// broken or expired token is not an error here: the route is public.
func (h *Handler) profileLocale(c *fiber.Ctx) string {
	if h.tokens == nil || h.accounts == nil {
		return ""
	}
	raw, ok := strings.CutPrefix(c.Get(fiber.HeaderAuthorization), "Bearer ")
	if !ok || raw == "" {
		return ""
	}
	claims, err := h.tokens.Parse(raw)
	if err != nil {
		return ""
	}
	id, err := claims.UserID()
	if err != nil {
		return ""
	}
	u, err := h.accounts.User(httpserver.Context(c), id)
	if err != nil {
		return ""
	}
	if _, ok := h.links[u.Locale]; !ok {
		return ""
	}
	return u.Locale
}

type trackingJSON struct {
	Number      string  `json:"number"`
	Carrier     string  `json:"carrier"`
	CarrierName string  `json:"carrier_name"`
	Format      string  `json:"format"`
	Country     *string `json:"country"`
	Service     *string `json:"service"`
	TrackingURL *string `json:"tracking_url"`
}

func orNull(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

func (h *Handler) postalTracking(c *fiber.Ctx) error {
	// Fiber leaves the path parameter percent-encoded ("RR%20123...").
	number, err := url.PathUnescape(c.Params("number"))
	if err != nil {
		number = ""
	}
	r, err := Track(number)
	if err != nil {
		return err
	}
	return c.JSON(trackingJSON{Number: r.Number, Carrier: r.Carrier, CarrierName: r.CarrierName, Format: r.Format,
		Country: orNull(r.Country), Service: orNull(r.Service), TrackingURL: orNull(r.URL)})
}

// Track identifies a tracking number as GET /tools/postal-tracking does,
// its refusals as the API's 422 errors (unknown_tracking_number,
// check_digit_mismatch). Other modules call it (messages of channel post).
func Track(number string) (tracking.Result, error) {
	r, err := tracking.Identify(number)
	var ce *tracking.CheckError
	switch {
	case errors.As(err, &ce):
		return r, apierror.New(http.StatusUnprocessableEntity, "check_digit_mismatch",
			"The number has the "+ce.Format+" format but its check digit does not match: most likely a character is mistyped.")
	case err != nil:
		return r, apierror.New(http.StatusUnprocessableEntity, "unknown_tracking_number",
			"The number matches none of the known formats (UPU S10 of national posts, UPS 1Z, DHL Express, FedEx, Nova Poshta).")
	}
	return r, nil
}

type geocodeJSON struct {
	Address string `json:"address"`
	Place
	Cached bool `json:"cached"`
}

func (h *Handler) geocode(c *fiber.Ctx) error {
	address, err := CheckAddress(c.Query("address"))
	if err != nil {
		return err
	}
	country := strings.ToUpper(c.Query("country"))
	if country != "" {
		if _, ok := h.dir.Country(country); !ok || len(country) != 2 {
			return apierror.Validation("country: must be the two-letter ISO 3166-1 code of an active country")
		}
	}
	p, cached, err := h.geo.Geocode(httpserver.Context(c), address, country)
	if err != nil {
		return err
	}
	return c.JSON(geocodeJSON{Address: address, Place: p, Cached: cached})
}
