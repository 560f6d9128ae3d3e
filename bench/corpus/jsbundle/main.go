// Command jsbundle bundles one JavaScript or TypeScript module, and what it
// imports from its own tree, into one ES module with esbuild's Go API (the
// library premise transpiles TypeScript with), so that bench/corpus/cut.py
// can run a TypeScript case's witness call with plain node and no npm
// install: Node 20 cannot run TypeScript itself.
//
//	jsbundle ENTRY OUT
package main

import (
	"fmt"
	"os"

	"github.com/evanw/esbuild/pkg/api"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: jsbundle ENTRY OUT")
		os.Exit(2)
	}
	res := api.Build(api.BuildOptions{
		EntryPoints: []string{os.Args[1]},
		Outfile:     os.Args[2],
		Bundle:      true,
		Write:       true,
		Format:      api.FormatESModule,
		Platform:    api.PlatformNode,
		Target:      api.ES2022,
		// a package the tree imports but does not hold stays an import
		// (it then fails at run time, and the witness says so)
		Packages: api.PackagesExternal,
		LogLevel: api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		for _, m := range res.Errors {
			loc := ""
			if m.Location != nil {
				loc = fmt.Sprintf("%s:%d: ", m.Location.File, m.Location.Line)
			}
			fmt.Fprintln(os.Stderr, loc+m.Text)
		}
		os.Exit(1)
	}
}
