package gate

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
)

// SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/), the subset
// code-scanning services read: one result per row that did not pass or is
// frozen, located at the row in the partition table.
type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations,omitempty"`
	Results     []sarifResult     `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string       `json:"id"`
	ShortDescription sarifMessage `json:"shortDescription"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	Level               string            `json:"level"`
	Message             sarifMessage      `json:"message"`
	Locations           []sarifLocation   `json:"locations,omitempty"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical `json:"physicalLocation"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           *sarifRegion  `json:"region,omitempty"`
}

type sarifArtifact struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine int `json:"startLine"`
}

var sarifRules = []sarifRule{
	{"premise/fail", sarifMessage{"A partition row's contract, relation or invalid-input rule did not hold"}},
	{"premise/error", sarifMessage{"A partition row errored, timed out or crashed its worker"}},
	{"premise/flake", sarifMessage{"A partition row's outcomes differed across reruns"}},
	{"premise/frozen", sarifMessage{"A frozen partition row: it runs but does not gate, and spends the flake budget"}},
}

// SARIFLimits are the most a SARIF file may hold for the service that
// reads it.
type SARIFLimits struct {
	Runs, Results, Bytes int
}

// GitHubSARIFLimits are GitHub code scanning's: 20 runs a file, 25,000
// results a run, 10 MB a file (premise writes one run).
var GitHubSARIFLimits = SARIFLimits{Runs: 20, Results: 25000, Bytes: 10 << 20}

// WriteSARIF writes the report as SARIF 2.1.0 within GitHub's limits
// (EncodeSARIF).
func WriteSARIF(w io.Writer, rep *Report) error {
	data, _, err := EncodeSARIF(rep, GitHubSARIFLimits)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// EncodeSARIF encodes the report as SARIF 2.1.0 within lim: results past
// lim.Results, then past lim.Bytes, are cut, gating rows last (errors
// before notes), and what was cut is said in the run's
// toolExecutionNotifications and returned.
//
// Each result's partialFingerprints name the finding, not where it sits:
// the target, the row's hash (of its id and input) and the outcomes on base
// and head, so a rebase that moves the row in the table does not re-open
// an alert a reviewer dismissed (issue 17).
func EncodeSARIF(rep *Report, lim SARIFLimits) ([]byte, string, error) {
	results := sarifResults(rep)
	total := len(results)
	// Most severe first, so a cut drops notes before errors; stable, so
	// the table's order holds within a level.
	sort.SliceStable(results, func(i, j int) bool { return results[i].Level == "error" && results[j].Level != "error" })
	if lim.Results > 0 && len(results) > lim.Results {
		results = results[:lim.Results]
	}
	for {
		cut := ""
		if len(results) < total {
			cut = fmt.Sprintf("premise cut %d of %d results to stay within the limits of GitHub code scanning (%d results a run, %d bytes a file); premise gate --json has them all",
				total-len(results), total, lim.Results, lim.Bytes)
		}
		data, err := encodeSARIF(results, cut)
		if err != nil || lim.Bytes <= 0 || len(data) <= lim.Bytes || len(results) == 0 {
			return data, cut, err
		}
		// Shrink in proportion, with room to spare, then check again.
		n := int(float64(len(results)) * float64(lim.Bytes) / float64(len(data)) * 0.95)
		results = results[:max(0, min(n, len(results)-1))]
	}
}

func sarifResults(rep *Report) []sarifResult {
	out := []sarifResult{}
	for _, r := range rep.Rows {
		if r.Status == StatusPass && !r.Frozen {
			continue
		}
		rule, level := "premise/error", "error"
		switch {
		case r.Frozen:
			rule, level = "premise/frozen", "note"
		case r.Status == StatusFail:
			rule = "premise/fail"
		case r.Status == StatusFlake:
			rule = "premise/flake"
		}
		fp := Fingerprint(r)
		res := sarifResult{RuleID: rule, Level: level,
			Message: sarifMessage{fmt.Sprintf("%s (%s, hash %s): %s", r.ID, r.Status, r.Hash, rowLine(r))},
			// primaryLocationLineHash is set too, so an uploader does not
			// fill it from the line's text.
			PartialFingerprints: map[string]string{"premiseRowHash": r.Hash, "premiseFinding/v1": fp, "primaryLocationLineHash": fp}}
		if rep.Source != "" {
			loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: rep.Source}}}
			if r.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: r.Line}
			}
			res.Locations = []sarifLocation{loc}
		}
		out = append(out, res)
	}
	return out
}

// Fingerprint names a row's finding independently of line numbers: the
// target, the row's hash (its id and input), and the outcomes on base and
// head. A flaky row's outcome is that it flakes, whichever attempt spoke.
func Fingerprint(r RowResult) string {
	head := r.Status + ": " + r.Why
	if r.Status == StatusFlake {
		head = r.Status
	}
	base := strings.Join(uniq(r.BaseSeen), ",") + ": " + r.BaseWhy
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%t", r.Target, r.Hash, base, head, r.Frozen)
	return hex.EncodeToString(h.Sum(nil))[:32]
}

func encodeSARIF(results []sarifResult, cut string) ([]byte, error) {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "premise", InformationURI: "https://github.com/premise-dev/premise", Rules: sarifRules}}, Results: results}
	if cut != "" {
		run.Invocations = []sarifInvocation{{ExecutionSuccessful: true, ToolExecutionNotifications: []sarifNotification{{Level: "warning", Message: sarifMessage{cut}}}}}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	err := enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
	return b.Bytes(), err
}

type sarifInvocation struct {
	ExecutionSuccessful        bool                `json:"executionSuccessful"`
	ToolExecutionNotifications []sarifNotification `json:"toolExecutionNotifications,omitempty"`
}

type sarifNotification struct {
	Level   string       `json:"level"`
	Message sarifMessage `json:"message"`
}
