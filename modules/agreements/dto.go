package agreements

// blockJSON is the Agreement block resource of the specification.
type blockJSON struct {
	ID          int64             `json:"id"`
	Code        string            `json:"code"`
	DataType    string            `json:"data_type"`
	Country     *countryJSON      `json:"country"`
	Name        map[string]string `json:"name"`
	Description map[string]string `json:"description"`
	ImageURL    *string           `json:"image_url"`
	IsSystem    bool              `json:"is_system"`
	SortOrder   int               `json:"sort_order"`
}

type countryJSON struct {
	Code string            `json:"code"`
	Name map[string]string `json:"name"`
}

type listJSON struct {
	AgreementBlocks []blockJSON `json:"agreement_blocks"`
	CountryFilter   *string     `json:"country_filter"`
	Total           int         `json:"total"`
}

type byTypeJSON struct {
	AgreementBlocks []blockJSON `json:"agreement_blocks"`
	DataType        string      `json:"data_type"`
	Total           int         `json:"total"`
}

// toJSON converts a stored block; countryName gives the localized name of a
// country code.
func toJSON(b Block, countryName func(string) map[string]string) blockJSON {
	out := blockJSON{
		ID: b.ID, Code: b.Code, DataType: b.DataType, Name: b.Name, Description: b.Description,
		ImageURL: b.ImageURL, IsSystem: b.IsSystem, SortOrder: b.SortOrder,
	}
	if out.Name == nil {
		out.Name = map[string]string{}
	}
	if out.Description == nil {
		out.Description = map[string]string{}
	}
	if b.CountryCode != nil {
		out.Country = &countryJSON{Code: *b.CountryCode, Name: countryName(*b.CountryCode)}
	}
	return out
}
