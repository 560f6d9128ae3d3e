package evidence

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/premise-dev/premise/diffparse"
)

// TestCallersPastAClassesMethods: a changed method of a class no export
// exposes is reached only through the module function that builds its
// receiver, four calls up (serialize -> Serializer.serialize -> $object ->
// serializeObject -> serializeObjectEntries); that function is found, and
// comes before the methods, which need a receiver, within maxCallers.
func TestCallersPastAClassesMethods(t *testing.T) {
	src := []byte(`export function serialize(v: any): string {
  return new Serializer().serialize(v);
}
class Serializer {
  serialize(v: any) { return this.$object(v); }
  compare(a: any, b: any) { return this.serialize(a) < this.serialize(b); }
  $Array(a: any[]) { return a.map((x) => this.serialize(x)).join(); }
  $Set(s: any) { return this.serialize([...s]); }
  $Date(d: any) { return this.serialize(d.toJSON()); }
  $object(o: any) { return this.serializeObject(o); }
  serializeObject(o: any) { return this.serializeObjectEntries(Object.entries(o)); }
  serializeObjectEntries(e: any[]) { return e.join(); }
}
`)
	f := diffparse.File{Path: "src/serialize.ts", Language: "typescript", HeadSrc: src, BaseSrc: src,
		Symbols: []diffparse.Symbol{{Name: "src/serialize.Serializer.serializeObjectEntries", Local: "Serializer.serializeObjectEntries", Kind: "method", Change: "modified", Start: 12, End: 12}}}
	syms, reads := changedCallers(f, stubLang{})
	var got []string
	for _, s := range syms {
		got = append(got, s.Name)
	}
	want := []string{"src/serialize.serialize", "src/serialize.Serializer.serializeObject", "src/serialize.Serializer.$object",
		"src/serialize.Serializer.serialize", "src/serialize.Serializer.compare", "src/serialize.Serializer.$Array"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("callers (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"src/serialize.Serializer.serializeObjectEntries"}, reads["src/serialize.serialize"]); diff != "" {
		t.Errorf("what serialize reaches (-want +got):\n%s", diff)
	}
}
