package accounts

// UserView is the User resource of GET /auth/me.
type UserView struct {
	ID        int64      `json:"id"`
	Name      string     `json:"name"`
	Email     string     `json:"email"`
	Phone     *string    `json:"phone"`
	Locale    string     `json:"locale"`
	Country   CountryRef `json:"country"`
	Roles     []string   `json:"roles"`
	IsActive  bool       `json:"is_active"`
	CreatedAt string     `json:"created_at"`
}

// CountryRef is the user's country as the User resource shows it.
type CountryRef struct {
	Code      string `json:"code"`
	PhoneCode string `json:"phone_code"`
}

// ProfileView is the User resource with updated_at and the postal address.
// The address is not part of the User resource of GET /auth/me, whose
// fields the spec fixes; the profile may show more.
type ProfileView struct {
	UserView
	UpdatedAt     string         `json:"updated_at"`
	PostalAddress *PostalAddress `json:"postal_address"`
	// LandlordType: natural_person or company (the French lease's term).
	LandlordType string `json:"landlord_type"`
}

// PostalAddress is a postal address in the shape of a property's: the
// street line, postal code, city and ISO country code.
type PostalAddress struct {
	Address     string `json:"address"`
	PostalCode  string `json:"postal_code"`
	City        string `json:"city"`
	CountryCode string `json:"country_code"`
}

type registerRequest struct {
	Name   string `json:"name"`
	Email  string `json:"email"`
	Locale string `json:"locale"`
}

type verifyRequest struct {
	Email       string `json:"email"`
	Code        string `json:"code"`
	Password    string `json:"password"`
	CountryCode string `json:"country_code"`
	Phone       string `json:"phone"`
	Locale      string `json:"locale"`
	// ReferralCode links the new account to a partner's invitation (the
	// partners module); optional.
	ReferralCode string `json:"referral_code"`
}

type loginRequest struct {
	Email    string `json:"email" validate:"required,max=254"`
	Password string `json:"password" validate:"required,max=512"`
}

type registerResponse struct {
	Success bool   `json:"success"`
	Message string `json:"message"`
}

type verifyResponse struct {
	Success bool        `json:"success"`
	Message string      `json:"message"`
	User    createdUser `json:"user"`
}

type createdUser struct {
	ID    int64  `json:"id"`
	Name  string `json:"name"`
	Email string `json:"email"`
}

type tokenResponse struct {
	Token string `json:"token"`
}

type refreshResponse struct {
	Message   string `json:"message"`
	Token     string `json:"token"`
	ExpiresIn int    `json:"expires_in"`
}

// successFailure is the error body of register and register/verify.
type successFailure struct {
	Success bool     `json:"success"`
	Error   string   `json:"error"`
	Message string   `json:"message,omitempty"`
	Details []string `json:"details,omitempty"`
	Wait    int      `json:"wait,omitempty"`
}

// codeMessage is the error body of login and of every 401: {code, message}.
type codeMessage struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	Wait    int    `json:"wait,omitempty"`
}
