package mail

import (
	"errors"

	"github.com/propman/propman/platform/config"
)

// NewSMTP returns a mailer that sends through the SMTP server of cfg.URL.
func NewSMTP(cfg config.Mail) (Mailer, error) {
	return nil, errors.New("mail.url: SMTP sending is not built yet")
}
