// Package propose drafts candidate assumptions from a parsed diff, with a
// model behind an OpenAI-compatible endpoint or with the built-in static
// rules, and generates partition rows for accepted assumptions. It is the only
// importer of sashabaranov/go-openai.
package propose
