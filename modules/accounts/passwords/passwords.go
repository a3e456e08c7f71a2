// Package passwords ships a list of common passwords and reports whether a
// password is on it. See SOURCE.md for where the list comes from.
package passwords

import (
	_ "embed"
	"strings"
	"sync"
)

// commonList holds one lower-cased password per line, most common first.
//
//go:embed common.txt
var commonList string

var commonSet = sync.OnceValue(func() map[string]struct{} {
	m := make(map[string]struct{}, 50000)
	for line := range strings.Lines(commonList) {
		line = strings.TrimRight(line, "\r\n")
		if line != "" {
			m[line] = struct{}{}
		}
	}
	return m
})

// IsCommon reports whether pw is one of the shipped common passwords,
// compared case-insensitively. The password is not trimmed.
func IsCommon(pw string) bool {
	_, ok := commonSet()[strings.ToLower(pw)]
	return ok
}

// Count returns the number of distinct passwords in the list.
func Count() int {
	return len(commonSet())
}
