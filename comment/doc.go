// Package comment posts premise's draft for a pull request as one comment
// on it (`premise comment`): a hidden marker finds the comment again on
// the next push, which edits it in place; items that stopped firing are
// struck through, not deleted; nothing is posted while there is nothing to
// say. GitHub through its REST API (google/go-github), GitLab through its
// merge-request notes.
package comment
