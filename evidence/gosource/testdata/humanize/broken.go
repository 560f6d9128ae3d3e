package humanize

func ( {
