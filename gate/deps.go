package gate

import (
	"bytes"
	"os"
	"path/filepath"
)

// nodeManifests are the files that decide what node_modules holds.
var nodeManifests = []string{"package.json", "package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml"}

// linkNodeModules gives a private copy the work tree's installed
// JavaScript dependencies (issue 27): node_modules is never committed, so
// a copy written from git has none, and a module that imports a package
// would not load. The work tree's top-level node_modules is linked into
// the copy (the box reads it, read-only, like every file outside the
// copy) only when the copy's manifests and lockfiles are the work tree's
// own byte for byte: what was installed is what that commit asks for. A
// patch that changes its dependencies gets none on the side whose
// manifests differ, and that side's modules that need them do not load
// (their rows are dropped and their symbols left unchecked, never
// passed).
func linkNodeModules(copyTop, workTop string) {
	installed := filepath.Join(workTop, "node_modules")
	if fi, err := os.Stat(installed); err != nil || !fi.IsDir() {
		return
	}
	if _, err := os.Lstat(filepath.Join(copyTop, "node_modules")); err == nil {
		return // committed, or the copy has its own
	}
	for _, name := range nodeManifests {
		ours, errOurs := os.ReadFile(filepath.Join(copyTop, name))
		theirs, errTheirs := os.ReadFile(filepath.Join(workTop, name))
		switch {
		case name == "package.json" && (errOurs != nil || errTheirs != nil):
			return
		case (errOurs == nil) != (errTheirs == nil):
			return
		case errOurs == nil && !bytes.Equal(ours, theirs):
			return
		}
	}
	_ = os.Symlink(installed, filepath.Join(copyTop, "node_modules"))
}
