package pysource

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

const geoModule = `class Location:
    latitude = None

    def __init__(self, latitude, longitude, elevation=None):
        self.latitude, self.longitude = latitude, longitude
        self.elevation = elevation

    def distance_2d(self, other):
        return 0


class TrackPoint(Location):
    __slots__ = ('time', 'speed')


class Bounds:
    def __init__(self, min_latitude, max_latitude):
        self.min_latitude, self.max_latitude = min_latitude, max_latitude


def simplify(points, max_distance):
    if len(points) < 3:
        return points
    begin, end = points[0], points[-1]
    for point_no in range(1, len(points) - 1):
        point = points[point_no]
        d = abs(point.latitude * begin.longitude)
    return [q.elevation for q in points] + [points[1].distance_2d(end)]


def speed(point, other, n):
    for i, p in enumerate(other):
        p.time
    return point.distance_2d(other[0]) / n.real


def last(track):
    for q in reversed(track[1:]):
        return q.time
`

// A parameter's use names what it is: the attributes read off it and off
// the items taken out of it (by a loop, an index, an unpacking), and the
// classes of the module whose objects have them all (its fields, its
// methods, a base's, its slots).
func TestParamUsesAndTheClassesThatFit(t *testing.T) {
	f := mustParse(t, "geo.py", geoModule)
	got := f.ParamUses("simplify")
	want := map[string]Uses{"points": {Own: []string{}, Items: []string{"distance_2d", "elevation", "latitude", "longitude"}}}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ParamUses(simplify) (-want +got):\n%s", d)
	}
	got = f.ParamUses("speed")
	want = map[string]Uses{
		"point": {Own: []string{"distance_2d"}, Items: []string{}},
		"other": {Own: []string{}, Items: []string{"time"}},
		"n":     {Own: []string{"real"}, Items: []string{}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ParamUses(speed) (-want +got):\n%s", d)
	}
	if d := cmp.Diff(map[string]Uses{"track": {Own: []string{}, Items: []string{"time"}}}, f.ParamUses("last")); d != "" {
		t.Errorf("ParamUses(last), a loop over a slice of it reversed (-want +got):\n%s", d)
	}
	for _, c := range []struct {
		attrs []string
		want  []string
	}{
		{[]string{"distance_2d", "elevation", "latitude", "longitude"}, []string{"Location", "TrackPoint"}},
		{[]string{"time", "latitude"}, []string{"TrackPoint"}},
		{[]string{"min_latitude"}, []string{"Bounds"}},
		{[]string{"real"}, nil},
		{nil, nil},
	} {
		if got := f.Fits(c.attrs); !cmp.Equal(got, c.want) {
			t.Errorf("Fits(%q) = %q, want %q", c.attrs, got, c.want)
		}
	}
}
