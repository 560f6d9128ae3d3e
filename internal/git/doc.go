// Package git is premise's small wrapper over the git binary: it opens a
// work tree or a bare repository, resolves revisions, finds merge-bases and
// the default base branch, runs `git diff` with flags that make its output
// independent of the user's configuration, and reads file contents from git
// objects through one long-lived `git cat-file --batch` process, so a dirty
// checkout or a bare repository gives the same answer (issue 2).
package git
