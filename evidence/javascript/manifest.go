package javascript

import (
	"bytes"
	"encoding/json"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/tailscale/hujson"

	"github.com/premise-dev/premise/diffparse"
	"github.com/premise-dev/premise/evidence/lang"
)

// packageKeys are the package.json fields by which Node decides which
// file a specifier loads and how it reads it: a patch that points
// "#clamp" of "imports" at another file changes every function importing
// it, and no line of theirs.
var packageKeys = []string{"type", "main", "exports", "imports"}

// tsconfigKeys are the compilerOptions of a tsconfig.json that change
// the JavaScript premise transpiles a TypeScript file to (gate/node.go
// hands the nearest tsconfig.json to esbuild as it stands): class fields
// defined or assigned, decorators, JSX, which imports are kept, strict
// mode, and how a CommonJS import is wrapped.
var tsconfigKeys = []string{
	"useDefineForClassFields", "experimentalDecorators", "jsx", "jsxFactory", "jsxFragmentFactory",
	"jsxImportSource", "importsNotUsedAsValues", "preserveValueImports", "verbatimModuleSyntax",
	"alwaysStrict", "esModuleInterop", "allowSyntheticDefaultImports",
}

// ManifestChanges names the package.json fields and tsconfig.json
// settings a patch changes that change what the project's code does with
// none of its lines changed; premise compares none of the functions they
// reach for it. A side that does not parse names nothing (Node, or
// esbuild, refuses it on that side, and what loads through it fails).
func (*jsLang) ManifestChanges(f diffparse.File, base, head []byte) []string {
	if path.Ext(f.Path) == ".node" {
		return []string{"(a compiled addon Node loads: premise does not read it)"}
	}
	switch path.Base(f.Path) {
	case "package.json":
		return changedFields(base, head, packageFields)
	case "tsconfig.json":
		return changedFields(base, head, tsconfigFields)
	}
	return nil
}

// changedFields names, by its line on the head (or on the base with
// "(removed)"), each field fields reads differently on the two sides.
func changedFields(base, head []byte, fields func([]byte) (map[string]string, bool)) []string {
	b, okB := fields(base)
	h, okH := fields(head)
	if !okB || !okH {
		return nil
	}
	var out []string
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range h {
			if !yield(k) {
				return
			}
		}
	}) {
		old, inBase := b[k]
		if !inBase && (strings.HasPrefix(k, "exports ") || strings.HasPrefix(k, "imports ")) {
			continue // a specifier added to an exports or imports map
		}
		if !inBase || old != h[k] {
			out = append(out, fieldLine(head, k, h[k]))
		}
	}
	for _, k := range slices.Sorted(func(yield func(string) bool) {
		for k := range b {
			if _, ok := h[k]; !ok && !yield(k) {
				return
			}
		}
	}) {
		out = append(out, fieldLine(base, k, b[k])+" (removed)")
	}
	return out
}

// packageFields are a package.json's packageKeys, each as canonical JSON;
// an absent file has none.
func packageFields(data []byte) (map[string]string, bool) {
	out := map[string]string{}
	if data == nil {
		return out, true
	}
	var top map[string]any
	if err := json.Unmarshal(data, &top); err != nil {
		return nil, false
	}
	for _, k := range packageKeys {
		v, ok := top[k]
		if !ok {
			continue
		}
		if m, isMap := v.(map[string]any); isMap && (k == "exports" || k == "imports") {
			// Each specifier apart: one the patch adds resolved to nothing
			// before, and no code that loaded on the base loads it.
			for spec, to := range m {
				out[k+" "+spec] = canonical(to)
			}
			continue
		}
		out[k] = canonical(v)
	}
	return out, true
}

// tsconfigFields are a tsconfig.json's tsconfigKeys as esbuild reads them
// (JSON with comments and trailing commas), useDefineForClassFields as it
// takes effect: where unset, true unless "target" names a version before
// ES2022 (premise's own target is ES2022). "extends" is a field too:
// premise does not follow it, and its presence changes how imports are
// wrapped, as a quoted interop option's does wherever it stands
// (gate/node.go's withoutInterop).
func tsconfigFields(data []byte) (map[string]string, bool) {
	out := map[string]string{"useDefineForClassFields": "true", interopKey: "wrapped"}
	if data == nil {
		return out, true // esbuild's own settings, premise's target
	}
	std, err := hujson.Standardize(data)
	if err != nil {
		return nil, false
	}
	var cfg struct {
		Extends         any            `json:"extends"`
		CompilerOptions map[string]any `json:"compilerOptions"`
	}
	if err := json.Unmarshal(std, &cfg); err != nil {
		return nil, false
	}
	if cfg.Extends != nil {
		out["extends"] = canonical(cfg.Extends)
	}
	opts := map[string]any{}
	for k, v := range cfg.CompilerOptions {
		opts[strings.ToLower(k)] = v
	}
	for _, k := range tsconfigKeys {
		if v, ok := opts[strings.ToLower(k)]; ok {
			out[k] = canonical(v)
		}
	}
	if _, ok := opts["usedefineforclassfields"]; !ok {
		target, _ := opts["target"].(string)
		out["useDefineForClassFields"] = canonical(!before2022(target))
	}
	out[interopKey] = "unwrapped"
	for _, k := range []string{"esModuleInterop", "allowSyntheticDefaultImports", "extends"} {
		if bytes.Contains(data, []byte(`"`+k+`"`)) {
			out[interopKey] = "wrapped"
		}
	}
	return out, true
}

// interopKey is how premise compiles a CommonJS import in TypeScript
// that a tsconfig.json governs: wrapped for ES imports (esbuild's way,
// and tsc's with esModuleInterop, allowSyntheticDefaultImports or an
// "extends" premise does not read named anywhere in the file) or
// unwrapped (tsc's without).
const interopKey = "CommonJS imports"

// before2022 says a tsconfig target names a language before ES2022,
// where TypeScript assigns class fields instead of defining them.
func before2022(target string) bool {
	t := strings.ToLower(target)
	switch t {
	case "", "esnext":
		return false
	case "es3", "es5", "es6", "es2015", "es2016", "es2017", "es2018", "es2019", "es2020", "es2021":
		return true
	}
	return false
}

func canonical(v any) string {
	data, _ := json.Marshal(v) // maps marshal with sorted keys
	return string(data)
}

// fieldLine is the line where data names key, with its value: "line 5
// `"imports": {"#clamp":"./lib/fast.js"}`".
func fieldLine(data []byte, key, value string) string {
	if key == interopKey {
		return lang.LineText(1, "tsconfig.json: "+key+" "+value)
	}
	field, spec, inMap := strings.Cut(key, " ")
	look := `"` + field + `"`
	if inMap {
		look = `"` + spec + `"`
	}
	n := 0
	for i, line := range strings.Split(string(data), "\n") {
		if strings.Contains(line, look) {
			n = i + 1
			break
		}
	}
	if inMap {
		return lang.LineText(n, `"`+field+`": {"`+spec+`": `+value+`}`)
	}
	return lang.LineText(n, `"`+key+`": `+value)
}

// jsRunnerRe asks whether the code runs under a test runner or in
// production: NODE_ENV, the runners' own variables.
var jsRunnerRe = regexp.MustCompile(`\bprocess\.env\s*(?:\.\s*|\[\s*["'])(?:NODE_ENV|JEST_WORKER_ID|VITEST|VITEST_WORKER_ID|MOCHA_COLORS|NODE_TEST_CONTEXT)\b`)

func (l *jsLang) RunnerTells(f diffparse.File) []string {
	if f.Language != l.lang || jsTestFileRe.MatchString(f.Path) {
		return nil
	}
	return lang.AddedLinesMatching(f, jsRunnerRe)
}
