package jsonvalue

import (
	"reflect"
	"strings"
)

// EmptyLists returns a copy of v in which every nil slice reachable
// through exported fields, pointers, lists, maps and interfaces is an
// empty one, and every nil map an empty one, so a report encodes as `[]`
// and `{}` where it has nothing, never `null` (the README: "empty lists as
// []"). Fields the encoder leaves out (`json:"-"`, unexported) are left
// alone; pointers are followed, and what they point at is updated in
// place, once each.
func EmptyLists(v any) any {
	if v == nil {
		return nil
	}
	rv := reflect.ValueOf(v)
	cp := reflect.New(rv.Type()).Elem()
	cp.Set(rv)
	fill(cp, map[uintptr]bool{})
	return cp.Interface()
}

func fill(v reflect.Value, seen map[uintptr]bool) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() || seen[v.Pointer()] {
			return
		}
		seen[v.Pointer()] = true
		fill(v.Elem(), seen)
	case reflect.Interface:
		if v.IsNil() || !v.CanSet() {
			return
		}
		e := v.Elem()
		cp := reflect.New(e.Type()).Elem()
		cp.Set(e)
		fill(cp, seen)
		v.Set(cp)
	case reflect.Struct:
		t := v.Type()
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			if !f.IsExported() && !f.Anonymous {
				continue
			}
			if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == "-" {
				continue
			}
			if fv := v.Field(i); fv.CanSet() {
				fill(fv, seen)
			}
		}
	case reflect.Slice:
		if v.IsNil() {
			if v.CanSet() && v.Type().Elem().Kind() != reflect.Uint8 {
				v.Set(reflect.MakeSlice(v.Type(), 0, 0))
			}
			return
		}
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i), seen)
		}
	case reflect.Array:
		for i := 0; i < v.Len(); i++ {
			fill(v.Index(i), seen)
		}
	case reflect.Map:
		if v.IsNil() {
			if v.CanSet() {
				v.Set(reflect.MakeMap(v.Type()))
			}
			return
		}
		for _, k := range v.MapKeys() {
			e := v.MapIndex(k)
			cp := reflect.New(e.Type()).Elem()
			cp.Set(e)
			fill(cp, seen)
			v.SetMapIndex(k, cp)
		}
	}
}
