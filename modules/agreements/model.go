package agreements

import (
	"time"

	"github.com/uptrace/bun"
)

// The data types a block's value can have.
const (
	TypeInt   = "int"
	TypeFloat = "float"
	TypeBool  = "bool"
	TypeText  = "text"
	TypeDate  = "date"
)

// Block is one agreement block (a contract condition) as stored.
type Block struct {
	bun.BaseModel `bun:"table:agreement_blocks"`

	ID       int64  `bun:"id,pk,autoincrement"`
	Code     string `bun:"code,notnull"`
	DataType string `bun:"data_type,notnull"`
	// CountryCode is nil for a generic block.
	CountryCode *string           `bun:"country_code"`
	Name        map[string]string `bun:"name,type:json,notnull"`
	Description map[string]string `bun:"description,type:json,notnull"`
	ImageURL    *string           `bun:"image_url"`
	IsSystem    bool              `bun:"is_system,notnull"`
	SortOrder   int               `bun:"sort_order,notnull"`
	CreatedAt   time.Time         `bun:"created_at,notnull"`
	UpdatedAt   time.Time         `bun:"updated_at,notnull"`
}
