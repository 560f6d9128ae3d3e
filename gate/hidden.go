package gate

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"

	igit "github.com/premise-dev/premise/internal/git"
)

// sources remembers, for each copy Checkout wrote, the git directories of
// the repository it came from, so that a worker started in the copy finds
// them empty (issue 26, doors back to the repository). The box keeps every
// file but the copy read-only, not unreadable: a head that knows the CI
// layout would read .git/config, where a CI checkout keeps its token
// (actions/checkout's http.extraheader), and return it for premise's
// report to print. The table holds facts about directories premise made,
// not a dependency: tests running in parallel each see their own copies.
var sources = &copySources{dirs: map[string][]string{}}

type copySources struct {
	mu   sync.Mutex
	dirs map[string][]string // a copy's temporary directory -> git directories
}

// add records the git directories (the work tree's own and the common
// one of a linked worktree) of repo for the copy in tmp.
func (s *copySources) add(ctx context.Context, tmp string, repo *igit.Repo) {
	out, err := repo.Run(ctx, "rev-parse", "--path-format=absolute", "--git-dir", "--git-common-dir")
	if err != nil {
		return
	}
	var dirs []string
	for _, d := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if d == "" {
			continue
		}
		if real, err := filepath.EvalSymlinks(d); err == nil {
			d = real
		}
		dirs = append(dirs, d)
	}
	// Every file git reads the repository's configuration from: a CI
	// checkout may keep its token in a file the repository's config
	// includes from outside it (actions/checkout's credentials file in
	// the runner's temporary directory), and the user's own carries
	// credentials and tokenised URLs.
	if cfg, err := repo.Run(ctx, "config", "--list", "--show-origin", "-z"); err == nil {
		for _, rec := range strings.Split(string(cfg), "\x00") {
			if f, ok := strings.CutPrefix(rec, "file:"); ok && filepath.IsAbs(f) && !slices.Contains(dirs, f) {
				dirs = append(dirs, f)
			}
		}
	}
	dirs = append(dirs, untrackedSecrets(ctx, repo)...)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.dirs[tmp] = dirs
}

// secretFile finds the names of files that hold keys and tokens: a .env,
// a private key or certificate bundle, a cloud service account's key.
var secretFile = regexp.MustCompile(`^(\.env(\..*)?|.*\.(pem|key|p12|pfx|jks|keystore)|id_(rsa|dsa|ecdsa|ed25519)(\..*)?|credentials(\..*)?|service[-_]?account.*\.json|secrets?(\..*)?|\.netrc|\.npmrc|\.pypirc)$`)

// untrackedSecrets are the files of repo's work tree that git does not
// track (so the copy has none of them) and whose names say they hold
// secrets: a developer's .env beside the code, a key a CI job wrote.
func untrackedSecrets(ctx context.Context, repo *igit.Repo) []string {
	top, err := repo.Run(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil // a bare repository: no work tree
	}
	out, err := repo.Run(ctx, "ls-files", "-z", "--others", "--directory", "--full-name", "--", ":/")
	if err != nil {
		return nil
	}
	root := strings.TrimSpace(string(top))
	var paths []string
	for _, rel := range strings.Split(string(out), "\x00") {
		if rel == "" || strings.HasSuffix(rel, "/") || !secretFile.MatchString(path.Base(rel)) {
			continue
		}
		paths = append(paths, filepath.Join(root, filepath.FromSlash(rel)))
	}
	return paths
}

func (s *copySources) forget(tmp string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.dirs, tmp)
}

// of returns the git directories to hide from a worker running in dir.
func (s *copySources) of(dir string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for tmp, dirs := range s.dirs {
		if dir == tmp || strings.HasPrefix(dir, tmp+string(filepath.Separator)) {
			return dirs
		}
	}
	return nil
}

// topOf returns the temporary directory of the copy Checkout wrote that
// holds dir, or "" when dir is in none.
func (s *copySources) topOf(dir string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	for tmp := range s.dirs {
		if dir == tmp || strings.HasPrefix(dir, tmp+string(filepath.Separator)) {
			return tmp
		}
	}
	return ""
}

// credentialDirs and credentialFiles are where, under the user's home
// directory, tools keep what lets them act as the user: keys, tokens,
// registry and cloud logins. The box keeps every file read-only, not
// unreadable, and a head that returned one would have premise print it in
// its report and the pull request's comment.
var (
	credentialDirs  = []string{".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".password-store", ".terraform.d", ".config/gh", ".config/hub", ".config/gcloud", ".config/git", ".local/share/keyrings"}
	credentialFiles = []string{".netrc", ".git-credentials", ".gitconfig", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pypirc", ".vault-token", ".cargo/credentials", ".cargo/credentials.toml", ".m2/settings.xml", ".gradle/gradle.properties", ".pip/pip.conf", ".config/pip/pip.conf"}
	// credentialVars name such a file or directory, or a list of them.
	credentialVars = []string{"GOOGLE_APPLICATION_CREDENTIALS", "AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "KUBECONFIG", "DOCKER_CONFIG", "NPM_CONFIG_USERCONFIG", "GIT_CONFIG_GLOBAL", "NETRC", "CLOUDSDK_CONFIG", "AZURE_CONFIG_DIR", "GNUPGHOME", "SSH_AUTH_SOCK"}
)

// credentials are the places of credentialDirs, credentialFiles and
// credentialVars that exist for premise's own user (its HOME, the
// environment it was started with), which a worker finds empty. None may
// hold a directory the worker needs (keep): its copy, its scratch.
func credentials(keep []string) []string {
	var paths []string
	if home, err := os.UserHomeDir(); err == nil && home != "/" {
		for _, d := range credentialDirs {
			paths = append(paths, filepath.Join(home, d))
		}
		for _, f := range credentialFiles {
			paths = append(paths, filepath.Join(home, f))
		}
	}
	for _, v := range credentialVars {
		paths = append(paths, filepath.SplitList(os.Getenv(v))...)
	}
	var out []string
	for _, p := range paths {
		if !filepath.IsAbs(p) || slices.Contains(out, p) {
			continue
		}
		if _, err := os.Lstat(p); err != nil {
			continue
		}
		if slices.ContainsFunc(keep, func(k string) bool { return k == p || strings.HasPrefix(k, p+string(filepath.Separator)) }) {
			continue
		}
		out = append(out, p)
	}
	return out
}
