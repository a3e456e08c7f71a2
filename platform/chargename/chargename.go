// Package chargename is what the names the service gives its own charges
// and expenses are made of: a kind and the arguments its wording needs
// (a contract number, the charge a late fee is for). The wording itself
// lives in the translation catalogue (printforms renders it); this package
// holds the English wording the name column has always stored, so that
// English readers, older clients and SQL readers see what they saw, and
// the parser the migration of old rows uses. It imports nothing of the
// module, so the module's migrations can use it too.
package chargename

import (
	"encoding/json"
	"strings"
)

// The name kinds. Custom is a name a person typed; it is shown as typed.
const (
	Custom     = "custom"
	Rent       = "rent"
	Prepayment = "utility_prepayment"
	Deposit    = "deposit"
	LateFee    = "late_fee"
	Interest   = "default_interest"
	// Fine is a contractual penalty for a violation (modules/violations):
	// the contract number and the violated block's code, which no reader
	// is shown.
	Fine = "fine"
	// Repair is the cost of a repair recharged to the tenant
	// (modules/repairs): the contract number.
	Repair = "repair"
)

// Kinds are the name kinds, custom first.
var Kinds = []string{Custom, Rent, Prepayment, Deposit, LateFee, Interest, Fine, Repair}

// The English wordings the service has stored since its first version.
const (
	rentPrefix       = "Rent, contract "
	prepaymentPrefix = "Utility prepayment, contract "
	depositName      = "Deposit"
	lateFeePrefix    = "Late fee: "
	interestPrefix   = "Default interest: "
	finePrefix       = "Fine: "
	repairPrefix     = "Repair costs, contract "
)

// Name is a generated name: Kind and its Args. Rent and Prepayment take
// the contract number; Deposit none; LateFee and Interest the name of the
// charge they are for, as its kind followed by its args (a custom one:
// "custom" and the name as typed).
type Name struct {
	Kind string
	Args []string
}

// Of wraps a charge's stored name so a late fee can name it.
func Of(kind, args, stored string) Name {
	if kind == "" || kind == Custom {
		return Name{Kind: Custom, Args: []string{stored}}
	}
	return Name{Kind: kind, Args: DecodeArgs(args)}
}

// For is the name of a late fee (interest true: statutory default
// interest) for the charge called n.
func For(interest bool, n Name) Name {
	k := LateFee
	if interest {
		k = Interest
	}
	return Name{Kind: k, Args: append([]string{n.Kind}, n.Args...)}
}

// Inner is the name a late fee's or interest's args carry.
func Inner(args []string) Name {
	if len(args) == 0 {
		return Name{Kind: Custom, Args: []string{""}}
	}
	return Name{Kind: args[0], Args: args[1:]}
}

// English is n as the name column stores it.
func (n Name) English() string {
	arg := func(i int) string {
		if i < len(n.Args) {
			return n.Args[i]
		}
		return ""
	}
	switch n.Kind {
	case Rent:
		return rentPrefix + arg(0)
	case Prepayment:
		return prepaymentPrefix + arg(0)
	case Deposit:
		return depositName
	case LateFee:
		return lateFeePrefix + Inner(n.Args).English()
	case Interest:
		return interestPrefix + Inner(n.Args).English()
	case Repair:
		return repairPrefix + arg(0)
	case Fine:
		if code := arg(1); code != "" {
			return finePrefix + arg(0) + ", " + code
		}
		return finePrefix + arg(0)
	}
	return arg(0)
}

// Parse reads a name the old code wrote in English back into its kind and
// args; anything else is custom (the name as typed).
func Parse(name string) Name {
	switch {
	case name == depositName:
		return Name{Kind: Deposit}
	case strings.HasPrefix(name, rentPrefix) && len(name) > len(rentPrefix):
		return Name{Kind: Rent, Args: []string{name[len(rentPrefix):]}}
	case strings.HasPrefix(name, prepaymentPrefix) && len(name) > len(prepaymentPrefix):
		return Name{Kind: Prepayment, Args: []string{name[len(prepaymentPrefix):]}}
	case strings.HasPrefix(name, lateFeePrefix) && len(name) > len(lateFeePrefix):
		return For(false, Parse(name[len(lateFeePrefix):]))
	case strings.HasPrefix(name, interestPrefix) && len(name) > len(interestPrefix):
		return For(true, Parse(name[len(interestPrefix):]))
	case strings.HasPrefix(name, repairPrefix) && len(name) > len(repairPrefix):
		return Name{Kind: Repair, Args: []string{name[len(repairPrefix):]}}
	case strings.HasPrefix(name, finePrefix) && len(name) > len(finePrefix):
		number, code, _ := strings.Cut(name[len(finePrefix):], ", ")
		if code == "" {
			return Name{Kind: Fine, Args: []string{number}}
		}
		return Name{Kind: Fine, Args: []string{number, code}}
	}
	return Name{Kind: Custom, Args: []string{name}}
}

// Stored is n as the columns name_kind and name_args keep it: a custom
// name keeps no args (its name column is the name).
func (n Name) Stored() (kind, args string) {
	if n.Kind == Custom || n.Kind == "" {
		return Custom, ""
	}
	return n.Kind, EncodeArgs(n.Args)
}

// EncodeArgs is args as name_args stores them ("" for none).
func EncodeArgs(args []string) string {
	if len(args) == 0 {
		return ""
	}
	b, _ := json.Marshal(args)
	return string(b)
}

// DecodeArgs reads name_args; a broken value reads as no args.
func DecodeArgs(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	if json.Unmarshal([]byte(s), &out) != nil {
		return nil
	}
	return out
}
