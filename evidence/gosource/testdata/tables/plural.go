package tables

func Plural(s string) string { return s + "s" }
