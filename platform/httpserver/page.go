package httpserver

import (
	"strconv"

	"github.com/gofiber/fiber/v2"

	"github.com/propman/propman/platform/apierror"
)

// Page is the ?page=&per_page= of a list request.
type Page struct {
	Number  int
	PerPage int
}

// Pagination bounds of every growing list (API-DECISIONS "Everywhere").
const (
	DefaultPerPage = 50
	MaxPerPage     = 200
)

// ParsePage reads ?page= (from 1) and ?per_page= (1 to 200, default 50);
// anything else is a 400.
func ParsePage(c *fiber.Ctx) (Page, error) {
	p := Page{Number: 1, PerPage: DefaultPerPage}
	var details []string
	if raw := c.Query("page"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > 1_000_000 {
			details = append(details, "page: must be a whole number from 1")
		} else {
			p.Number = n
		}
	}
	if raw := c.Query("per_page"); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil || n < 1 || n > MaxPerPage {
			details = append(details, "per_page: must be a whole number from 1 to 200")
		} else {
			p.PerPage = n
		}
	}
	if len(details) > 0 {
		return Page{}, apierror.Validation(details...)
	}
	return p, nil
}

// Offset is the number of records before the page.
func (p Page) Offset() int { return (p.Number - 1) * p.PerPage }
