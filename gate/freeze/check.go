package freeze

import (
	"time"
)

// Status is where an entry stands on a day.
type Status string

// The statuses: frozen, frozen but inside the warning window, past its
// expiry.
const (
	Holding  Status = "frozen"
	Expiring Status = "expiring"
	Expired  Status = "expired"
)

// Standing is an entry and where it stands.
type Standing struct {
	Entry
	Status Status `json:"status"`
	// DaysLeft is how many days the freeze still holds after today (0 on
	// its last day, negative once expired).
	DaysLeft int `json:"days_left"`
}

// stand says where e stands on today: frozen through its expiry date,
// expired from the day after (seed 001: expires < date.today()), and
// expiring within warnDays of it.
func stand(e Entry, today time.Time, warnDays int) Standing {
	left := int(e.expiry().Sub(today).Hours() / 24)
	s := Standing{Entry: e, DaysLeft: left, Status: Holding}
	switch {
	case left < 0:
		s.Status = Expired
	case left < warnDays:
		s.Status = Expiring
	}
	return s
}

// CheckReport is the registry checked on a day.
type CheckReport struct {
	Registry string     `json:"registry"`
	Today    string     `json:"today"`
	Entries  []Standing `json:"entries"`
	Expired  int        `json:"expired"`
	Expiring int        `json:"expiring"`
	Max      int        `json:"max_entries"`
	OverCap  bool       `json:"over_cap"`
	// Action is what an expired entry does: "fail" or "warn".
	Action string `json:"expired_action"`
	// Exit is 2 when the registry holds more than the cap (a policy, like
	// the flake budget), else 1 when an entry expired and Action is fail,
	// else 0.
	Exit int `json:"exit"`
}

// CheckOptions are one premise freeze check.
type CheckOptions struct {
	Path   string
	Config Config
	Now    time.Time
}

// Check is the freeze check (seed 001's gate/freeze.py): every entry's
// standing on o.Now's date. The error means the registry could not be
// read; an expired entry is in the report.
func Check(o CheckOptions) (*CheckReport, error) {
	r, err := Load(o.Path)
	if err != nil {
		return nil, err
	}
	today := day(o.Now)
	rep := &CheckReport{Registry: o.Path, Today: today.Format(DateLayout), Entries: []Standing{}, Max: o.Config.MaxEntries, Action: o.Config.ExpiredAction}
	for _, e := range r.Frozen {
		s := stand(e, today, o.Config.WarnDays)
		switch s.Status {
		case Expired:
			rep.Expired++
		case Expiring:
			rep.Expiring++
		}
		rep.Entries = append(rep.Entries, s)
	}
	rep.OverCap = len(r.Frozen) > o.Config.MaxEntries
	switch {
	case rep.OverCap:
		rep.Exit = 2
	case rep.Expired > 0 && rep.Action != "warn":
		rep.Exit = 1
	}
	return rep, nil
}
