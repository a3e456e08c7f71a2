package workspaces

import (
	"context"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"github.com/propman/propman/platform/auth"
)

// TenantLink is a row of tenant_links: the user is the tenant the
// contragent of the workspace stands for.
type TenantLink struct {
	bun.BaseModel `bun:"table:tenant_links"`

	UserID       int64     `bun:"user_id,pk"`
	ContragentID uuid.UUID `bun:"contragent_id,pk"`
	WorkspaceID  int64     `bun:"workspace_id,notnull"`
	CreatedAt    time.Time `bun:"created_at,notnull"`
}

// notMember is the guard's answer for a user without a role in the
// workspace with id: auth.ErrTenant when they are a tenant there (the
// guard then answers 404), else auth.ErrNotMember.
func (s *Service) notMember(ctx context.Context, userID, id int64) error {
	if id == 0 {
		return auth.ErrNotMember
	}
	tenant, err := tenantIn(ctx, s.db, id, userID)
	if err != nil {
		return err
	}
	if tenant {
		return auth.ErrTenant
	}
	return auth.ErrNotMember
}

// LinkTenant links the user to the contragent of the workspace, through
// tx (the accepting of a portal invitation); linking twice is no change.
func (s *Service) LinkTenant(ctx context.Context, tx bun.IDB, userID int64, contragentID uuid.UUID, workspaceID int64) error {
	l := &TenantLink{UserID: userID, ContragentID: contragentID, WorkspaceID: workspaceID, CreatedAt: s.now()}
	return insertTenantLink(ctx, tx, l)
}

// TenantOf returns the contragents the user is the tenant of, with their
// workspaces.
func (s *Service) TenantOf(ctx context.Context, userID int64) ([]TenantLink, error) {
	return tenantLinks(ctx, s.db, userID)
}
