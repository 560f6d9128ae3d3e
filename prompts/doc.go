// Package prompts holds premise's prompt templates, embedded with go:embed.
// Every template has a name and the sha256 of its text; both are recorded in
// every register it produced, so a register says exactly what was asked.
package prompts
