// Package propose drafts candidate assumptions from a parsed diff (seed 004,
// Step 2: "a proposer, not an authority"), with a model behind an
// OpenAI-compatible endpoint or with the built-in static rules, and
// generates partition rows for accepted assumptions (propose/partition).
//
// Every proposer's rows go through validate's filter before anyone sees
// them: a row survives only if it names a changed symbol of the diff and
// quotes the diff verbatim. Draft runs a Proposer and adds the findings
// every run reports (Trojan Source characters in added lines).
//
//   - Static (the default when no endpoint is set) runs Rules, values with a
//     Name, a Doc and a Run func, over the changed functions' syntax trees:
//     Go through go/ast, Python through tree-sitter. A rule quotes the exact
//     head line it read, and speaks only of lines the patch added (or, for a
//     deletion, the code around it).
//   - OpenAI (sashabaranov/go-openai; this is its only importer) sends each
//     chunk of changed symbols, with their whole head-side source and hunks,
//     at temperature 0 and a fixed seed; retries 429, 5xx, timeouts and
//     truncated bodies with backoff; falls back from a JSON schema to a JSON
//     object to plain text when the endpoint refuses the format; gives rows
//     the filter dropped one repair round; and caches replies on disk.
//
// Config holds the model settings, read from flags, the environment and
// .premise.yaml in that order of precedence.
package propose
