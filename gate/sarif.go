package gate

import (
	"encoding/json"
	"fmt"
	"io"
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
	Tool    sarifTool     `json:"tool"`
	Results []sarifResult `json:"results"`
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

// WriteSARIF writes the report as SARIF 2.1.0.
func WriteSARIF(w io.Writer, rep *Report) error {
	run := sarifRun{Tool: sarifTool{Driver: sarifDriver{Name: "premise", InformationURI: "https://github.com/premise-dev/premise", Rules: sarifRules}}, Results: []sarifResult{}}
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
		res := sarifResult{RuleID: rule, Level: level,
			Message:             sarifMessage{fmt.Sprintf("%s (%s, hash %s): %s", r.ID, r.Status, r.Hash, rowLine(r))},
			PartialFingerprints: map[string]string{"premiseRowHash": r.Hash}}
		if rep.Source != "" {
			loc := sarifLocation{PhysicalLocation: sarifPhysical{ArtifactLocation: sarifArtifact{URI: rep.Source}}}
			if r.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: r.Line}
			}
			res.Locations = []sarifLocation{loc}
		}
		run.Results = append(run.Results, res)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{Schema: "https://json.schemastore.org/sarif-2.1.0.json", Version: "2.1.0", Runs: []sarifRun{run}})
}
