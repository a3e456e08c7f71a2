package agreements

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/propman/propman/modules/reference"
	"github.com/propman/propman/platform/clock"
	"github.com/propman/propman/platform/module"
)

const importUsage = "import FILE.json   add or update operator blocks (all or nothing)"

// importCommand is `propman agreements import FILE.json`.
func importCommand() module.Command {
	return module.Command{Name: Name, Usage: importUsage, Run: func(ctx context.Context, env module.CommandEnv, args []string) error {
		if len(args) != 2 || args[0] != "import" {
			return errors.New("usage: propman agreements " + importUsage)
		}
		return ImportFile(ctx, env, args[1])
	}}
}

// ImportFile imports the blocks in the file at path and tells the operator
// what it did; running instances pick the change up at their next refresh
// (modules.agreements.refresh).
func ImportFile(ctx context.Context, env module.CommandEnv, path string) error {
	data, err := readBounded(path)
	if err != nil {
		return fmt.Errorf("agreements import: %w", err)
	}
	dir, err := reference.NewDirectory(env.DB)
	if err != nil {
		return err
	}
	res, err := NewImporter(NewStore(env.DB), dir, clock.Real{}).Import(ctx, data)
	if err != nil {
		return fmt.Errorf("agreements import %s: %w", path, err)
	}
	fmt.Fprintf(env.Out, "imported %d agreement block(s) from %s: %d added, %d updated\n",
		res.Added+res.Updated, path, res.Added, res.Updated)
	return nil
}

func readBounded(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	// One byte more than allowed, so the size check in the rules sees it.
	return io.ReadAll(io.LimitReader(f, MaxImportBytes+1))
}
