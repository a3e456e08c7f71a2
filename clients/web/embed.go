// Package web holds the web app's committed build (dist, made by
// `npm run build` in this folder), embedded so that the binary serves it
// and `go run ./cmd/propman` needs no Node. CI rebuilds it and fails when
// the committed one is stale.
package web

import (
	"embed"
	"io/fs"
)

//go:embed all:dist
var dist embed.FS

// Dist is the build: index.html at its root, hashed files under assets/.
func Dist() fs.FS {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		// fs.Sub fails only on an invalid name, and "dist" is valid.
		panic(err)
	}
	return sub
}
