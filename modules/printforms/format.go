package printforms

import "github.com/propman/propman/platform/printstyle"

// nbsp is the no-break space: it keeps "§ 556" or an area and its "m²"
// on one line.
const nbsp = "\u00a0"

// style is how the document's locale writes figures (platform/printstyle).
type style = printstyle.Style

func styleOf(locale string) style { return printstyle.Of(locale) }

// Style and StyleOf are platform/printstyle's, under the names the modules
// that print used before it moved there.
type Style = printstyle.Style

// StyleOf is locale's Style (English for a language without its own).
func StyleOf(locale string) Style { return printstyle.Of(locale) }
