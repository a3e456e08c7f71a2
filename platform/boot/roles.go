package boot

import (
	"fmt"
	"strings"

	"github.com/propman/propman/platform/auth"
	"github.com/propman/propman/platform/httpserver"
	"github.com/propman/propman/platform/openapi"
)

// rolesKey describes what documentRoles writes for declared, so that the
// same routes amend the same document once per process.
func rolesKey(declared []auth.Declaration) []byte {
	var b strings.Builder
	for _, d := range declared {
		fmt.Fprintf(&b, "%s %s %d\n", d.Method, d.Path, d.Need)
	}
	return []byte(b.String())
}

// documentRoles writes into the document what each route's table declares
// (auth.Guard.Routes): the least role as x-propman-role and, for an
// operation that acts in a workspace, the X-Workspace-ID header (unless
// the path names the workspace), its 403 and the 404 a tenant gets. The route table is the one
// source; the document follows it.
func documentRoles(doc map[string]any, declared []auth.Declaration) error {
	for _, d := range declared {
		path := openapi.FromFiberPath(httpserver.APIPrefix + d.Path)
		op := openapi.Operation(doc, d.Method, path)
		if op == nil {
			continue // a module's test routes, undocumented on purpose
		}
		op["x-propman-role"] = d.Need.String()
		if d.Need == auth.Admin {
			openapi.AddResponse(op, "403", "Forbidden")
			continue
		}
		if !d.Need.InWorkspace() {
			continue
		}
		if !strings.Contains(path, "{workspaceId}") {
			openapi.AddParameter(op, "WorkspaceId")
		}
		openapi.AddResponse(op, "403", "Forbidden")
		// A linked tenant of the workspace gets 404 where others get 403.
		openapi.AddResponse(op, "404", "NotFound")
	}
	return nil
}
