module example.com/calendar

go 1.22
