// Package configs holds the embedded default configuration.
package configs

import _ "embed"

// Default is configs/default.yaml, the first layer of every configuration.
//
//go:embed default.yaml
var Default []byte
