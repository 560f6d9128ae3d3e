package schemas

import (
	"embed"
	"sort"
	"strings"
)

// BaseURL is where the schemas are published: premise's repository, so an
// editor can fetch the one a file names from any checkout.
const BaseURL = "https://raw.githubusercontent.com/premise-dev/premise/main/schemas/"

//go:embed *.schema.json
var files embed.FS

// Schema is one format's schema.
type Schema struct {
	Name string // what premise schema takes: assumptions
	File string // the file it describes: assumptions.yaml
	Doc  string
}

var all = []Schema{
	{Name: "assumptions", File: "assumptions.yaml", Doc: "the assumption register"},
	{Name: "partitions", File: "partitions.yaml", Doc: "the partition table"},
	{Name: "freezes", File: ".gate/frozen_rows.json", Doc: "the frozen rows"},
	{Name: "lockfile", File: "must_reject.lock.json", Doc: "the must-reject corpus's lockfile"},
	{Name: "registry", File: "gate/frozen.json", Doc: "the freeze registry of your own tests"},
	{Name: "ledger", File: "flake_ledger.json", Doc: "the flake ledger"},
	{Name: "fixtures", File: "fixtures.json", Doc: "the curated fixtures"},
}

// All lists the schemas by name.
func All() []Schema {
	out := append([]Schema(nil), all...)
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// fileOf is the embedded file holding name's schema.
func fileOf(name string) string {
	switch name {
	case "freezes":
		return "frozen_rows.schema.json"
	case "lockfile":
		return "must_reject.lock.schema.json"
	case "registry":
		return "frozen.schema.json"
	case "ledger":
		return "flake_ledger.schema.json"
	}
	return name + ".schema.json"
}

// Lookup returns the schema called name, as JSON.
func Lookup(name string) ([]byte, bool) {
	for _, s := range all {
		if s.Name == name {
			b, err := files.ReadFile(fileOf(name))
			return b, err == nil
		}
	}
	return nil, false
}

// URL is where the schema called name is published; its $id.
func URL(name string) string { return BaseURL + fileOf(name) }

// Names lists the schemas' names, comma-separated, for messages.
func Names() string {
	var n []string
	for _, s := range All() {
		n = append(n, s.Name)
	}
	return strings.Join(n, ", ")
}

// Comment is the first line of a YAML file premise writes in the format
// called name: yaml-language-server (VS Code's YAML extension, Neovim,
// Helix, JetBrains through LSP) reads it and checks the file as it is
// typed.
func Comment(name string) string {
	return "# yaml-language-server: $schema=" + URL(name) + "\n"
}
